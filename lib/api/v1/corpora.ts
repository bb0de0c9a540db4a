import { createHash } from "node:crypto";
import { z } from "zod";
import "zod-openapi";
import { findCorpusById, listCorpora, type CorpusSummary } from "@/db/queries/corpus";
import { demand } from "@/lib/auth/policy";
import { SEGMENT_SHAPES } from "@/lib/auth/route-policy";
import { ingestUpload } from "@/lib/corpus/add-upload";
import { createCorpus, CorpusRequestError } from "@/lib/corpus/create";
import { getIngestJob, listIngestJobs, type IngestJob } from "@/lib/corpus/ingest";
import { UploadError } from "@/lib/corpus/upload";
import { ApiError, apiErrorSchema, endpoint, json } from "../endpoint";
import { idempotencyKeyOf, idempotent } from "../idempotency";
import { absolute } from "./absolute";
import { strictObject, uuidParam } from "./common";
import { limitParam, nextSchema } from "./cursor";

/*
 * Corpora through the API: create one, push documents into it as an ingest job, follow the job.
 * A CMS pushing its articles sends them as JSON records (the fields of a line of a JSONL corpus
 * file); they are stored as such a file and ingested by the very path the corpus page's upload
 * takes (lib/corpus/add-upload.ts): streamed within the format's limit, resumable, and removed once
 * the job completes. Re-sending a document with the same id replaces it when its text changed and
 * skips it when not, so a CMS can push an article again after every edit.
 */

/** Records per request: 2 MB of JSON (the gate's body limit) holds about this many short articles. */
export const MAX_DOCUMENTS = 1000;

const nameParam = z.object({
  name: z
    .string()
    .regex(SEGMENT_SHAPES["corpus-name"])
    .meta({ description: "The corpus's name.", example: "newsroom" }),
});

const corpusSchema = z
  .object({
    name: z.string(),
    description: z.string().nullable(),
    embeddingModel: z.string().meta({ description: "The model its passages are embedded with (searches use it)." }),
    documents: z.number().int(),
    passages: z.number().int(),
    createdAt: z.string(),
    links: z.object({
      self: z.string(),
      documents: z.string().meta({ description: "POST documents here." }),
      page: z.string().meta({ description: "Its page for people." }),
    }),
  })
  .meta({ id: "Corpus" });

const corpusLinks = (request: Request, name: string) => ({
  self: absolute(request, `/api/v1/corpora/${name}`),
  documents: absolute(request, `/api/v1/corpora/${name}/documents`),
  page: absolute(request, `/corpora/${name}`),
});

function corpusOut(
  request: Request,
  c: Pick<CorpusSummary, "name" | "description" | "embeddingModel" | "createdAt">,
  counts = { documents: 0, passages: 0 },
): z.input<typeof corpusSchema> {
  return {
    name: c.name,
    description: c.description,
    embeddingModel: c.embeddingModel,
    documents: counts.documents,
    passages: counts.passages,
    createdAt: c.createdAt.toISOString(),
    links: corpusLinks(request, c.name),
  };
}

export const ingestJobSchema = z
  .object({
    id: z.string().uuid(),
    corpus: z.string().nullable(),
    status: z.enum(["running", "completed", "failed", "cancelled", "interrupted"]).meta({
      description:
        "`running` until it ends; `completed`, or `failed` (see `error`), `cancelled` or `interrupted` (resumable from the corpus page).",
    }),
    kind: z
      .string()
      .meta({ description: "file (an upload or pushed records), url, directory, sample, dataset, reembed." }),
    source: z.string().meta({ description: "What it reads, without the server's folders: a file name or an address." }),
    progress: z.object({
      recordsDone: z.number().int(),
      bytesDone: z.number().int(),
      bytesTotal: z.number().int().nullable(),
    }),
    result: z
      .object({
        documentsAdded: z.number().int(),
        documentsUpdated: z.number().int(),
        documentsUnchanged: z.number().int(),
        documentsSkippedEmpty: z.number().int(),
        passagesAdded: z.number().int(),
        passagesRemoved: z.number().int(),
        errors: z.number().int().meta({ description: "Records refused (each in `recentErrors`, the last 50)." }),
      })
      .meta({ description: "Counts so far; final once the status is not `running`." }),
    recentErrors: z.array(z.object({ line: z.number().int().optional(), message: z.string() })),
    error: z.string().nullable().meta({ description: "Why the job stopped, when it failed." }),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    links: z.object({ self: z.string(), corpus: z.string().nullable() }),
  })
  .meta({ id: "IngestJob" });

function jobOut(request: Request, job: IngestJob, corpus: string | null): z.input<typeof ingestJobSchema> {
  return {
    id: job.jobId,
    corpus,
    status: job.status,
    kind: job.kind,
    // A file job's source is a path in the server's data folder: only its name is the client's business.
    source: job.kind === "file" || job.kind === "directory" ? job.source.split(/[\\/]/).pop()! : job.source,
    progress: { recordsDone: job.recordsDone, bytesDone: job.bytesDone, bytesTotal: job.bytesTotal ?? null },
    result: {
      documentsAdded: job.docsAdded,
      documentsUpdated: job.docsUpdated,
      documentsUnchanged: job.docsUnchanged,
      documentsSkippedEmpty: job.docsSkippedEmpty,
      passagesAdded: job.passagesAdded,
      passagesRemoved: job.passagesRemoved,
      errors: job.errors,
    },
    recentErrors: job.recentErrors.map((e) => ({
      ...(e.line !== undefined ? { line: e.line } : {}),
      message: e.message,
    })),
    error: job.error,
    createdAt: job.createdAt.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
    links: {
      self: absolute(request, `/api/v1/ingest-jobs/${job.jobId}`),
      corpus: corpus ? absolute(request, `/api/v1/corpora/${corpus}`) : null,
    },
  };
}

const TAG = "Corpora";
const CURSOR_MESSAGE = "use the `next` address of the previous page as it is; it carries this value";

export const listCorporaEndpoint = endpoint({
  id: "listCorpora",
  method: "GET",
  path: "/api/v1/corpora",
  tag: TAG,
  summary: "List corpora, by name",
  query: z.object({
    limit: limitParam(100, 50),
    cursor: z
      .string()
      .max(200, CURSOR_MESSAGE)
      .transform((v, ctx) => {
        const name = Buffer.from(v, "base64url").toString("utf8");
        if (!SEGMENT_SHAPES["corpus-name"].test(name)) {
          ctx.addIssue({ code: "custom", message: CURSOR_MESSAGE });
          return z.NEVER;
        }
        return name;
      })
      .optional()
      .meta({ description: "Where the page starts: copied from the previous page's `next`." }),
  }),
  responses: {
    200: {
      description: "A page of corpora in name order.",
      schema: z.object({ corpora: z.array(corpusSchema), next: nextSchema }).meta({ id: "CorpusList" }),
    },
  },
  async handle({ db, query, request }) {
    // One row per corpus (an installation has a handful to hundreds): read whole, paged here.
    const all = await listCorpora(db);
    const after = query.cursor;
    const rest = after === undefined ? all : all.filter((c) => c.name > after);
    const page = rest.slice(0, query.limit);
    let next: string | null = null;
    if (rest.length > query.limit) {
      const url = new URL(request.url);
      url.searchParams.set("limit", String(query.limit));
      url.searchParams.set("cursor", Buffer.from(page.at(-1)!.name).toString("base64url"));
      next = absolute(request, `${url.pathname}?${url.searchParams}`);
    }
    return {
      status: 200,
      json: { corpora: page.map((c) => corpusOut(request, c, c)), next },
    };
  },
});

export const createCorpusEndpoint = endpoint({
  id: "createCorpus",
  method: "POST",
  path: "/api/v1/corpora",
  tag: TAG,
  summary: "Create a corpus",
  description:
    "An empty corpus embedded with the server's EMBEDDING_MODEL; add documents with POST /api/v1/corpora/{name}/documents. Needs the scope `corpus:write`.",
  body: strictObject({
    name: z.string({ error: "name is required: 1 to 64 letters, digits, - and _" }).meta({
      description: "1 to 64 characters: letters, digits, - and _ (it appears in addresses).",
      example: "newsroom",
    }),
    description: z.string().trim().max(500, "description is at most 500 characters").optional(),
  }).meta({ id: "CreateCorpus" }),
  idempotent: true,
  responses: {
    201: { description: "The corpus is created; `Location` is its address.", schema: corpusSchema },
    409: { description: "A corpus of that name exists (GET it, or choose another name).", schema: apiErrorSchema },
  },
  async handle({ db, principal, body, request }) {
    try {
      const { corpus, created } = await createCorpus(db, principal, body);
      if (!created)
        throw new ApiError(
          409,
          "conflict",
          `A corpus named "${corpus.name}" exists already; add documents to it, or choose another name.`,
          "name",
        );
      const out = corpusOut(request, corpus);
      return { status: 201, json: out, headers: { location: out.links.self } };
    } catch (e) {
      if (e instanceof CorpusRequestError) throw new ApiError(400, "invalid_request", e.message, e.field);
      throw e;
    }
  },
});

export const readCorpusEndpoint = endpoint({
  id: "readCorpus",
  method: "GET",
  path: "/api/v1/corpora/{name}",
  tag: TAG,
  summary: "Read a corpus and its latest ingest jobs",
  params: nameParam,
  responses: {
    200: {
      description: "The corpus, with its 10 latest ingest jobs.",
      schema: corpusSchema.extend({ jobs: z.array(ingestJobSchema) }).meta({ id: "CorpusWithJobs" }),
    },
  },
  async handle({ db, params, request }) {
    const summary = (await listCorpora(db)).find((c) => c.name === params.name);
    if (!summary)
      throw new ApiError(
        404,
        "not_found",
        `There is no corpus named "${params.name}"; GET /api/v1/corpora lists them.`,
      );
    const jobs = await listIngestJobs(db, summary.id, { limit: 10 });
    return {
      status: 200,
      json: { ...corpusOut(request, summary, summary), jobs: jobs.map((j) => jobOut(request, j, summary.name)) },
    };
  },
});

const documentSchema = strictObject({
  id: z
    .union([z.string().trim().min(1, "id is empty"), z.number().int()], {
      error: "id is required: your system's id for the document (a string or an integer)",
    })
    .meta({ description: "Your id for it: sending the same id again replaces the document when its text changed." }),
  text: z.string({ error: "text is required: the document's text" }).meta({ description: "The text (plain)." }),
  title: z.string().nullish(),
  url: z.string().nullish().meta({ description: "Where it is published." }),
  published_at: z.string().nullish().meta({
    description: "When it was published (an ISO date or date-time); evidence after a claim's date is left out.",
  }),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

export const addDocumentsEndpoint = endpoint({
  id: "addDocuments",
  method: "POST",
  path: "/api/v1/corpora/{name}/documents",
  tag: TAG,
  summary: "Add documents to a corpus, as an ingest job",
  description: `Up to ${MAX_DOCUMENTS} documents (and 2 MB) a request, each the fields of a line of a JSONL corpus file. They are split into passages and embedded by an ingest job that runs on after the answer: follow it at \`Location\` until its status is not \`running\`. A record the ingest refuses is counted in the job's errors and the rest go in. Needs the scope \`corpus:write\`.`,
  params: nameParam,
  body: strictObject({
    documents: z
      .array(documentSchema, { error: "documents is required: a list of {id, text, title?, url?, published_at?}" })
      .min(1, "documents is empty: send at least one")
      .max(MAX_DOCUMENTS, `at most ${MAX_DOCUMENTS} documents a request; send the rest in further requests`),
  }).meta({ id: "AddDocuments" }),
  idempotent: true,
  responses: {
    202: { description: "The ingest job is running; `Location` is its address.", schema: ingestJobSchema },
    413: {
      description: "The documents are over the size limit for JSONL files (the body is also capped at 2 MB).",
      schema: apiErrorSchema,
    },
  },
  async handle({ db, principal, params, body, request }) {
    demand(principal, "corpus:write");
    // One JSON line per document, streamed into the upload as it is written.
    const lines = (async function* () {
      for (const d of body.documents) yield Buffer.from(`${JSON.stringify(d)}\n`);
    })();
    let started: Awaited<ReturnType<typeof ingestUpload>>;
    try {
      started = await ingestUpload(db, principal, params.name, lines, { fileName: "documents.jsonl" });
    } catch (e) {
      if (!(e instanceof UploadError)) throw e;
      if (e.status === 404) throw new ApiError(404, "not_found", e.message);
      if (e.status === 413) throw new ApiError(413, "payload_too_large", e.message, "documents");
      throw new ApiError(400, "invalid_request", e.message, "documents");
    }
    const job = await getIngestJob(db, started.jobId);
    if (!job) throw new Error(`ingest job ${started.jobId} vanished after it was made`);
    const out = jobOut(request, job, params.name);
    return { status: 202, json: out, headers: { location: out.links.self } };
  },
});

/** Files through the API are bounded by the body limit every /api/v1 request has (the gate's 2 MB). */
const FILE_LIMIT_WORDS = "2 MB";

export const addFileEndpoint = endpoint({
  id: "addFile",
  method: "POST",
  path: "/api/v1/corpora/{name}/files",
  tag: TAG,
  summary: "Add a file (PDF, HTML, Markdown, text, CSV or JSONL) to a corpus, as an ingest job",
  description: `The file's bytes are the body and \`filename\` names it; its extension says how it is read (the corpus page's upload accepts the same ones). Up to ${FILE_LIMIT_WORDS} through the API; larger files go through the corpus page or \`counterpoint ingest\`. A file read whole (PDF, HTML, Markdown, text) is one document identified by its name, so sending a corrected file again replaces it. Follow the job at \`Location\`. Needs the scope \`corpus:write\`.`,
  params: nameParam,
  query: z.object({
    filename: z
      .string({ error: "filename is required: the file's name with its extension, e.g. report.pdf" })
      .min(1, "filename is required: the file's name with its extension, e.g. report.pdf")
      .max(200, "filename is at most 200 characters")
      .meta({ description: "The file's name; its extension says how it is read.", example: "annual-report.pdf" }),
  }),
  rawBody: { description: "The file's bytes, as they are.", contentType: "application/octet-stream" },
  idempotent: true,
  responses: {
    202: { description: "The ingest job is running; `Location` is its address.", schema: ingestJobSchema },
    409: {
      description:
        "The Idempotency-Key was used with another file in the last 24 hours, or its first request is still running.",
      schema: apiErrorSchema,
    },
    413: { description: `The file is over ${FILE_LIMIT_WORDS} (or its format's limit).`, schema: apiErrorSchema },
    415: { description: "The file's extension is not one Counterpoint reads.", schema: apiErrorSchema },
  },
  async handle({ db, principal, params, query, request }) {
    const me = demand(principal, "corpus:write");
    // Bounded: the gate refuses a body over its limit before this runs.
    const bytes = new Uint8Array(await request.arrayBuffer());
    // serve() keys JSON bodies; a file is keyed by its address, name and content here, the same way.
    const key = idempotencyKeyOf(request);
    const url = new URL(request.url);
    const run = key
      ? await idempotent(
          db,
          me.id,
          key,
          "addFile",
          `${url.pathname}\n${query.filename}\n${createHash("sha256").update(bytes).digest("hex")}`,
        )
      : null;
    if (run?.kind === "replay")
      return json(run.status, run.body, {
        "idempotent-replayed": "true",
        ...(run.location ? { location: run.location } : {}),
      });
    try {
      let started: Awaited<ReturnType<typeof ingestUpload>>;
      try {
        started = await ingestUpload(
          db,
          me,
          params.name,
          (async function* () {
            yield bytes;
          })(),
          { fileName: query.filename, declaredBytes: bytes.byteLength },
        );
      } catch (e) {
        if (!(e instanceof UploadError)) throw e;
        if (e.status === 404) throw new ApiError(404, "not_found", e.message);
        if (e.status === 413) throw new ApiError(413, "payload_too_large", e.message);
        if (e.status === 415) throw new ApiError(415, "unsupported_media_type", e.message, "filename");
        throw new ApiError(400, "invalid_request", e.message, e.status === 422 ? undefined : "filename");
      }
      const job = await getIngestJob(db, started.jobId);
      if (!job) throw new Error(`ingest job ${started.jobId} vanished after it was made`);
      const out = ingestJobSchema.parse(jobOut(request, job, params.name));
      await run?.done(202, out, out.links.self);
      return { status: 202, json: out, headers: { location: out.links.self } };
    } catch (e) {
      // Nothing was done under the key: a retry with it runs the request again.
      if (run?.kind === "run") await run.release().catch(() => {});
      throw e;
    }
  },
});

export const readIngestJobEndpoint = endpoint({
  id: "readIngestJob",
  method: "GET",
  path: "/api/v1/ingest-jobs/{id}",
  tag: TAG,
  summary: "Read an ingest job: its progress, then its result",
  params: uuidParam,
  responses: { 200: { description: "The job.", schema: ingestJobSchema } },
  async handle({ db, params, request }) {
    const job = await getIngestJob(db, params.id);
    if (!job) throw new ApiError(404, "not_found", "There is no ingest job with this id.");
    const corpus = await findCorpusById(db, job.corpusId);
    return { status: 200, json: jobOut(request, job, corpus?.name ?? null) };
  },
});

export const CORPUS_ENDPOINTS = [
  listCorporaEndpoint,
  createCorpusEndpoint,
  readCorpusEndpoint,
  addDocumentsEndpoint,
  addFileEndpoint,
  readIngestJobEndpoint,
];

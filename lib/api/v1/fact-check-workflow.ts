import { z } from "zod";
import "zod-openapi";
import type { Database } from "@/db/client";
import { getFactCheckBySlug, listForEditors, listVersions, type FactCheckRow } from "@/db/queries/fact-checks";
import { FACT_CHECK_STATES } from "@/db/schema";
import { getSetting } from "@/db/queries/settings";
import { SEGMENT_SHAPES } from "@/lib/auth/route-policy";
import { demand, type Principal } from "@/lib/auth/policy";
import { PRODUCT_LABELS } from "@/lib/debate/methods";
import { hasPendingCorrection } from "@/lib/fact-checks/approval";
import { approveFactCheck, saveFactCheck, startFactCheck } from "@/lib/fact-checks/edit";
import type { ContentValues } from "@/lib/fact-checks/input";
import { FactCheckError, publish, submitForReview } from "@/lib/fact-checks/workflow";
import { ApiError, apiErrorSchema, endpoint, type EndpointResponse } from "../endpoint";
import { absolute } from "./absolute";
import { strictObject } from "./common";
import { cursorParam, limitParam, nextSchema, pageOf } from "./cursor";

/*
 * The editor's workflow through the API (scope `fact-check:write`, as the editors' pages): a draft
 * from a finished debate or comparison, new versions, review, approval, publication, corrections.
 * Every move is the service the pages call (lib/fact-checks/edit.ts, workflow.ts), so the rules are
 * the pages' rules: the second-approval setting, nobody approving text they wrote, and a move over
 * a version someone has since replaced refused (`version` is the one the client read).
 *
 * The editor's view lives at /api/v1/fact-checks/{slug}/versions; the public one at
 * /api/v1/fact-checks/{slug} shows only what readers see.
 */

const slugParam = z.object({
  slug: z.string().regex(SEGMENT_SHAPES["fact-check-slug"]).meta({
    description: "The fact-check's slug (the last part of its page's address).",
    example: "the-council-spent-5-million-on-roads-in-2023",
  }),
});

const seenVersion = z
  .number({ error: "version is required: the `version` you read from /versions, which this move is made over" })
  .int("version is a whole number")
  .min(1, "version is 1 or more")
  .meta({
    description:
      "The version you read (`version` of GET /versions). If someone saved another since, the move is refused (409) and nothing is lost: read again and redo it over the newest.",
    example: 1,
  });

const optionalText = (description: string) => z.string().nullable().optional().meta({ description });

/** What an editor writes. The rules (lengths, dates, links) are the page's, checked by the service; a broken one is a 400 naming the field. */
const contentShape = {
  claim: z.string({ error: "claim is required: the claim as it was made" }).meta({
    description: "The claim as it was made (at most 1,000 characters).",
    example: "The council spent £5 million on roads in 2023.",
  }),
  rating: z
    .enum(PRODUCT_LABELS, { error: `rating is required: one of ${PRODUCT_LABELS.join(", ")}` })
    .meta({ description: "The rating on the product's scale." }),
  textualRating: z
    .string({ error: "textualRating is required: the rating readers see, e.g. Mostly false" })
    .meta({ description: "The rating in the newsroom's words (at most 80 characters).", example: "Mostly false" }),
  explanation: z
    .string({ error: "explanation is required: the explanation readers see (Markdown)" })
    .meta({ description: "The explanation readers see, in Markdown (at most 20,000 characters)." }),
  claimant: optionalText("Who made the claim."),
  claimantKind: z
    .enum(["Person", "Organization"], { error: "claimantKind is Person or Organization" })
    .optional()
    .meta({ description: "Whether a person or an organisation said it; Person when left out." }),
  whereSaid: optionalText("Where it was said, in words."),
  appearanceUrl: optionalText("Where the claim can be seen or heard (http:// or https://)."),
  claimDate: optionalText("When the claim was made (yyyy-mm-dd, not in the future)."),
  showDebateLink: z
    .boolean({ error: "showDebateLink is true or false" })
    .optional()
    .meta({ description: "Whether the public page links to a read-only view of the debate; false when left out." }),
  sources: z
    .array(z.string({ error: "each source is a `<debate id>:<rank>` key" }), {
      error: "sources is a list of `<debate id>:<rank>` keys",
    })
    .max(100, "at most 100 sources")
    .optional()
    .meta({
      description:
        "The evidence cited, as `<debate id>:<rank>` keys of the debate's evidence (GET /api/v1/debates/{id} lists it with its ranks).",
      example: [],
    }),
};

export const createFactCheckBody = strictObject({
  debateId: z.string().uuid("debateId is the id of a finished debate").optional().meta({
    description: "The finished debate the fact-check is made from (or give comparisonId).",
  }),
  comparisonId: z.string().uuid("comparisonId is the id of a finished comparison").optional().meta({
    description: "The finished comparison the fact-check is made from (or give debateId).",
  }),
  ...contentShape,
})
  .refine((b) => !!b.debateId !== !!b.comparisonId, {
    message: "give exactly one of debateId and comparisonId: the debate or comparison the fact-check is made from",
    path: ["debateId"],
  })
  .meta({ id: "CreateFactCheck" });

const saveBody = strictObject({ version: seenVersion, ...contentShape }).meta({ id: "SaveFactCheckVersion" });
const correctBody = strictObject({
  version: seenVersion,
  ...contentShape,
  correctionNote: z
    .string({ error: "correctionNote is required: what the correction changes, as readers will read it" })
    .meta({ description: "What the correction changes (at most 2,000 characters); readers see it with its date." }),
}).meta({ id: "CorrectFactCheck" });
const moveBody = strictObject({ version: seenVersion }).meta({ id: "FactCheckMove" });

const contentSchema = z.object({
  claim: z.string(),
  rating: z.enum(PRODUCT_LABELS),
  textualRating: z.string(),
  explanation: z.string(),
  claimant: z.string().nullable(),
  claimantKind: z.string(),
  whereSaid: z.string().nullable(),
  appearanceUrl: z.string().nullable(),
  claimDate: z.string().nullable(),
  showDebateLink: z.boolean(),
  sources: z.array(
    z.object({
      key: z.string().meta({ description: "`<debate id>:<rank>`, as sent." }),
      title: z.string().nullable(),
      url: z.string().nullable(),
      excerpt: z.string(),
    }),
  ),
  correctionNote: z.string().nullable(),
});

export const editorFactCheckSchema = z
  .object({
    id: z.string().uuid(),
    slug: z.string(),
    state: z.enum(FACT_CHECK_STATES),
    version: z.number().int().meta({ description: "The newest version: send it back with the next move." }),
    publishedVersion: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The version readers see; null until published." }),
    publishedAt: z.string().nullable(),
    pendingCorrection: z
      .boolean()
      .meta({ description: "A correction is saved that readers do not see until another editor approves it." }),
    secondApproval: z
      .boolean()
      .meta({ description: "Whether this newsroom asks a second editor to approve every publication and correction." }),
    source: z.object({ debateId: z.string().uuid().nullable(), comparisonId: z.string().uuid().nullable() }),
    content: contentSchema.meta({ description: "What the newest version says." }),
    versions: z
      .array(
        z.object({
          version: z.number().int(),
          event: z.string().meta({
            description:
              "created, edited, submitted, published, approved, corrected, correction-proposed or correction-approved.",
          }),
          at: z.string(),
          author: z.object({ id: z.string().uuid(), name: z.string().nullable(), email: z.string() }).nullable(),
        }),
      )
      .meta({ description: "Every version, oldest first, with who wrote it." }),
    links: z.object({
      self: z.string().meta({ description: "This editor's view." }),
      public: z.string().nullable().meta({ description: "The published fact-check in the API; null until published." }),
      page: z.string().meta({ description: "The editing page for people." }),
    }),
  })
  .meta({ id: "EditorFactCheck" });

async function bySlug(db: Database, slug: string): Promise<FactCheckRow> {
  const fc = await getFactCheckBySlug(db, slug);
  if (!fc)
    throw new ApiError(404, "not_found", "No fact-check has this slug; GET /api/v1/fact-checks/desk lists them.");
  return fc;
}

async function editorView(
  db: Database,
  request: Request,
  slug: string,
): Promise<z.input<typeof editorFactCheckSchema>> {
  const fc = await bySlug(db, slug);
  // A fact-check has one version per save or move: tens, not thousands.
  const [versions, secondApproval] = await Promise.all([
    listVersions(db, fc.id),
    getSetting(db, "fact_check_second_approval"),
  ]);
  const current = versions.find((v) => v.version === fc.currentVersion)!;
  const published = fc.publishedVersion !== null;
  return {
    id: fc.id,
    slug: fc.slug,
    state: fc.state,
    version: fc.currentVersion,
    publishedVersion: fc.publishedVersion,
    publishedAt: fc.publishedAt?.toISOString() ?? null,
    pendingCorrection: hasPendingCorrection(fc),
    secondApproval,
    source: { debateId: fc.debateId, comparisonId: fc.comparisonId },
    content: {
      claim: current.claim,
      rating: current.rating as (typeof PRODUCT_LABELS)[number],
      textualRating: current.textualRating,
      explanation: current.explanation,
      claimant: current.claimant,
      claimantKind: current.claimantKind,
      whereSaid: current.whereSaid,
      appearanceUrl: current.appearanceUrl,
      claimDate: current.claimDate,
      showDebateLink: current.showDebateLink,
      sources: current.sources.map((s) => ({
        key: `${s.debateId}:${s.rank}`,
        title: s.title,
        url: s.url,
        excerpt: s.excerpt,
      })),
      correctionNote: current.correctionNote,
    },
    versions: versions.map((v) => ({
      version: v.version,
      event: v.event,
      at: v.createdAt.toISOString(),
      author: v.createdBy && v.authorEmail ? { id: v.createdBy, name: v.authorName, email: v.authorEmail } : null,
    })),
    links: {
      self: absolute(request, `/api/v1/fact-checks/${fc.slug}/versions`),
      public: published ? absolute(request, `/api/v1/fact-checks/${fc.slug}`) : null,
      page: absolute(request, `/fact-checks/${fc.slug}/edit`),
    },
  };
}

/** The API's field for a form field the service names. */
const API_FIELD: Record<string, string> = { source: "sources" };

/** A workflow refusal said as the API says it: a field's rule 400, the approval rule 403, a state or version clash 409. */
async function moving<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof FactCheckError)) throw e;
    if (e.field) throw new ApiError(400, "invalid_request", e.message, API_FIELD[e.field] ?? e.field);
    if (e.kind === "not-allowed") throw new ApiError(403, "forbidden", e.message);
    if (e.kind === "not-found") throw new ApiError(404, "not_found", e.message);
    throw new ApiError(409, "conflict", e.message);
  }
}

type ContentBody = { [K in keyof typeof contentShape]?: z.output<(typeof contentShape)[K]> };
const valuesOf = (b: ContentBody): ContentValues => ({
  claim: b.claim ?? "",
  rating: b.rating ?? "",
  textualRating: b.textualRating ?? "",
  explanation: b.explanation ?? "",
  claimant: b.claimant,
  claimantKind: b.claimantKind,
  whereSaid: b.whereSaid,
  appearanceUrl: b.appearanceUrl,
  claimDate: b.claimDate,
  showDebateLink: b.showDebateLink,
  sources: b.sources,
});

const TAG = "Fact-checks (editors)";
const viewResponse = {
  200: { description: "The fact-check as editors see it, after the move.", schema: editorFactCheckSchema },
};
const MOVE_REFUSALS =
  "The move does not fit the fact-check's state, or someone saved another version since `version` (read it again and redo the move over the newest).";

export const createFactCheckEndpoint = endpoint({
  id: "createFactCheck",
  method: "POST",
  path: "/api/v1/fact-checks",
  tag: TAG,
  summary: "Write a draft fact-check from a finished debate or comparison",
  description:
    "Version 1 of a new draft, from a finished debate (or comparison) and what the editor wrote. Readers see nothing until it is published. Needs the scope `fact-check:write`.",
  body: createFactCheckBody,
  idempotent: true,
  responses: {
    201: {
      description: "The draft, as editors see it; `Location` is its editor's view.",
      schema: editorFactCheckSchema,
    },
    409: {
      description: "The debate or comparison has not finished, or has no readable verdict.",
      schema: apiErrorSchema,
    },
  },
  async handle({ db, principal, body, request }) {
    const me = demand(principal, "fact-check:write");
    const ref = body.debateId ? { debateId: body.debateId } : { comparisonId: body.comparisonId! };
    const fc = await moving(() => startFactCheck(db, me, ref, valuesOf(body))).catch((e: unknown) => {
      // A field naming nothing is the request's fault (as Stripe's "No such customer"): 400 on that field.
      if (e instanceof ApiError && e.status === 404)
        throw new ApiError(400, "invalid_request", e.message, body.debateId ? "debateId" : "comparisonId");
      throw e;
    });
    const view = await editorView(db, request, fc.slug);
    return { status: 201, json: view, headers: { location: view.links.self } };
  },
});

const deskItem = z.object({
  id: z.string().uuid(),
  slug: z.string(),
  state: z.enum(FACT_CHECK_STATES),
  version: z.number().int(),
  publishedVersion: z.number().int().nullable(),
  pendingCorrection: z.boolean(),
  claim: z.string().meta({ description: "The claim as the newest version words it." }),
  rating: z.object({ product: z.enum(PRODUCT_LABELS), textual: z.string() }),
  createdAt: z.string(),
  updatedAt: z.string(),
  links: z.object({ self: z.string(), public: z.string().nullable() }),
});

export const listDeskEndpoint = endpoint({
  id: "listFactChecksForEditors",
  method: "GET",
  path: "/api/v1/fact-checks/desk",
  tag: TAG,
  summary: "List fact-checks in every state, for editors",
  description:
    "Drafts, fact-checks in review and published ones, most recently changed first (the editors' desk). Needs the scope `fact-check:write`: drafts are for editors' eyes.",
  query: z.object({
    state: z
      .enum(FACT_CHECK_STATES, { error: `state is one of ${FACT_CHECK_STATES.join(", ")}` })
      .optional()
      .meta({ description: "Only fact-checks in this state." }),
    limit: limitParam(100, 25),
    cursor: cursorParam,
  }),
  responses: {
    200: {
      description: "A page of fact-checks, most recently changed first.",
      schema: z.object({ factChecks: z.array(deskItem), next: nextSchema }).meta({ id: "EditorFactCheckList" }),
    },
  },
  async handle({ db, principal, query, request }) {
    demand(principal, "fact-check:write");
    const rows = await listForEditors(db, {
      limit: query.limit + 1,
      cursor: query.cursor,
      states: query.state ? [query.state] : undefined,
    });
    const { page, next } = pageOf(rows, query.limit, new URL(request.url));
    const factChecks = page.map(
      (r): z.input<typeof deskItem> => ({
        id: r.id,
        slug: r.slug,
        state: r.state,
        version: r.currentVersion,
        publishedVersion: r.publishedVersion,
        pendingCorrection: hasPendingCorrection(r),
        claim: r.claim,
        rating: { product: r.rating as (typeof PRODUCT_LABELS)[number], textual: r.textualRating },
        createdAt: r.createdAt.toISOString(),
        updatedAt: r.updatedAt.toISOString(),
        links: {
          self: absolute(request, `/api/v1/fact-checks/${r.slug}/versions`),
          public: r.publishedVersion !== null ? absolute(request, `/api/v1/fact-checks/${r.slug}`) : null,
        },
      }),
    );
    return { status: 200, json: { factChecks, next: absolute(request, next) } };
  },
});

export const readEditorFactCheck = endpoint({
  id: "readFactCheckForEditors",
  method: "GET",
  path: "/api/v1/fact-checks/{slug}/versions",
  tag: TAG,
  summary: "Read a fact-check as editors see it: state, newest text and every version",
  description: "Any state, drafts included. Needs the scope `fact-check:write`.",
  params: slugParam,
  responses: { 200: { description: "The fact-check as editors see it.", schema: editorFactCheckSchema } },
  async handle({ db, principal, params, request }) {
    demand(principal, "fact-check:write");
    return { status: 200, json: await editorView(db, request, params.slug) };
  },
});

/**
 * One move on one fact-check (save, review, approve, publish, correct): the same address shape,
 * body with the version read, refusals and answer (the editor's view after the move); only the
 * service call and the words differ.
 */
function moveEndpoint<B extends z.ZodType<{ version: number }>>(def: {
  id: string;
  /** The part of the address after `/api/v1/fact-checks/{slug}/`. */
  move: string;
  summary: string;
  description?: string;
  body: B;
  responses: Record<number, EndpointResponse>;
  run: (db: Database, principal: Principal | null, id: string, body: z.output<B>) => Promise<unknown>;
}) {
  return endpoint({
    id: def.id,
    method: "POST",
    path: `/api/v1/fact-checks/{slug}/${def.move}`,
    tag: TAG,
    summary: def.summary,
    description: [def.description, "Needs the scope `fact-check:write`."].filter(Boolean).join(" "),
    params: slugParam,
    body: def.body,
    idempotent: true,
    responses: { ...viewResponse, ...def.responses },
    async handle({ db, principal, params, body, request }) {
      const fc = await bySlug(db, params.slug);
      await moving(() => def.run(db, principal, fc.id, body as z.output<B>));
      return { status: 200, json: await editorView(db, request, fc.slug) };
    },
  });
}

const refused = (description: string) => ({ description, schema: apiErrorSchema });

export const saveFactCheckVersion = moveEndpoint({
  id: "saveFactCheckVersion",
  move: "versions",
  summary: "Save a new version of a draft (or of one in review)",
  description:
    "The whole text, as the editor's form sends it; the state stays. A published fact-check changes only by a correction (POST /corrections).",
  body: saveBody,
  responses: { 409: refused(MOVE_REFUSALS) },
  run: (db, principal, id, body) => saveFactCheck(db, principal, id, body.version, valuesOf(body), "edit"),
});

export const requestFactCheckReview = moveEndpoint({
  id: "requestFactCheckReview",
  move: "review",
  summary: "Send a draft for review by another editor",
  body: moveBody,
  responses: { 409: refused(MOVE_REFUSALS) },
  run: (db, principal, id, body) => submitForReview(db, principal, id, body.version),
});

export const approveFactCheckEndpoint = moveEndpoint({
  id: "approveFactCheck",
  move: "approve",
  summary: "Approve what waits for approval, which publishes it",
  description:
    "Approves a fact-check in review, or a correction waiting for a second editor; readers see it at once. Someone who wrote any of the text since the last publication cannot approve it (403).",
  body: moveBody,
  responses: {
    403: refused("You wrote part of this text: another editor must approve it (or the token lacks the scope)."),
    409: refused(`Nothing waits for approval. ${MOVE_REFUSALS}`),
  },
  run: (db, principal, id, body) => approveFactCheck(db, principal, id, body.version),
});

export const publishFactCheckEndpoint = moveEndpoint({
  id: "publishFactCheck",
  move: "publish",
  summary: "Publish a draft (or approve one in review), as the editor's Publish button",
  description:
    "Where the newsroom asks for a second approval, a draft is refused (403): send it for review, and another editor approves it.",
  body: moveBody,
  responses: {
    403: refused("The newsroom asks for a second approval, or you wrote the text waiting for it."),
    409: refused(`Already published. ${MOVE_REFUSALS}`),
  },
  run: (db, principal, id, body) => publish(db, principal, id, body.version),
});

export const correctFactCheckEndpoint = moveEndpoint({
  id: "correctFactCheck",
  move: "corrections",
  summary: "Correct a published fact-check",
  description:
    "The corrected text and a note readers see. Public at once, or, where the newsroom asks for a second approval, waiting (`pendingCorrection`) until another editor approves it (POST /approve).",
  body: correctBody,
  responses: { 409: refused(`Not published yet. ${MOVE_REFUSALS}`) },
  run: (db, principal, id, body) =>
    saveFactCheck(
      db,
      principal,
      id,
      body.version,
      { ...valuesOf(body), correctionNote: body.correctionNote },
      "correction",
    ),
});

/** In the order the document lists them. */
export const FACT_CHECK_WORKFLOW = [
  createFactCheckEndpoint,
  listDeskEndpoint,
  readEditorFactCheck,
  saveFactCheckVersion,
  requestFactCheckReview,
  approveFactCheckEndpoint,
  publishFactCheckEndpoint,
  correctFactCheckEndpoint,
];

import { createHash } from "node:crypto";
import type { Database } from "@/db/client";
import {
  corpusHasPassages,
  existingDocuments,
  findCorpus,
  insertCorpusIfMissing,
  updateCorpus,
  type CorpusRow,
  findCorpusById,
  writeDocuments,
  type DocumentToWrite,
} from "@/db/queries/corpus";
import {
  claimIngestJob,
  createIngestJob,
  finishIngestJob,
  getIngestJobRow,
  heartbeatIngestJob,
  listIngestJobRows,
  markJobNotResumable,
  markJobsInterrupted,
  markOrphanJobsInterrupted,
  otherJobRunners,
  recordJobProgress,
  requestIngestJobCancel,
  RECENT_ERRORS_CAP,
  type IngestJobRow,
  type ResumeState,
} from "@/db/queries/ingest-jobs";
import { canDeferVectorIndex, ensureVectorIndex } from "@/db/queries/vector-index";
import { resolveEmbedder, type Embedder } from "@/lib/embeddings/registry";
import { chunkText, resolveChunking } from "./chunk";
import { openSource, SourceError, type OpenedSource, type ReadSourceOptions, type ResumePoint } from "./formats";
import { NotTextError } from "./formats/decode";
import { CsvHeaderError } from "./formats/csv";
import { NoTextLayerError } from "./formats/documents";
import { goneHolders, isOrphan, keepLease, leaseIsLive } from "@/lib/process/lease";
import { holderIsGone } from "@/lib/process/identity";
import { IngestError, ORPHAN_AFTER_MS, RUNNER_ID, failureReason, localRuns, registerLocalRun } from "./jobs";
import type {
  ChunkingOptions,
  DocumentInput,
  IngestCounts,
  IngestOptions,
  IngestProgress,
  IngestSummary,
  SourceRecord,
} from "./types";

// Shared with re-embed jobs (jobs.ts); re-exported so callers keep one import for ingest jobs.
export { IngestError, ORPHAN_AFTER_MS, RUNNER_ID, failureReason, registerLocalRun };

/**
 * Documents per transaction unless the caller says otherwise. A batch also closes at
 * BATCH_PASSAGE_CAP passages, so long documents keep transactions (and what a failure drops)
 * small while one-sentence records reach the encoder 256 at a time: at 64 per call, measured on
 * PolitiFact-Hidden's sentences, onnxruntime spent about a tenth more CPU per passage on padding.
 */
export const DEFAULT_BATCH_SIZE = 256;
const BATCH_PASSAGE_CAP = 512;
/** A running job's heartbeat; a job whose heartbeat is older than ORPHAN_AFTER_MS has lost its process. */
const HEARTBEAT_MS = 10_000;

async function asLocalRun<T>(jobId: string, controller: AbortController, body: () => Promise<T>): Promise<T> {
  const unregister = registerLocalRun(jobId, controller);
  try {
    return await body();
  } finally {
    unregister();
  }
}

/** How long a resume waits for this process's cancelled run of the same job to finish its batch. */
const WIND_DOWN_MS = 60_000;

/** Options of a run; what is stored with the job so a resume repeats the run exactly. */
export type RunOptions = IngestOptions & {
  /** Read limits for files and URLs. */
  read?: ReadSourceOptions;
  /** An existing job row to run under (startIngest creates it first so the UI has its id at once). */
  jobId?: string;
  runnerId?: string;
  description?: string;
};

type StoredOptions = {
  chunking: ChunkingOptions;
  strict: boolean;
  batchSize: number;
  embeddingModel: string;
  /** Where to re-open the source on resume (dataset importers need their folder). */
  data?: string;
  read?: Omit<ReadSourceOptions, "signal" | "allow" | "resolve">;
};

// --- corpus ------------------------------------------------------------------------------------

/**
 * The corpus named `name`, created if missing. A corpus keeps one embedding model: ingesting with
 * another would leave passages that searches with the corpus's model cannot see.
 */
export async function ensureCorpus(
  db: Database,
  name: string,
  opts: { embeddingModel?: string; chunking?: Partial<ChunkingOptions>; description?: string } = {},
): Promise<CorpusRow> {
  const trimmed = name.trim();
  if (!trimmed) throw new IngestError("a corpus needs a name");
  const embeddingModel = opts.embeddingModel ?? resolveEmbedder().id;
  const corpus = await insertCorpusIfMissing(db, {
    name: trimmed,
    description: opts.description,
    embeddingModel,
    chunking: opts.chunking ? resolveChunking(opts.chunking) : undefined,
  });
  if (corpus.embeddingModel !== embeddingModel) {
    if (await corpusHasPassages(db, corpus.id)) {
      throw new IngestError(
        `corpus "${trimmed}" is embedded with ${corpus.embeddingModel}, not ${embeddingModel}; ingest with that model, ` +
          `switch the corpus first with npx counterpoint corpus reembed --corpus ${trimmed} --model ${embeddingModel}, or ingest into a new corpus`,
      );
    }
    await updateCorpus(db, corpus.id, { embeddingModel });
    corpus.embeddingModel = embeddingModel;
  }
  return corpus;
}

// --- preparing documents -----------------------------------------------------------------------

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === "object" && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, stable((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

type Prepared = {
  input: DocumentInput;
  hash: string;
  passages: Array<{
    externalId: string;
    ordinal: number;
    text: string;
    charStart: number | null;
    charEnd: number | null;
    embedding?: number[];
  }>;
};

/** Null when the document has no text at all. */
export function prepareDocument(doc: DocumentInput, chunking: ChunkingOptions): Prepared | null {
  let passages: Prepared["passages"];
  if (doc.passages) {
    let cursor = 0;
    passages = doc.passages
      .filter((p) => p.text.trim() !== "")
      .map((p, i) => {
        // Offsets into the document when the passage is a verbatim piece of it.
        const at = doc.text.indexOf(p.text, cursor);
        if (at >= 0) cursor = at + p.text.length;
        return {
          externalId: p.id,
          ordinal: i,
          text: p.text,
          charStart: at >= 0 ? at : null,
          charEnd: at >= 0 ? at + p.text.length : null,
          embedding: p.embedding,
        };
      });
  } else {
    passages = chunkText(doc.text, chunking).map((s, i) => ({
      externalId: `${doc.id}#${i}`,
      ordinal: i,
      text: s.text,
      charStart: s.start,
      charEnd: s.end,
    }));
  }
  if (passages.length === 0) return null;
  const hash = createHash("sha256")
    .update(
      JSON.stringify(
        stable({
          text: doc.text,
          title: doc.title ?? null,
          url: doc.url ?? null,
          publishedAt: doc.publishedAt?.toISOString() ?? null,
          metadata: doc.metadata ?? null,
          passages: passages.map((p) => [p.externalId, p.text]),
        }),
      ),
    )
    .digest("hex");
  return { input: doc, hash, passages };
}

// --- running a job -----------------------------------------------------------------------------

/** PostgreSQL cannot store U+0000 in text or jsonb; one in any field used to fail the whole batch. */
function stripNul<T>(value: T, count: { n: number }): T {
  if (typeof value === "string") {
    if (!value.includes("\u0000")) return value;
    count.n += value.split("\u0000").length - 1;
    return value.replaceAll("\u0000", "") as T;
  }
  if (Array.isArray(value)) return value.map((v) => stripNul(v, count)) as T;
  if (value && typeof value === "object" && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [stripNul(k, count), stripNul(v, count)])) as T;
  }
  return value;
}

export function withoutNul(doc: DocumentInput): { document: DocumentInput; removed: number } {
  const count = { n: 0 };
  const document = stripNul(doc, count);
  return { document: count.n ? document : doc, removed: count.n };
}

/** Ends a job as failed; if even that write fails, tries once more with a message that cannot be the problem. */
async function markFailed(db: Database, jobId: string, runnerId: string, reason: string) {
  try {
    await finishIngestJob(db, jobId, runnerId, { status: "failed", error: reason });
  } catch (e) {
    console.error(`[ingest] job ${jobId}: recording the failure failed: ${failureReason(e)}`);
    await finishIngestJob(db, jobId, runnerId, {
      status: "failed",
      error: "the ingest stopped because of an internal error; the server log has the details",
    }).catch((e2) => console.error(`[ingest] job ${jobId}: could not mark it failed: ${failureReason(e2)}`));
  }
}

const zeroCounts = (): IngestCounts => ({
  docsAdded: 0,
  docsUpdated: 0,
  docsUnchanged: 0,
  docsSkippedEmpty: 0,
  passagesAdded: 0,
  passagesRemoved: 0,
  errors: 0,
});

function countsOf(row: IngestJobRow): IngestCounts {
  return {
    docsAdded: row.docsAdded,
    docsUpdated: row.docsUpdated,
    docsUnchanged: row.docsUnchanged,
    docsSkippedEmpty: row.docsSkippedEmpty,
    passagesAdded: row.passagesAdded,
    passagesRemoved: row.passagesRemoved,
    errors: row.errors,
  };
}

export function jobProgress(row: IngestJobRow): IngestProgress {
  const started = row.startedAt?.getTime();
  const ended = (row.finishedAt ?? (row.status === "running" ? new Date() : row.heartbeatAt))?.getTime();
  const seconds = started && ended ? (ended - started) / 1000 : undefined;
  return {
    jobId: row.id,
    status: row.status,
    source: row.source,
    bytesTotal: row.bytesTotal ?? undefined,
    bytesDone: row.bytesDone,
    recordsDone: row.recordsDone,
    recentErrors: row.recentErrors,
    passagesPerSecond: seconds && seconds > 0 ? Math.round(row.passagesAdded / seconds) : undefined,
    ...countsOf(row),
  };
}

export type IngestJob = IngestProgress & {
  corpusId: string;
  kind: string;
  options: Record<string, unknown>;
  resume: ResumeState | null;
  runnerId: string | null;
  heartbeatAt: Date | null;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
};

function toJob(row: IngestJobRow): IngestJob {
  return {
    ...jobProgress(row),
    corpusId: row.corpusId,
    kind: row.kind,
    options: row.options,
    resume: row.resume,
    runnerId: row.runnerId,
    heartbeatAt: row.heartbeatAt,
    error: row.error,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

/** A running job of another process that is gone (or silent too long) is shown as what it is: interrupted. */
async function settle(db: Database, row: IngestJobRow): Promise<IngestJobRow> {
  if (row.status !== "running" || !isOrphan(leaseOf(row), ORPHAN_AFTER_MS, RUNNER_ID)) return row;
  await markJobsInterrupted(db, [row]);
  return (await getIngestJobRow(db, row.id)) ?? row;
}

export async function getIngestJob(db: Database, id: string): Promise<IngestJob | undefined> {
  const row = await getIngestJobRow(db, id);
  return row && toJob(await settle(db, row));
}

export async function listIngestJobs(
  db: Database,
  corpusId: string,
  opts: { limit?: number } = {},
): Promise<IngestJob[]> {
  const rows = await listIngestJobRows(db, corpusId, opts.limit);
  return (await Promise.all(rows.map((r) => settle(db, r)))).map(toJob);
}

/**
 * Call once at server start: jobs whose process died are shown as interrupted, ready to resume.
 * A process on this host that no longer exists is recognised at once; others by their heartbeat.
 */
export async function markOrphanedJobsInterrupted(
  db: Database,
  runnerId: string = RUNNER_ID,
  opts: { staleMs?: number } = {},
): Promise<number> {
  const gone = goneHolders(await otherJobRunners(db, runnerId), runnerId);
  return markOrphanJobsInterrupted(db, { runnerId, staleMs: opts.staleMs ?? ORPHAN_AFTER_MS, goneRunners: gone });
}

/** A job row as a lease: its runner holds it, its heartbeat renews it. */
const leaseOf = (j: { runnerId: string | null; heartbeatAt: Date | null }) => ({
  holder: j.runnerId,
  renewedAt: j.heartbeatAt,
});

/** Failures a resume would only repeat: the source itself is the problem. */
function isPermanent(e: unknown): boolean {
  return (
    e instanceof IngestError ||
    e instanceof SourceError ||
    e instanceof NotTextError ||
    e instanceof CsvHeaderError ||
    e instanceof NoTextLayerError
  );
}

// Jobs started by this process, so a cancel reaches the running loop at once.
const running = localRuns();

/**
 * Cancels a running job: the batch in flight is dropped, committed batches stay. Works across
 * processes too: the runner sees the status change when it next commits.
 */
export async function cancelIngestJob(db: Database, id: string): Promise<boolean> {
  const local = running.get(id);
  const changed = await requestIngestJobCancel(db, id);
  local?.controller.abort(new Error("cancelled"));
  return changed || !!local;
}

type RunContext = {
  db: Database;
  corpus: CorpusRow;
  embedder: Embedder;
  stored: StoredOptions;
  job: IngestJobRow;
  runnerId: string;
  signal?: AbortSignal;
  onProgress?: (p: IngestProgress) => void;
  /** The source's fingerprint, stored with each resume point. */
  fingerprint?: string;
};

class CancelledError extends Error {}

async function embedMissing(embedder: Embedder, docs: Prepared[], signal?: AbortSignal): Promise<number> {
  const todo = docs.flatMap((d) => d.passages.filter((p) => !p.embedding));
  for (let i = 0; i < todo.length; i += embedder.batchSize) {
    if (signal?.aborted) throw new CancelledError();
    const part = todo.slice(i, i + embedder.batchSize);
    const vectors = await embedder.embed(
      part.map((p) => p.text),
      signal,
    );
    if (vectors.length !== part.length)
      throw new Error(`${embedder.id} returned ${vectors.length} vectors for ${part.length} texts`);
    part.forEach((p, j) => (p.embedding = vectors[j]));
  }
  let dim: number | undefined;
  for (const d of docs)
    for (const p of d.passages) {
      dim ??= p.embedding!.length;
      if (p.embedding!.length !== dim || (embedder.dim !== undefined && dim !== embedder.dim)) {
        throw new Error(
          `passage ${p.externalId}: a ${p.embedding!.length}-dimensional vector where ${embedder.id} has ${embedder.dim ?? dim}`,
        );
      }
    }
  return dim ?? embedder.dim ?? 0;
}

async function runJob(ctx: RunContext, records: AsyncIterable<SourceRecord>): Promise<IngestSummary> {
  const { db, corpus, embedder, stored, runnerId } = ctx;
  const jobId = ctx.job.id;
  const started = Date.now();
  // Counts continue from what the job had committed before (a resume adds to them).
  const counts = countsOf(ctx.job);
  const recentErrors = [...ctx.job.recentErrors];
  let resume: ResumeState = {
    ...(ctx.job.resume ?? { recordsCommitted: 0 }),
    fingerprint: ctx.fingerprint ?? ctx.job.resume?.fingerprint,
  };
  let bytesDone = ctx.job.bytesDone;
  let recordsDone = ctx.job.recordsDone;
  let passagesThisRun = 0;
  const indexReady = new Set<number>();
  // On a model's first load the HNSW index is built once at the end, not maintained per row.
  let deferredIndexDim: number | undefined;
  const buildDeferredIndex = async () => {
    if (deferredIndexDim === undefined) return;
    const dim = deferredIndexDim;
    deferredIndexDim = undefined;
    await ensureVectorIndex(db, embedder.id, dim);
  };

  const progress = (status: IngestProgress["status"]): IngestProgress => {
    const seconds = (Date.now() - started) / 1000;
    return {
      jobId,
      status,
      source: ctx.job.source,
      bytesTotal: ctx.job.bytesTotal ?? undefined,
      bytesDone,
      recordsDone,
      recentErrors: recentErrors.slice(-RECENT_ERRORS_CAP),
      passagesPerSecond: seconds > 0 ? Math.round(passagesThisRun / seconds) : undefined,
      ...counts,
    };
  };

  // What has been read but not committed; dropped as a whole if the batch fails.
  let batch: Prepared[] = [];
  let batchIds = new Set<string>();
  let batchPassages = 0;
  let pending = {
    counts: zeroCounts(),
    errors: [] as Array<{ line?: number; file?: string; message: string }>,
    records: 0,
    bytesEnd: undefined as number | undefined,
    line: undefined as number | undefined,
  };
  const resetPending = () => {
    batch = [];
    batchIds = new Set();
    batchPassages = 0;
    pending = { counts: zeroCounts(), errors: [], records: 0, bytesEnd: undefined, line: undefined };
  };

  // A batch's write runs while the next batch is read and embedded (the encoder works in its own
  // thread, the database in this one or in its server); writes still commit one after another.
  let writing: Promise<void> | undefined;
  let writingIds = new Set<string>();
  const writeDone = async () => {
    const w = writing;
    writing = undefined;
    await w;
  };

  const flush = async () => {
    if (pending.records === 0) return;
    if (ctx.signal?.aborted) throw new CancelledError();
    const mine = { batch, ids: batchIds, pending };
    resetPending();
    // A document the batch in flight writes is compared with what that batch wrote, not before it.
    if ([...mine.ids].some((id) => writingIds.has(id))) await writeDone();
    const existing = await existingDocuments(
      db,
      corpus.id,
      mine.batch.map((d) => d.input.id),
    );
    const toWrite: Prepared[] = [];
    const batchCounts = { ...mine.pending.counts };
    for (const d of mine.batch) {
      const old = existing.get(d.input.id);
      if (old && old.contentHash === d.hash) batchCounts.docsUnchanged++;
      else toWrite.push(d);
    }
    // A passage id may appear only once per corpus; a batch that repeats one would fail whole.
    const passageIds = new Set<string>();
    for (const d of toWrite) {
      d.passages = d.passages.filter((p) => {
        if (!passageIds.has(p.externalId)) return passageIds.add(p.externalId);
        mine.pending.errors.push({
          message: `document ${d.input.id}: passage id ${p.externalId} repeats one earlier in the batch; passage skipped`,
        });
        batchCounts.errors++;
        return false;
      });
    }
    // Vectors are computed before the transaction opens, so transactions stay short.
    const dim = await embedMissing(embedder, toWrite, ctx.signal);
    // The previous batch commits first (and its failure stops the job here).
    await writeDone();
    if (toWrite.length && !indexReady.has(dim)) {
      if (await canDeferVectorIndex(db, embedder.id)) deferredIndexDim = dim;
      else await ensureVectorIndex(db, embedder.id, dim);
      indexReady.add(dim);
    }
    if (ctx.signal?.aborted) throw new CancelledError();
    writingIds = mine.ids;
    writing = commit(mine.pending, toWrite, existing, batchCounts);
    // Awaited by the next flush or at the end; until then its failure must not go unhandled.
    writing.catch(() => {});
  };

  const commit = async (
    batchPending: typeof pending,
    toWrite: Prepared[],
    existing: Awaited<ReturnType<typeof existingDocuments>>,
    batchCounts: IngestCounts,
  ) => {
    const docs: DocumentToWrite[] = toWrite.map((d) => ({
      externalId: d.input.id,
      title: d.input.title ?? null,
      url: d.input.url ?? null,
      publishedAt: d.input.publishedAt ?? null,
      metadata: d.input.metadata ?? null,
      contentHash: d.hash,
      replacesDocumentId: existing.get(d.input.id)?.id,
      passages: d.passages.map((p) => ({ ...p, embedding: p.embedding! })),
    }));
    const batchErrors = [...batchPending.errors];
    const nextResume: ResumeState = {
      ...resume,
      recordsCommitted: resume.recordsCommitted + batchPending.records,
      ...(batchPending.bytesEnd !== undefined ? { bytesCommitted: batchPending.bytesEnd } : {}),
      ...(batchPending.line !== undefined ? { lineCommitted: batchPending.line } : {}),
    };
    const nextBytes = batchPending.bytesEnd ?? bytesDone;
    const written = await db.transaction(async (tx) => {
      const w = await writeDocuments(tx, corpus.id, embedder.id, docs);
      for (const c of w.conflicts) {
        batchErrors.push({
          message: `document ${c.document}: passage id ${c.passage} already belongs to another document; passage skipped`,
        });
      }
      for (const d of toWrite) {
        if (existing.has(d.input.id)) batchCounts.docsUpdated++;
        else batchCounts.docsAdded++;
      }
      batchCounts.passagesAdded += w.passagesAdded;
      batchCounts.passagesRemoved += w.passagesRemoved;
      batchCounts.errors += w.conflicts.length;
      const next = addCounts(counts, batchCounts);
      const ok = await recordJobProgress(tx, jobId, runnerId, {
        ...next,
        bytesDone: nextBytes,
        recordsDone: recordsDone + batchPending.records,
        recentErrors: [...recentErrors, ...batchErrors].slice(-RECENT_ERRORS_CAP),
        resume: nextResume,
      });
      // Cancelled from elsewhere: this batch must not land after the job says it stopped.
      if (!ok) throw new CancelledError();
      return w;
    });
    Object.assign(counts, addCounts(counts, batchCounts));
    recentErrors.push(...batchErrors);
    recentErrors.splice(0, Math.max(0, recentErrors.length - RECENT_ERRORS_CAP));
    passagesThisRun += written.passagesAdded;
    recordsDone += batchPending.records;
    bytesDone = nextBytes;
    resume = nextResume;
    ctx.onProgress?.(progress("running"));
  };

  // A lost lease is noticed by the next batch's write (recordJobProgress), which rolls it back.
  const stopHeartbeat = keepLease({ everyMs: HEARTBEAT_MS, renew: () => heartbeatIngestJob(db, jobId, runnerId) });

  try {
    ctx.onProgress?.(progress("running"));
    for await (const rec of records) {
      if (ctx.signal?.aborted) throw new CancelledError();
      // The same id twice in one batch: commit the first, so the later one wins as it would
      // across batches.
      if (rec.kind === "document" && batchIds.has(rec.document.id.replaceAll("\u0000", ""))) await flush();
      pending.records++;
      if (rec.bytesEnd !== undefined) pending.bytesEnd = rec.bytesEnd;
      if (rec.line !== undefined && !rec.file) pending.line = rec.line;
      if (rec.kind === "error") {
        if (stored.strict) throw new IngestError(`stopped at the first bad record (--strict): ${rec.message}`);
        pending.counts.errors++;
        pending.errors.push({ line: rec.line, file: rec.file, message: rec.message });
      } else {
        const clean = withoutNul(rec.document);
        if (clean.removed) {
          const where = rec.line !== undefined ? `line ${rec.line}: ` : rec.file ? `${rec.file}: ` : "";
          pending.counts.errors++;
          pending.errors.push({
            line: rec.line,
            file: rec.file,
            message: `${where}document ${clean.document.id}: removed ${clean.removed} NUL character${clean.removed === 1 ? "" : "s"} (the database cannot store them); the rest was ingested`,
          });
        }
        const prepared = prepareDocument(clean.document, stored.chunking);
        if (!prepared) {
          pending.counts.docsSkippedEmpty++;
        } else {
          batch.push(prepared);
          batchIds.add(clean.document.id);
          batchPassages += prepared.passages.length;
        }
      }
      if (
        batch.length >= stored.batchSize ||
        batchPassages >= BATCH_PASSAGE_CAP ||
        pending.records >= stored.batchSize * 16
      )
        await flush();
    }
    await flush();
    await writeDone();
    await buildDeferredIndex();
    const row = await finishIngestJob(db, jobId, runnerId, { status: "completed" });
    if (row?.status === "cancelled") return summarize(ctx, "cancelled", progress, started);
    await updateCorpus(db, corpus.id, { chunking: stored.chunking });
    return summarize(ctx, "completed", progress, started);
  } catch (e) {
    // The batch still being written lands (or not) before the job's end is recorded.
    await writing?.catch(() => {});
    const cancelled = e instanceof CancelledError || (ctx.signal?.aborted ?? false);
    if (cancelled) {
      await finishIngestJob(db, jobId, runnerId, {
        status: "cancelled",
        error: "cancelled; committed batches were kept",
      }).catch(() => {});
      return summarize(ctx, "cancelled", progress, started);
    }
    const message = failureReason(e);
    if (!(e instanceof IngestError) && !(e instanceof SourceError) && !(e instanceof NotTextError))
      console.error(`[ingest] job ${jobId} failed:`, e);
    await markFailed(db, jobId, runnerId, message);
    const resumable = !isPermanent(e);
    if (!resumable) await markJobNotResumable(db, jobId).catch(() => {});
    throw new IngestError(message, { ...summarize(ctx, "failed", progress, started), resumable });
  } finally {
    stopHeartbeat();
    // A failed or cancelled first load still leaves committed vectors that searches need indexed.
    await buildDeferredIndex().catch((e) =>
      console.error(`[ingest] building the vector index failed: ${(e as Error).message}`),
    );
  }
}

function addCounts(a: IngestCounts, b: IngestCounts): IngestCounts {
  return {
    docsAdded: a.docsAdded + b.docsAdded,
    docsUpdated: a.docsUpdated + b.docsUpdated,
    docsUnchanged: a.docsUnchanged + b.docsUnchanged,
    docsSkippedEmpty: a.docsSkippedEmpty + b.docsSkippedEmpty,
    passagesAdded: a.passagesAdded + b.passagesAdded,
    passagesRemoved: a.passagesRemoved + b.passagesRemoved,
    errors: a.errors + b.errors,
  };
}

function summarize(
  ctx: RunContext,
  status: IngestProgress["status"],
  progress: (s: IngestProgress["status"]) => IngestProgress,
  started: number,
): IngestSummary {
  const p = progress(status);
  const summary = { ...p, corpusId: ctx.corpus.id, seconds: Math.round((Date.now() - started) / 100) / 10 };
  ctx.onProgress?.(summary);
  return summary;
}

async function prepareRun(db: Database, opts: RunOptions & { data?: string }) {
  const existing = await findCorpus(db, opts.corpus.trim());
  // An existing corpus keeps its own model (it may predate a change of EMBEDDING_MODEL's default).
  const embedder = opts.embedder ?? resolveEmbedder(existing?.embeddingModel);
  if (existing) {
    const reembed = (await listIngestJobRows(db, existing.id, 20)).find(
      (j) => j.kind === "reembed" && j.status === "running" && leaseIsLive(leaseOf(j), ORPHAN_AFTER_MS, RUNNER_ID),
    );
    if (reembed)
      throw new IngestError(
        `corpus "${existing.name}" is being re-embedded with ${reembed.source} (job ${reembed.id}); add documents when it has finished, or cancel it`,
      );
  }
  const chunking = resolveChunking({ ...(existing?.chunking ?? {}), ...(opts.chunking ?? {}) });
  const batchSize = opts.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new IngestError(`batch size must be a positive whole number (got ${batchSize})`);
  const corpus = await ensureCorpus(db, opts.corpus, { embeddingModel: embedder.id, description: opts.description });
  // Only plain limits are stored; the allow-list is the server's configuration at resume time.
  const { signal: _signal, allow: _allow, resolve: _resolve, ...read } = opts.read ?? {};
  const stored: StoredOptions = {
    chunking,
    strict: !!opts.strict,
    batchSize,
    embeddingModel: embedder.id,
    ...(opts.data ? { data: opts.data } : {}),
    ...(Object.keys(read).length ? { read } : {}),
  };
  return { embedder, corpus, stored };
}

async function withJob(
  db: Database,
  opts: RunOptions & { data?: string },
  meta: { source: string; kind: string; bytesTotal?: number; fingerprint?: string },
  records: AsyncIterable<SourceRecord>,
): Promise<IngestSummary> {
  const runnerId = opts.runnerId ?? RUNNER_ID;
  let prepared: Awaited<ReturnType<typeof prepareRun>>;
  try {
    prepared = await prepareRun(db, opts);
  } catch (e) {
    // A job row made by startIngest must not stay "running" when the run cannot even start.
    if (opts.jobId) {
      await markFailed(db, opts.jobId, runnerId, failureReason(e));
      if (isPermanent(e)) await markJobNotResumable(db, opts.jobId).catch(() => {});
    }
    throw e;
  }
  const { embedder, corpus, stored } = prepared;
  let job: IngestJobRow;
  if (opts.jobId) {
    const row = await getIngestJobRow(db, opts.jobId);
    if (!row) throw new IngestError(`no ingest job ${opts.jobId}`);
    job = row;
  } else {
    job = await createIngestJob(db, {
      corpusId: corpus.id,
      source: meta.source,
      kind: meta.kind,
      options: stored,
      bytesTotal: meta.bytesTotal,
      runnerId,
    });
  }
  const controller = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, controller.signal]) : controller.signal;
  return asLocalRun(job.id, controller, () =>
    runJob(
      {
        db,
        corpus,
        embedder,
        stored,
        job,
        runnerId,
        signal,
        onProgress: opts.onProgress,
        fingerprint: meta.fingerprint,
      },
      records,
    ),
  );
}

/**
 * Ingests records from any source (an upload parsed by the caller, an importer, a test). Such a
 * job cannot be resumed by id, since only the caller can produce its records again; re-running
 * it is cheap because unchanged documents are skipped.
 */
export function ingestRecords(
  db: Database,
  records: AsyncIterable<SourceRecord> | Iterable<SourceRecord>,
  opts: RunOptions & { source: string; kind: string; bytesTotal?: number; data?: string },
): Promise<IngestSummary> {
  const iterable: AsyncIterable<SourceRecord> =
    Symbol.asyncIterator in records
      ? records
      : (async function* () {
          yield* records as Iterable<SourceRecord>;
        })();
  return withJob(db, opts, { source: opts.source, kind: opts.kind, bytesTotal: opts.bytesTotal }, iterable);
}

/** A file, a folder (recursively) or an http(s) URL. */
export async function ingestSource(db: Database, source: string, opts: RunOptions): Promise<IngestSummary> {
  const opened = await openSource(source, { ...opts.read, signal: opts.signal });
  return withJob(
    db,
    opts,
    { source: opened.source, kind: opened.kind, bytesTotal: opened.bytesTotal, fingerprint: opened.fingerprint },
    opened.records(),
  );
}

/**
 * Starts an ingest and returns as soon as its job row exists, for a route handler that answers
 * with the job id and lets the UI follow `getIngestJob` (or onProgress) while the run continues
 * in the server process, even after the page is closed.
 */
export async function startIngest(
  db: Database,
  source: string,
  opts: RunOptions,
): Promise<{ jobId: string; done: Promise<IngestSummary> }> {
  const opened = await openSource(source, { ...opts.read, signal: opts.signal });
  const { corpus, stored } = await prepareRun(db, opts);
  const runnerId = opts.runnerId ?? RUNNER_ID;
  const job = await createIngestJob(db, {
    corpusId: corpus.id,
    source: opened.source,
    kind: opened.kind,
    options: stored,
    bytesTotal: opened.bytesTotal,
    runnerId,
  });
  const done = withJob(
    db,
    { ...opts, jobId: job.id, runnerId },
    { source: opened.source, kind: opened.kind, bytesTotal: opened.bytesTotal, fingerprint: opened.fingerprint },
    opened.records(),
  );
  // The caller may never await `done`; the failure is in the job row, not an unhandled rejection.
  done.catch(() => {});
  return { jobId: job.id, done };
}

async function skip(records: AsyncIterable<SourceRecord>, n: number): Promise<AsyncIterable<SourceRecord>> {
  return (async function* () {
    let i = 0;
    for await (const r of records) if (i++ >= n) yield r;
  })();
}

/**
 * Continues a job that stopped (interrupted, failed, cancelled, or running with a dead process)
 * from its last committed batch, under the same job id. File and URL jobs re-open their source
 * and refuse if it changed; sample and dataset jobs re-open their importer.
 */
export async function resumeIngestJob(
  db: Database,
  jobId: string,
  opts: Pick<RunOptions, "embedder" | "signal" | "onProgress" | "runnerId"> & { staleMs?: number } = {},
): Promise<IngestSummary> {
  const row = await getIngestJobRow(db, jobId);
  if (!row) throw new IngestError(`no ingest job ${jobId}`);
  if (row.status === "completed") throw new IngestError(`job ${jobId} already completed`);
  if (row.kind === "reembed") return (await import("./reembed")).resumeReembedJob(db, row, opts);
  if (row.status === "failed" && row.options.resumable === false) {
    throw new IngestError(
      `job ${jobId} failed because of its source (${row.error ?? "see the job"}); resuming would fail the same way. Fix the source and ingest it again (unchanged documents are skipped)`,
    );
  }
  const stored = row.options as StoredOptions;
  const from: ResumePoint = {
    recordsCommitted: row.resume?.recordsCommitted ?? 0,
    bytesCommitted: row.resume?.bytesCommitted,
    lineCommitted: row.resume?.lineCommitted,
  };
  const embedder = opts.embedder ?? resolveEmbedder(stored.embeddingModel);
  if (embedder.id !== stored.embeddingModel)
    throw new IngestError(`job ${jobId} embeds with ${stored.embeddingModel}, not ${embedder.id}`);

  let records: AsyncIterable<SourceRecord> | null = null;
  let fingerprint: string | undefined;
  if (row.kind === "file" || row.kind === "directory" || row.kind === "url") {
    const opened: OpenedSource = await openSource(row.source, { ...stored.read, signal: opts.signal });
    if (row.resume?.fingerprint && opened.fingerprint !== row.resume.fingerprint) {
      throw new IngestError(
        `${row.source} changed since job ${jobId} started; ingest it again instead (unchanged documents are skipped)`,
      );
    }
    fingerprint = opened.fingerprint;
    records = opened.records(from);
  } else {
    const { reopenRecords } = await import("./reopen");
    const all = await reopenRecords(row.kind, row.source, stored.data);
    if (all) records = await skip(all, from.recordsCommitted);
  }
  if (!records)
    throw new IngestError(
      `job ${jobId} (${row.kind}) read records its caller supplied; run that ingest again instead (unchanged documents are skipped)`,
    );

  const runnerId = opts.runnerId ?? RUNNER_ID;
  // A cancel marks the job at once, but this process's run may still be embedding its last batch;
  // claiming now would let that run's closing write ("cancelled") land on top of the resumed one.
  const windingDown = running.get(jobId);
  if (windingDown) {
    const settled = await Promise.race([
      windingDown.settled.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), WIND_DOWN_MS).unref()),
    ]);
    if (!settled)
      throw new IngestError(`job ${jobId} is still finishing the batch it was cancelled in; try again in a minute`);
  }
  const gone = row.runnerId && holderIsGone(row.runnerId, runnerId) ? [row.runnerId] : [];
  const claimed = await claimIngestJob(db, jobId, runnerId, opts.staleMs ?? ORPHAN_AFTER_MS, gone);
  if (!claimed) throw new IngestError(`job ${jobId} is still running in another process (its heartbeat is fresh)`);
  const c = await findCorpusById(db, row.corpusId);
  if (!c) throw new IngestError(`the corpus of job ${jobId} no longer exists`);
  const controller = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, controller.signal]) : controller.signal;
  return asLocalRun(jobId, controller, () =>
    runJob(
      { db, corpus: c, embedder, stored, job: claimed, runnerId, signal, onProgress: opts.onProgress, fingerprint },
      records,
    ),
  );
}

/** Loads the demo corpus (see sample.ts). */
export async function ingestSample(
  db: Database,
  opts: Omit<RunOptions, "corpus"> & { corpus?: string } = {},
): Promise<IngestSummary> {
  const { SAMPLE_CORPUS_NAME, SAMPLE_CORPUS_DESCRIPTION, sampleRecords } = await import("./sample");
  return ingestRecords(db, sampleRecords(), {
    ...opts,
    corpus: opts.corpus ?? SAMPLE_CORPUS_NAME,
    description: opts.description ?? SAMPLE_CORPUS_DESCRIPTION,
    source: "sample",
    kind: "sample",
  });
}

/**
 * Imports a benchmark corpus from its dataset folder (not shipped with Counterpoint):
 * `politifact-hidden` or `check-covid`. Passage ids are the dataset's, so gold evidence resolves.
 */
export async function ingestDataset(
  db: Database,
  name: string,
  dataDir: string,
  opts: Omit<RunOptions, "corpus"> & { corpus?: string } = {},
): Promise<IngestSummary> {
  const path = await import("node:path");
  const { datasetRecords } = await import("./reopen");
  const abs = path.resolve(dataDir);
  const records = await datasetRecords(name, abs);
  return ingestRecords(db, records, {
    ...opts,
    corpus: opts.corpus ?? name,
    source: `dataset:${name}:${abs}`,
    kind: `dataset:${name}`,
    data: abs,
  });
}

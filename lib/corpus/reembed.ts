import type { Database } from "@/db/client";
import { findCorpus, findCorpusById, updateCorpus, type CorpusRow } from "@/db/queries/corpus";
import {
  claimIngestJob,
  createIngestJob,
  finishIngestJob,
  heartbeatIngestJob,
  listIngestJobRows,
  recordJobProgress,
  type IngestJobRow,
} from "@/db/queries/ingest-jobs";
import {
  addPassageVectors,
  countPassagesWithoutVector,
  passagesWithoutVector,
  setJobPassageTotal,
} from "@/db/queries/reembed";
import { canDeferVectorIndex, ensureVectorIndex } from "@/db/queries/vector-index";
import { corpusPassageCount } from "@/db/queries/retrieval";
import { resolveEmbedder, type Embedder } from "@/lib/embeddings/registry";
import { IngestError, ORPHAN_AFTER_MS, RUNNER_ID, failureReason, registerLocalRun } from "./jobs";
import { holderIsGone } from "@/lib/process/identity";
import { keepLease, leaseIsLive } from "@/lib/process/lease";
import type { IngestProgress, IngestSummary } from "./types";

/*
 * Re-embedding gives every passage of a corpus a vector of another model, as an ingest job of
 * kind "reembed" (source: the model id). The work left is read from the vectors themselves
 * (passages without one of the model), so a resume after a crash, a cancel or a failure simply
 * continues, and nothing needs a resume point. Only when every passage has the new vector does
 * the corpus switch to it: until then searches keep using the old model's complete set. The old
 * vectors stay, so switching back is a re-embed that finds nothing left to do.
 */

export const REEMBED_KIND = "reembed";
const DEFAULT_REEMBED_BATCH = 64;
const HEARTBEAT_MS = 10_000;

export type ReembedOptions = {
  /** The model to embed with (a registry id); default: EMBEDDING_MODEL. */
  model?: string;
  /** A ready embedder (tests, benchmarks); its id is the model. */
  embedder?: Embedder;
  /** Passages per committed batch. */
  batchSize?: number;
  signal?: AbortSignal;
  onProgress?: (p: IngestProgress) => void;
  runnerId?: string;
};

type StoredReembed = { embeddingModel: string; batchSize: number; previousModel: string };

class CancelledError extends Error {}

function embedderFor(opts: ReembedOptions): Embedder {
  if (opts.embedder) return opts.embedder;
  try {
    return resolveEmbedder(opts.model);
  } catch (e) {
    throw new IngestError((e as Error).message);
  }
}

/** One job at a time per corpus: an ingest running beside a re-embed would add passages with the old model only. */
async function refuseIfBusy(db: Database, corpus: CorpusRow, except?: string) {
  const busy = (await listIngestJobRows(db, corpus.id, 20)).find(
    (j) =>
      j.status === "running" &&
      j.id !== except &&
      leaseIsLive({ holder: j.runnerId, renewedAt: j.heartbeatAt }, ORPHAN_AFTER_MS, RUNNER_ID),
  );
  if (busy) {
    throw new IngestError(
      `corpus "${corpus.name}" has a running ${busy.kind === REEMBED_KIND ? `re-embed (${busy.source})` : "ingest"} job ${busy.id}; wait for it to finish or cancel it, then re-embed`,
    );
  }
}

async function prepare(db: Database, corpusName: string, opts: ReembedOptions) {
  const corpus = await findCorpus(db, corpusName.trim());
  if (!corpus) throw new IngestError(`there is no corpus named "${corpusName}"; see npx counterpoint corpus list`);
  const embedder = embedderFor(opts);
  const batchSize = opts.batchSize ?? DEFAULT_REEMBED_BATCH;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new IngestError(`batch size must be a positive whole number (got ${batchSize})`);
  await refuseIfBusy(db, corpus);
  const stored: StoredReembed = { embeddingModel: embedder.id, batchSize, previousModel: corpus.embeddingModel };
  return { corpus, embedder, stored };
}

/**
 * Creates the job and returns at once with its id; the work goes on in this process (the page
 * follows it like any ingest job). `done` settles when the job ends.
 */
export async function startReembed(
  db: Database,
  corpusName: string,
  opts: ReembedOptions = {},
): Promise<{ jobId: string; done: Promise<IngestSummary> }> {
  const { corpus, embedder, stored } = await prepare(db, corpusName, opts);
  const runnerId = opts.runnerId ?? RUNNER_ID;
  const total = await corpusPassageCount(db, corpus.id);
  const job = await createIngestJob(db, {
    corpusId: corpus.id,
    source: embedder.id,
    kind: REEMBED_KIND,
    options: stored,
    bytesTotal: total,
    runnerId,
  });
  const done = run(db, corpus, embedder, stored, job, runnerId, opts);
  done.catch(() => {});
  return { jobId: job.id, done };
}

/** Re-embeds a corpus and waits for the end (the CLI). */
export async function reembedCorpus(
  db: Database,
  corpusName: string,
  opts: ReembedOptions = {},
): Promise<IngestSummary> {
  return (await startReembed(db, corpusName, opts)).done;
}

/** Continues a stopped re-embed job under the same id (called by resumeIngestJob). */
export async function resumeReembedJob(
  db: Database,
  row: IngestJobRow,
  opts: Omit<ReembedOptions, "model" | "batchSize"> & { staleMs?: number } = {},
): Promise<IngestSummary> {
  const stored = row.options as StoredReembed;
  const embedder = opts.embedder ?? embedderFor({ model: stored.embeddingModel });
  if (embedder.id !== stored.embeddingModel)
    throw new IngestError(`job ${row.id} embeds with ${stored.embeddingModel}, not ${embedder.id}`);
  const corpus = await findCorpusById(db, row.corpusId);
  if (!corpus) throw new IngestError(`the corpus of job ${row.id} no longer exists`);
  await refuseIfBusy(db, corpus, row.id);
  const runnerId = opts.runnerId ?? RUNNER_ID;
  const gone = row.runnerId && holderIsGone(row.runnerId, runnerId) ? [row.runnerId] : [];
  const claimed = await claimIngestJob(db, row.id, runnerId, opts.staleMs ?? ORPHAN_AFTER_MS, gone);
  if (!claimed) throw new IngestError(`job ${row.id} is still running in another process (its heartbeat is fresh)`);
  return run(db, corpus, embedder, stored, claimed, runnerId, opts);
}

async function run(
  db: Database,
  corpus: CorpusRow,
  embedder: Embedder,
  stored: StoredReembed,
  job: IngestJobRow,
  runnerId: string,
  opts: ReembedOptions,
): Promise<IngestSummary> {
  const controller = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, controller.signal]) : controller.signal;
  const unregister = registerLocalRun(job.id, controller);
  const stopHeartbeat = keepLease({ everyMs: HEARTBEAT_MS, renew: () => heartbeatIngestJob(db, job.id, runnerId) });
  const started = Date.now();
  // Counts continue from what the job had committed before a resume.
  let embedded = job.recordsDone;
  let embeddedThisRun = 0;
  let total = job.bytesTotal ?? 0;
  let done = 0;
  let deferredIndexDim: number | undefined;
  let indexChecked = false;

  const progress = (status: IngestProgress["status"]): IngestProgress => {
    const seconds = (Date.now() - started) / 1000;
    return {
      jobId: job.id,
      status,
      source: job.source,
      bytesTotal: total,
      bytesDone: done,
      recordsDone: embedded,
      recentErrors: [],
      passagesPerSecond: seconds > 0 ? Math.round(embeddedThisRun / seconds) : undefined,
      docsAdded: 0,
      docsUpdated: 0,
      docsUnchanged: 0,
      docsSkippedEmpty: 0,
      passagesAdded: embedded,
      passagesRemoved: 0,
      errors: 0,
    };
  };
  const summary = (status: IngestProgress["status"]): IngestSummary => {
    const s = { ...progress(status), corpusId: corpus.id, seconds: Math.round((Date.now() - started) / 100) / 10 };
    opts.onProgress?.(s);
    return s;
  };

  try {
    // Passages added or removed since the job started change the total; the bar shows today's.
    total = await corpusPassageCount(db, corpus.id);
    done = total - (await countPassagesWithoutVector(db, corpus.id, embedder.id));
    // Passages that already have the vector (an earlier run, or a switch back) count as done from the start.
    if (
      !(await recordJobProgress(db, job.id, runnerId, {
        ...progress("running"),
        resume: { recordsCommitted: embedded },
      }))
    )
      throw new CancelledError();
    await setJobPassageTotal(db, job.id, total);
    opts.onProgress?.(progress("running"));
    for (;;) {
      if (signal.aborted) throw new CancelledError();
      const batch = await passagesWithoutVector(db, corpus.id, embedder.id, stored.batchSize);
      if (batch.length === 0) break;
      const vectors = await embedder.embed(
        batch.map((p) => p.text),
        signal,
      );
      if (vectors.length !== batch.length)
        throw new Error(`${embedder.id} returned ${vectors.length} vectors for ${batch.length} texts`);
      const dim = vectors[0]!.length;
      for (const v of vectors) {
        if (v.length !== dim || (embedder.dim !== undefined && v.length !== embedder.dim))
          throw new Error(
            `${embedder.id} returned a ${v.length}-dimensional vector where it has ${embedder.dim ?? dim}`,
          );
      }
      if (!indexChecked) {
        // As in an ingest: the first load of a model inserts first and builds its index once at the end.
        if (await canDeferVectorIndex(db, embedder.id)) deferredIndexDim = dim;
        else await ensureVectorIndex(db, embedder.id, dim);
        indexChecked = true;
      }
      if (signal.aborted) throw new CancelledError();
      const added = await db.transaction(async (tx) => {
        const n = await addPassageVectors(
          tx,
          embedder.id,
          batch.map((p, i) => ({ passageId: p.id, embedding: vectors[i]! })),
        );
        const ok = await recordJobProgress(tx, job.id, runnerId, {
          ...progress("running"),
          passagesAdded: embedded + n,
          recordsDone: embedded + n,
          bytesDone: Math.min(total, done + n),
          recentErrors: [],
          resume: { recordsCommitted: embedded + n },
        });
        // Cancelled from elsewhere: this batch must not land after the job says it stopped.
        if (!ok) throw new CancelledError();
        return n;
      });
      embedded += added;
      embeddedThisRun += added;
      done = Math.min(total, done + added);
      opts.onProgress?.(progress("running"));
    }
    if (deferredIndexDim !== undefined) {
      await ensureVectorIndex(db, embedder.id, deferredIndexDim);
      deferredIndexDim = undefined;
    }
    // Every passage has the new vector: from now on the corpus searches (and ingests) with it. One
    // transaction, so no reader sees the job completed while the corpus still names the old model.
    const finished = await db.transaction(async (tx) => {
      const row = await finishIngestJob(tx, job.id, runnerId, { status: "completed", bytesTotal: total });
      if (row?.status === "completed") await updateCorpus(tx, corpus.id, { embeddingModel: embedder.id });
      return row;
    });
    if (finished?.status !== "completed") return summary("cancelled");
    return summary("completed");
  } catch (e) {
    if (e instanceof CancelledError || signal.aborted) {
      await finishIngestJob(db, job.id, runnerId, {
        status: "cancelled",
        error: "cancelled; committed batches were kept",
      }).catch(() => {});
      return summary("cancelled");
    }
    const message = failureReason(e);
    console.error(`[reembed] job ${job.id} failed:`, e);
    await finishIngestJob(db, job.id, runnerId, { status: "failed", error: message }).catch(() => {});
    throw new IngestError(message, { ...summary("failed"), resumable: true });
  } finally {
    stopHeartbeat();
    unregister();
    // A stopped first load still leaves committed vectors that a later search of this model needs indexed.
    if (deferredIndexDim !== undefined)
      await ensureVectorIndex(db, embedder.id, deferredIndexDim).catch((e) =>
        console.error(`[reembed] building the vector index failed: ${(e as Error).message}`),
      );
  }
}

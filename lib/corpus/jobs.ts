import { processGlobal } from "@/lib/process/globals";
import { processId } from "@/lib/process/identity";
import type { IngestSummary } from "./types";

/*
 * What ingest jobs and re-embed jobs share: this process's runner id, its running jobs (so a
 * cancel reaches one at once), the error type they fail with, and how a failure is worded. Both
 * ingest.ts and reembed.ts import it; neither imports the other's module for it.
 */

/** A running job whose heartbeat is older than this has lost its process. */
export const ORPHAN_AFTER_MS = 60_000;

export class IngestError extends Error {
  constructor(
    message: string,
    readonly summary?: IngestSummary,
  ) {
    super(message);
    this.name = "IngestError";
  }
}

// One per process (lib/process/globals.ts): a cancel from a server action reaches a job that an
// upload route started, though Next.js bundles the two separately.
export type IngestProcessState = { running: Map<string, LocalRun> };
const processState = processGlobal("ingest", () => ({ running: new Map<string, LocalRun>() }));

/** A run of this process: its abort switch, and a promise that settles once it has written its last word. */
export type LocalRun = { controller: AbortController; settled: Promise<unknown> };

/**
 * Makes `controller` the local run of `jobId` (so a cancel reaches it at once) until the returned
 * function is called. That removes only this run's own entry, so a run winding down after a
 * cancel cannot unregister the resume that followed it.
 */
export function registerLocalRun(jobId: string, controller: AbortController): () => void {
  let settle = () => {};
  const entry: LocalRun = { controller, settled: new Promise<void>((r) => (settle = r)) };
  processState.running.set(jobId, entry);
  return () => {
    if (processState.running.get(jobId) === entry) processState.running.delete(jobId);
    settle();
  };
}

/** Identifies this process in ingest_jobs.runner_id; a new process gets a new id. */
export const RUNNER_ID = processId();

/** Jobs (ingests and re-embeds) running in this process, by id. */
export function localRuns(): Map<string, LocalRun> {
  return processState.running;
}

/**
 * What a failed job says. Drizzle wraps a driver error in "Failed query: <sql> params: <every
 * parameter>", which can be megabytes of vectors and text (and itself contain characters the
 * database refuses, which left jobs "running" forever): the driver's own message is the reason.
 */
export function failureReason(e: unknown): string {
  let err = e as (Error & { cause?: unknown }) | undefined;
  if (err?.cause instanceof Error && /^Failed query/.test(err.message)) err = err.cause as Error;
  const message = err instanceof Error ? err.message : String(e);
  // eslint-disable-next-line no-control-regex
  const clean = message.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "").trim() || "unknown error";
  return clean.length > 1000 ? `${clean.slice(0, 1000)}…` : clean;
}

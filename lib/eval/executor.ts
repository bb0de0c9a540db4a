import { setTimeout as sleep } from "node:timers/promises";
import type { Database } from "@/db/client";
import * as q from "@/db/queries/eval";
import { getDebateStatus } from "@/db/queries/debate-run";
import type { ResolvedModel } from "@/lib/ai/registry";
import { runDebate, type RunOptions } from "@/lib/debate/runner";
import { processId } from "@/lib/process/identity";
import { keepLease } from "@/lib/process/lease";
import type { ExecutorKind } from "./run";

/**
 * Running an evaluation run's items. Two executors, one contract:
 * - `pg-boss` (PostgreSQL): one job per item in a pg-boss queue; any number of `counterpoint
 *   worker` processes on any machines take jobs.
 * - `in-process` (embedded PGlite, which one process only can open): the eval_items table is the
 *   queue and this process works it.
 * Both end in `processItem`, so the semantics are the same: an item is leased to one worker,
 * which beats while it runs the item's debate; a worker that dies stops beating, and once its
 * lease runs out the item is taken again and its debate resumes from the last finished turn. A
 * debate that already completed is never run again, so no claim is run twice to completion.
 */

/** This process in `eval_items.worker_id`. */
export const WORKER_ID = processId();

/** How a worker turns model ids into models for one item: the registry by default; tests and benchmarks inject scripted models. */
export type ResolverFactory = (item: {
  itemId: string;
  claimId: string;
  position: number;
}) => ((id: string) => ResolvedModel) | undefined;

export type WorkOptions = {
  /** Items this process runs at once. */
  concurrency: number;
  /** Only this run; without it, every active run. */
  runId?: string;
  /** Return when `runId` has nothing left to take (completed, paused or cancelled). */
  untilRunDone?: boolean;
  signal?: AbortSignal;
  leaseMs?: number;
  heartbeatMs?: number;
  resolverFor?: ResolverFactory;
  /** The sentence encoder and search dependencies debates get (tests: scripted ones); default the server's. */
  runOptions?: Pick<RunOptions, "embedder" | "search">;
  log?: (line: string) => void;
};

export interface EvalExecutor {
  readonly kind: ExecutorKind;
  /** Offers a run's pending items (all, or the ones given) to workers. */
  enqueue(runId: string, itemIds?: string[]): Promise<number>;
  /** Works items until `signal` aborts or, with `untilRunDone`, the run has nothing left. */
  work(opts: WorkOptions): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_LEASE_MS = 60_000;
export const DEFAULT_HEARTBEAT_MS = 5_000;

export type ItemOutcome = "done" | "failed" | "skipped" | "paused";

/** Pauses the run when its budget is spent; true if the run may go on. */
export async function withinBudget(db: Database, runId: string): Promise<boolean> {
  const run = await q.getRun(db, runId);
  if (!run || !["queued", "running"].includes(run.status)) return false;
  const b = run.budget;
  if (!b || (b.maxTokens === undefined && b.maxCostUsd === undefined)) return true;
  const u = await q.runUsage(db, runId);
  const tokens = u.promptTokens + u.completionTokens;
  let reason: string | null = null;
  if (b.maxTokens !== undefined && tokens >= b.maxTokens)
    reason = `token budget reached: ${tokens} of ${b.maxTokens} tokens used`;
  if (b.maxCostUsd !== undefined && (u.costUsd ?? 0) >= b.maxCostUsd)
    reason = `cost budget reached: $${(u.costUsd ?? 0).toFixed(4)} of $${b.maxCostUsd} spent`;
  if (!reason) return true;
  await q.setRunStatus(db, runId, "paused", `${reason}. Raise the budget and resume the run to continue.`, [
    "queued",
    "running",
  ]);
  return false;
}

/**
 * Leases one item (the given one, or the next of `runId`/any run), runs its debate and records
 * the outcome. Returns "skipped" when there was nothing to take: the item is finished, held by a
 * live worker, or its run is paused.
 */
export async function processItem(
  db: Database,
  opts: {
    workerId?: string;
    itemId?: string;
    runId?: string;
    leaseMs?: number;
    heartbeatMs?: number;
    resolverFor?: ResolverFactory;
    runOptions?: WorkOptions["runOptions"];
    log?: (l: string) => void;
  },
): Promise<{ outcome: ItemOutcome; itemId?: string; runId?: string }> {
  const workerId = opts.workerId ?? WORKER_ID;
  const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
  if (opts.runId && !(await withinBudget(db, opts.runId))) return { outcome: "paused", runId: opts.runId };
  const item = await q.leaseItem(db, { workerId, leaseMs, itemId: opts.itemId, runId: opts.runId });
  if (!item) return { outcome: "skipped" };
  if (!opts.runId && !(await withinBudget(db, item.run_id))) {
    // Over budget: hand the item back untouched for when the run resumes.
    await q.releaseItem(db, item.id, workerId);
    return { outcome: "paused", runId: item.run_id };
  }
  // A lost lease needs no action here: finishItem writes only for the holder, and the debate's own claim keeps it from running twice.
  const stopHeartbeat = keepLease({
    everyMs: opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    renew: async () => (await q.heartbeatItems(db, [item.id], workerId)).length === 0,
  });
  try {
    if (!item.debate_id) {
      await q.finishItem(db, item.id, workerId, "failed", "the item has no debate");
      return { outcome: "failed", itemId: item.id, runId: item.run_id };
    }
    const resolve = opts.resolverFor?.({ itemId: item.id, claimId: item.claim_id, position: Number(item.position) });
    let outcome;
    // Another run may hold the debate (a Resume pressed on its page, or a worker whose claim has not
    // lapsed yet): this worker keeps the item and waits for that run to end or lapse, never runs it twice.
    for (;;) {
      const status = (await getDebateStatus(db, item.debate_id))?.status;
      if (status === "completed") {
        // The previous worker died after the debate finished and before it recorded so, or another run finished it.
        await q.finishItem(db, item.id, workerId, "done");
        return { outcome: "done", itemId: item.id, runId: item.run_id };
      }
      if (status === "cancelled") {
        await q.finishItem(db, item.id, workerId, "failed", "the debate was cancelled by a user");
        return { outcome: "failed", itemId: item.id, runId: item.run_id };
      }
      outcome = await runDebate(db, item.debate_id, { ...opts.runOptions, resolve });
      if (outcome.status !== "skipped") break;
      const now = (await getDebateStatus(db, item.debate_id))?.status;
      if (now === "running") await sleep(opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
      else if (now !== "completed" && now !== "cancelled") break;
    }
    if (outcome.status === "completed") {
      await q.finishItem(db, item.id, workerId, "done");
      return { outcome: "done", itemId: item.id, runId: item.run_id };
    }
    await q.finishItem(db, item.id, workerId, "failed", outcome.error ?? outcome.status);
    opts.log?.(`item ${item.id} failed: ${outcome.error ?? outcome.status}`);
    return { outcome: "failed", itemId: item.id, runId: item.run_id };
  } catch (e) {
    await q.finishItem(db, item.id, workerId, "failed", (e as Error).message).catch(() => undefined);
    return { outcome: "failed", itemId: item.id, runId: item.run_id };
  } finally {
    stopHeartbeat();
    await q.completeRunIfDone(db, item.run_id).catch(() => false);
  }
}

/** Whether a run has anything left for a worker to take. */
export async function runFinished(db: Database, runId: string): Promise<boolean> {
  const run = await q.getRun(db, runId);
  return !run || !["queued", "running"].includes(run.status);
}

/** The eval_items table as the queue: for the embedded database, where pg-boss cannot run. */
export class InProcessExecutor implements EvalExecutor {
  readonly kind = "in-process" as const;
  constructor(
    private readonly db: Database,
    private readonly opts: { workerId?: string; backend?: "pglite" | "postgres" } = {},
  ) {}

  async enqueue(runId: string, itemIds?: string[]) {
    // The rows are the queue: pending is enqueued.
    return itemIds?.length ?? (await q.pendingItemIds(this.db, runId)).length;
  }

  async work(opts: WorkOptions) {
    const workerId = this.opts.workerId ?? WORKER_ID;
    // One process owns the embedded database, so anything left running belongs to a dead one.
    if (this.opts.backend === "pglite") await q.releaseAllRunning(this.db, workerId);
    const slot = async () => {
      while (!opts.signal?.aborted) {
        const r = await processItem(this.db, {
          workerId,
          runId: opts.runId,
          leaseMs: opts.leaseMs,
          heartbeatMs: opts.heartbeatMs,
          resolverFor: opts.resolverFor,
          runOptions: opts.runOptions,
          log: opts.log,
        });
        if (r.outcome !== "skipped" && r.outcome !== "paused") continue;
        if (opts.untilRunDone && opts.runId && (await runFinished(this.db, opts.runId))) return;
        if (r.outcome === "paused" && opts.untilRunDone) return;
        await sleep(250, undefined, { signal: opts.signal }).catch(() => undefined);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, slot));
  }

  async close() {}
}

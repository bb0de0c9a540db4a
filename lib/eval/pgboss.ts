import { setTimeout as sleep } from "node:timers/promises";
import type { Database } from "@/db/client";
import * as q from "@/db/queries/eval";
import { pendingItemsWithoutJob } from "@/db/queries/eval-queue";
import { plural } from "@/lib/plural";
import { goneHolders } from "@/lib/process/lease";
import { PgBossQueue } from "@/lib/process/pg-boss-queue";
import {
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_LEASE_MS,
  processItem,
  runFinished,
  WORKER_ID,
  type EvalExecutor,
  type WorkOptions,
} from "./executor";

/**
 * The PostgreSQL executor: one pg-boss job per item in the `eval-items` queue, so every
 * `counterpoint worker` on every machine with the same DATABASE_URL shares the work. pg-boss
 * delivers a job to one worker at a time; the item lease in eval_items (processItem) decides who
 * runs the debate. A killed worker's job stays "active" in pg-boss until it expires, but its item
 * lease runs out much sooner: every worker sweeps for such items and offers them again, and the
 * old job, when pg-boss finally retries it, finds the item finished and does nothing.
 */

export const EVAL_QUEUE = "eval-items";
type JobData = { runId: string; itemId: string };

export class PgBossExecutor implements EvalExecutor {
  readonly kind = "pg-boss" as const;
  private jobs: PgBossQueue;

  constructor(
    private readonly db: Database,
    url: string,
    private readonly opts: { workerId?: string; pollingIntervalSeconds?: number } = {},
  ) {
    this.jobs = new PgBossQueue(url, {
      queue: EVAL_QUEUE,
      // A debate can take many minutes with a slow model; liveness is the item lease's job, not the job's expiry.
      queueOptions: { expireInSeconds: 6 * 3600, retryLimit: 5, retryDelay: 5, retryBackoff: true },
      max: 4,
      applicationName: "counterpoint-eval",
    });
  }

  async enqueue(runId: string, itemIds?: string[]) {
    await this.jobs.start();
    const ids = itemIds ?? (await q.pendingItemIds(this.db, runId));
    for (let i = 0; i < ids.length; i += 500) {
      await this.jobs.boss.insert(
        ids.slice(i, i + 500).map((itemId) => ({ name: EVAL_QUEUE, data: { runId, itemId } satisfies JobData })),
      );
    }
    return ids.length;
  }

  async work(opts: WorkOptions) {
    const workerId = this.opts.workerId ?? WORKER_ID;
    const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    // Jobs of any run are taken, even by `eval` working for its own run: the items are all the same kind of work.
    const pollers = await this.jobs.poll<JobData>(
      opts.concurrency,
      this.opts.pollingIntervalSeconds ?? 0.5,
      async (job) => {
        await processItem(this.db, {
          workerId,
          itemId: job.data.itemId,
          runId: job.data.runId,
          leaseMs,
          heartbeatMs: opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
          resolverFor: opts.resolverFor,
          log: opts.log,
        });
      },
    );

    // Items whose worker died: back to pending and into the queue again. And pending items no job
    // will ever deliver (a run made or resumed without queueing): queued now, so no run waits forever.
    const sweep = async () => {
      const gone = goneHolders(await q.otherItemWorkers(this.db, workerId), workerId);
      const released = await q.releaseStaleItems(this.db, leaseMs, gone);
      for (const r of released)
        await this.jobs.boss.send(EVAL_QUEUE, { runId: r.run_id, itemId: r.id } satisfies JobData);
      if (released.length) opts.log?.(`re-queued ${plural(released.length, "item")} of a worker that stopped`);
      const orphans = await pendingItemsWithoutJob(this.db, { queue: EVAL_QUEUE, olderThanMs: leaseMs });
      if (orphans.length) {
        await this.jobs.boss.insert(
          orphans.map((r) => ({ name: EVAL_QUEUE, data: { runId: r.run_id, itemId: r.id } satisfies JobData })),
        );
        opts.log?.(`queued ${plural(orphans.length, "pending item")} that had no job`);
      }
    };
    const sweepEvery = Math.max(1000, Math.floor(leaseMs / 2));
    let lastSweep = 0;
    try {
      while (!opts.signal?.aborted) {
        if (Date.now() - lastSweep >= sweepEvery) {
          lastSweep = Date.now();
          await sweep().catch((e) => opts.log?.(`sweep failed: ${(e as Error).message}`));
        }
        if (opts.untilRunDone && opts.runId && (await runFinished(this.db, opts.runId))) break;
        await sleep(500, undefined, { signal: opts.signal }).catch(() => undefined);
      }
    } finally {
      // Stop taking jobs; the ones in hand finish (a second signal to the process ends it at once).
      await pollers.stopTaking();
      await pollers.settled();
    }
  }

  async close() {
    await this.jobs.close(30_000);
  }
}

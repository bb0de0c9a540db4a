import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import type { Database, DbHandle } from "@/db/client";
import * as q from "@/db/queries/debate-run";
import type { ResolvedModel } from "@/lib/ai/registry";
import { getConfig } from "@/lib/config";
import { plural } from "@/lib/plural";
import { peekProcessGlobal, setProcessGlobal } from "@/lib/process/globals";
import { processId } from "@/lib/process/identity";
import { PgBossQueue } from "@/lib/process/pg-boss-queue";
import { goneHolders } from "@/lib/process/lease";
import { handOverBeforeExit } from "./hand-over";
import { handBack, runDebate, startDebateRun, type Claim } from "./runner";
import { claimRefusal } from "./claim-refusal";

/**
 * Debates through the queue (PostgreSQL only). Starting a debate stores it `queued` and sends one
 * pg-boss job to the `debates` queue; any worker (`counterpoint worker`, or the app's in-process
 * worker) takes the job and runs the debate under the runner's own claim, so the debates row
 * stays the one truth about who runs it:
 * - a worker that dies stops beating; once the claim's lease (DEBATE_LEASE_SECONDS) runs out, every
 *   worker's sweep offers the debate again, and the next claim resumes it from its last finished
 *   turn (the runner replays finished steps);
 * - a worker stopping gracefully hands its debates back (queued, runner cleared) and queues them
 *   again, so another worker resumes them at once;
 * - Stop from any server marks the debate cancelled; the runner's heartbeat sees the claim gone
 *   and aborts the turn in progress. A worker claims only `queued` debates (or lapsed running
 *   ones), so a debate stopped before a worker took it stays stopped.
 * On PGlite nothing of this runs: the one process runs its debates itself, as before.
 */

export const DEBATE_QUEUE = "debates";
const jobData = z.object({ debateId: z.uuid() });
type JobData = z.infer<typeof jobData>;

/** Debates queued longer than this without a worker taking them are offered again (their job was lost). */
const QUEUED_RESEND_MS = 30_000;

export type DebateWorkOptions = {
  /** Debates this process runs at once. */
  concurrency: number;
  signal?: AbortSignal;
  /** Model ids to models for one debate (tests: scripted models); default the registry. */
  resolverFor?: (debateId: string) => ((id: string) => ResolvedModel) | undefined;
  log?: (line: string) => void;
  pollingIntervalSeconds?: number;
};

/** What a process's debate worker is doing, for health checks. */
export type DebateWorkerStatus = { running: boolean; concurrency: number; debates: string[]; startedAt: string | null };

export class DebateQueue {
  private jobs: PgBossQueue;
  readonly inHand = new Set<string>();
  private workingSince: Date | null = null;
  private concurrency = 0;

  constructor(
    private readonly db: Database,
    url: string,
  ) {
    this.jobs = new PgBossQueue(url, {
      queue: DEBATE_QUEUE,
      // `short`: at most one waiting job per debate (singletonKey), so the sweep can re-offer freely.
      // Liveness is the debate claim's lease, not the job's expiry: a debate may run for many minutes.
      queueOptions: { policy: "short", expireInSeconds: 6 * 3600, retryLimit: 3, retryDelay: 5 },
      max: 3,
      applicationName: "counterpoint-debates",
    });
  }

  /** Offers a debate to the workers; a debate already waiting for one is not queued twice. */
  async enqueue(debateId: string): Promise<void> {
    await this.jobs.start();
    await this.jobs.boss.send(DEBATE_QUEUE, { debateId } satisfies JobData, { singletonKey: debateId });
  }

  status(): DebateWorkerStatus {
    return {
      running: this.workingSince !== null,
      concurrency: this.concurrency,
      debates: [...this.inHand],
      startedAt: this.workingSince?.toISOString() ?? null,
    };
  }

  /** Runs debates from the queue until `signal` aborts; then hands back the ones in hand and returns. */
  async work(opts: DebateWorkOptions): Promise<void> {
    await this.jobs.start();
    this.concurrency = Math.max(1, opts.concurrency);
    this.workingSince = new Date();
    const leaseMs = getConfig().debateLeaseMs;
    const pollers = await this.jobs.poll(this.concurrency, opts.pollingIntervalSeconds ?? 0.5, async (job) => {
      const parsed = jobData.safeParse(job.data);
      if (!parsed.success) {
        opts.log?.(`ignored a debates job with bad data: ${parsed.error.issues[0]?.message}`);
        return;
      }
      const { debateId } = parsed.data;
      this.inHand.add(debateId);
      try {
        const outcome = await runDebate(this.db, debateId, {
          claimFrom: ["queued"],
          checkClaimEachTurn: true,
          resolve: opts.resolverFor?.(debateId),
        });
        // Skipped: finished, stopped, or held by a live run elsewhere (the sweep re-offers it if that run's lease lapses).
        if (outcome.status === "released") {
          await this.enqueue(debateId);
          opts.log?.(`handed debate ${debateId} back to the queue`);
        } else if (outcome.status !== "skipped")
          opts.log?.(`debate ${debateId} ${outcome.status}${outcome.error ? `: ${outcome.error}` : ""}`);
      } finally {
        this.inHand.delete(debateId);
      }
    });

    const sweep = async () => {
      // A run of a dead process on this host is offered at once; elsewhere its lease decides.
      const goneRunners = goneHolders(await q.otherDebateRunners(this.db, processId()));
      const ids = await q.debatesToRequeue(this.db, { leaseMs, queuedForMs: QUEUED_RESEND_MS, goneRunners });
      for (const id of ids) await this.enqueue(id);
      if (ids.length)
        opts.log?.(`offered ${plural(ids.length, "debate")} again (a worker stopped, or its job was lost)`);
    };
    const sweepEvery = Math.floor(leaseMs / 3);
    let lastSweep = 0;
    try {
      while (!opts.signal?.aborted) {
        if (Date.now() - lastSweep >= sweepEvery) {
          lastSweep = Date.now();
          await sweep().catch((e) => opts.log?.(`sweep failed: ${(e as Error).message}`));
        }
        await sleep(500, undefined, { signal: opts.signal }).catch(() => undefined);
      }
    } finally {
      await pollers.stopTaking();
      // Graceful stop: the debates in hand stop now and go back to the queue, so another worker
      // resumes them at once; their handlers queue them again before returning.
      handBack([...this.inHand]);
      await pollers.settled();
      this.workingSince = null;
    }
  }

  async close() {
    await this.jobs.close(10_000);
  }
}

// --- the app process: one queue connection, and the in-process worker -------------------------

/** How long a stopping app waits for its hand-back; a debate not handed back by then is taken over after its lease. */
const HAND_OVER_MS = 10_000;

export type AppQueue = {
  queue: DebateQueue;
  url: string;
  worker?: { controller: AbortController; done: Promise<void> };
};

/** This process's connection to the debates queue (PostgreSQL only). */
export function debateQueue(h: DbHandle): DebateQueue {
  const database = getConfig().database;
  if (h.backend !== "postgres" || database.backend !== "postgres")
    throw new Error("The debates queue needs PostgreSQL (DATABASE_URL).");
  const current = peekProcessGlobal("debate-queue");
  if (current && current.url === database.url) return current.queue;
  const fresh = { queue: new DebateQueue(h.db, database.url), url: database.url };
  setProcessGlobal("debate-queue", fresh);
  return fresh.queue;
}

/**
 * How every server-side start of a debate runs it: on PostgreSQL it is queued for a worker (this
 * app's in-process one, or any `counterpoint worker`); on PGlite this process claims and runs it
 * in the background, as it always has. The debate must be `queued` (just created).
 */
export async function startOrEnqueue(h: DbHandle, debateId: string): Promise<void> {
  if (h.backend !== "postgres") {
    const claim = await startDebateRun(h.db, debateId);
    if (!claim.ok) console.error(`[debate ${debateId}] not started: ${claim.error}`);
    return;
  }
  await debateQueue(h).enqueue(debateId);
}

/**
 * Resume, from any server: on PostgreSQL an idle debate goes back to `queued` and to the workers;
 * a refusal (running, finished) is said in words. On PGlite this process claims and runs it.
 */
export async function resumeDebate(h: DbHandle, debateId: string): Promise<Claim> {
  if (h.backend !== "postgres") return startDebateRun(h.db, debateId);
  if (!(await q.requeueDebate(h.db, debateId))) return { ok: false, error: await claimRefusal(h.db, debateId) };
  await debateQueue(h).enqueue(debateId);
  return { ok: true, token: "queued" };
}

/** Starts this app process's debate worker (PostgreSQL, IN_PROCESS_WORKER=true); once per process. */
export function startInProcessWorker(h: DbHandle, concurrency: number): void {
  const queue = debateQueue(h);
  // debateQueue() has just made it.
  const g = peekProcessGlobal("debate-queue")!;
  if (g.worker) return;
  const controller = new AbortController();
  const done = queue
    .work({ concurrency, signal: controller.signal, log: (l) => console.log(`[debates worker] ${l}`) })
    .catch((e) => console.error(`[debates worker] stopped: ${(e as Error).message}`));
  g.worker = { controller, done };
  // A deploy stops the app with SIGTERM: its debates go back to the queue (and their watchers are
  // told) before Next.js's own handler exits the process, so another worker resumes them at once
  // instead of after their lease. Next.js registered its handler first and exits from it at once,
  // so ours runs in its place and calls it after; a second signal exits at once.
  handOverBeforeExit(async () => {
    controller.abort();
    await Promise.race([done, sleep(HAND_OVER_MS)]);
    // The bus's last events (each debate's "queued") leave before the process does.
    await (await import("./pg-bus")).disableCrossProcessEvents().catch(() => undefined);
  });
}

/** The in-process worker, for /api/health: null when this process runs none (PGlite, or IN_PROCESS_WORKER=false). */
export function inProcessWorkerStatus(): DebateWorkerStatus | null {
  const g = peekProcessGlobal("debate-queue");
  return g?.worker ? g.queue.status() : null;
}

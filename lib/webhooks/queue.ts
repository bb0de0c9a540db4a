import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import type { Database, DbHandle } from "@/db/client";
import * as q from "@/db/queries/webhooks";
import { getConfig } from "@/lib/config";
import type { Resolver } from "@/lib/net/safe-fetch";
import { peekProcessGlobal, setProcessGlobal } from "@/lib/process/globals";
import { processId } from "@/lib/process/identity";
import { PgBossQueue } from "@/lib/process/pg-boss-queue";
import { deliverOnce } from "./deliver";
import { sealPlainSecrets } from "./secret-box";

/*
 * Sending webhook deliveries. The webhook_deliveries rows are the truth (the outbox the emitter
 * writes in the change's own transaction); a worker takes a due row, sends one attempt and
 * records it (lib/webhooks/deliver.ts). Two ways to run workers, as for evaluations:
 * - PostgreSQL: pg-boss jobs in the `webhook-deliveries` queue, so every app server and every
 *   `counterpoint worker` shares the sending, and a retry is a job scheduled for its time. A sweep
 *   offers a job for every due row (new events, "send again", a job lost with its process); the
 *   job's key (delivery, attempt) keeps one waiting job per attempt, and the row's hold makes a
 *   second job for the same attempt do nothing.
 * - PGlite (one process): this process polls the rows.
 */

export const WEBHOOK_QUEUE = "webhook-deliveries";
const jobData = z.object({ deliveryId: z.uuid() });

/*
 * A delivery's hold (leased_by, held for one attempt's time, never renewed: an attempt is one
 * bounded HTTP request) names this process, as every lease does. pg-boss only carries the jobs;
 * the row's hold decides who sends.
 */
export const WEBHOOK_HOLDER = processId();

export type WebhookWorkOptions = {
  signal: AbortSignal;
  /** Deliveries sent at once by this process. */
  concurrency?: number;
  /** How often due rows are looked for; default 1 s. */
  pollMs?: number;
  /** Tests: name resolution for the address check. */
  resolve?: Resolver;
  log?: (line: string) => void;
};

export interface WebhookWorker {
  readonly kind: "pg-boss" | "in-process";
  work(opts: WebhookWorkOptions): Promise<void>;
  close(): Promise<void>;
}

const jobKey = (d: { id: string; attempts: number; resend: boolean }) =>
  `${d.id}:${d.attempts}${d.resend ? ":again" : ""}`;

/** Secrets from before encryption are sealed when a sender starts; a failure only delays it. */
async function sealOnStart(db: Database, opts: WebhookWorkOptions) {
  try {
    const n = await sealPlainSecrets(db);
    if (n) opts.log?.(`encrypted ${n} signing secret${n === 1 ? "" : "s"} stored before encryption`);
  } catch (e) {
    opts.log?.(`encrypting stored signing secrets failed (tried again at the next start): ${(e as Error).message}`);
  }
}

async function sendAndLog(db: Database, id: string, opts: WebhookWorkOptions) {
  const r = await deliverOnce(db, id, { holder: WEBHOOK_HOLDER, resolve: opts.resolve });
  if (r.status !== "skipped" && r.status !== "delivered")
    opts.log?.(
      `delivery ${id} attempt ${r.attempt} ${r.status}${r.retryAt ? `; next try ${r.retryAt.toISOString()}` : ""}`,
    );
  return r;
}

/** PGlite: this process works the rows. */
export class InProcessWebhookWorker implements WebhookWorker {
  readonly kind = "in-process" as const;
  constructor(private readonly db: Database) {}

  async work(opts: WebhookWorkOptions) {
    const concurrency = Math.max(1, opts.concurrency ?? 4);
    const pollMs = opts.pollMs ?? 1000;
    await sealOnStart(this.db, opts);
    while (!opts.signal.aborted) {
      let due: Awaited<ReturnType<typeof q.dueDeliveries>> = [];
      try {
        due = await q.dueDeliveries(this.db, concurrency);
        await Promise.all(
          due.map((d) =>
            sendAndLog(this.db, d.id, opts).catch((e) => opts.log?.(`delivery ${d.id}: ${(e as Error).message}`)),
          ),
        );
      } catch (e) {
        opts.log?.(`looking for deliveries failed: ${(e as Error).message}`);
      }
      if (due.length < concurrency) await sleep(pollMs, undefined, { signal: opts.signal }).catch(() => undefined);
    }
  }

  async close() {}
}

/** PostgreSQL: pg-boss jobs, shared by every process on the database. */
export class PgBossWebhookWorker implements WebhookWorker {
  readonly kind = "pg-boss" as const;
  private jobs: PgBossQueue;

  constructor(
    private readonly db: Database,
    url: string,
  ) {
    this.jobs = new PgBossQueue(url, {
      queue: WEBHOOK_QUEUE,
      // One waiting job per key (delivery and attempt); retries are ours (the row's schedule), not pg-boss's.
      queueOptions: { policy: "short", retryLimit: 0, expireInSeconds: 120 },
      max: 2,
      applicationName: "counterpoint-webhooks",
    });
  }

  private async offer(d: { id: string; attempts: number; resend: boolean }, startAfter?: Date) {
    await this.jobs.boss.send(WEBHOOK_QUEUE, { deliveryId: d.id }, { singletonKey: jobKey(d), startAfter });
  }

  async work(opts: WebhookWorkOptions) {
    await this.jobs.start();
    await sealOnStart(this.db, opts);
    const pollMs = opts.pollMs ?? 2000;
    const pollers = await this.jobs.poll(opts.concurrency ?? 4, Math.max(0.5, pollMs / 1000), async (job) => {
      const parsed = jobData.safeParse(job.data);
      if (!parsed.success) return;
      const id = parsed.data.deliveryId;
      const r = await sendAndLog(this.db, id, opts);
      if (r.status !== "skipped" && r.retryAt) await this.offer({ id, attempts: r.attempt, resend: false }, r.retryAt);
    });
    try {
      while (!opts.signal.aborted) {
        try {
          for (const d of await q.dueDeliveries(this.db, 200)) await this.offer(d);
        } catch (e) {
          opts.log?.(`sweep failed: ${(e as Error).message}`);
        }
        await sleep(pollMs, undefined, { signal: opts.signal }).catch(() => undefined);
      }
    } finally {
      await pollers.stopTaking();
      await pollers.settled();
    }
  }

  async close() {
    await this.jobs.close(10_000);
  }
}

/** pg-boss on PostgreSQL, this process on PGlite. */
export function openWebhookWorker(h: DbHandle): WebhookWorker {
  const database = getConfig().database;
  if (h.backend === "postgres") {
    if (database.backend !== "postgres") throw new Error("Webhook delivery on PostgreSQL needs DATABASE_URL.");
    return new PgBossWebhookWorker(h.db, database.url);
  }
  return new InProcessWebhookWorker(h.db);
}

export type AppWebhookWorker = { controller: AbortController; done: Promise<void> };

/** The app server's own sender; once per process. It stops when the process does. */
export function startAppWebhookWorker(h: DbHandle): void {
  if (peekProcessGlobal("webhook-worker")) return;
  const worker = openWebhookWorker(h);
  const controller = new AbortController();
  const done = worker
    .work({ signal: controller.signal, log: (l) => console.log(`[webhooks] ${l}`) })
    .catch((e) => console.error(`[webhooks] stopped: ${(e as Error).message}`))
    .finally(() => worker.close());
  setProcessGlobal("webhook-worker", { controller, done });
}

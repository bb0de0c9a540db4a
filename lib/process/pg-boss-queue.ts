import { setTimeout as sleep } from "node:timers/promises";
import PgBoss from "pg-boss";

type QueueOptions = Omit<NonNullable<Parameters<PgBoss["createQueue"]>[1]>, "name">;

/**
 * Creates a pg-boss queue unless it exists. Several processes starting at once (workers, app
 * servers, the queues of one process) may create queues together, which PostgreSQL can answer with
 * a deadlock: the creation is tried again, up to five times, after a short random wait.
 */
export async function ensureQueue(boss: PgBoss, name: string, options: QueueOptions): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      if (!(await boss.getQueue(name))) await boss.createQueue(name, { ...options, name });
      return;
    } catch (e) {
      if (attempt >= 5) throw e;
      await sleep(100 * attempt + Math.random() * 200);
    }
  }
}

export type PgBossQueueSetup = {
  /** The queue's name in pg-boss. */
  queue: string;
  /** How the queue is made when it does not exist yet (expiry, retries, policy). */
  queueOptions: QueueOptions;
  /** Connections in this pg-boss's own pool. */
  max: number;
  /** Names the pool's connections in pg_stat_activity. */
  applicationName: string;
};

/** Pollers taking jobs of one queue: stop taking, then wait for the jobs in hand. */
export type QueuePollers = {
  stopTaking(): Promise<void>;
  settled(): Promise<void>;
};

/**
 * One pg-boss connection serving one queue, as the debates, webhook and evaluation queues each
 * use it: started on first use (the queue made then), a failed start tried again by the next
 * caller rather than remembered, and pollers that hand each job to a handler one at a time.
 */
export class PgBossQueue {
  readonly boss: PgBoss;
  readonly name: string;
  private started: Promise<void> | null = null;

  constructor(
    url: string,
    private readonly setup: PgBossQueueSetup,
  ) {
    this.name = setup.queue;
    this.boss = new PgBoss({
      connectionString: url,
      max: setup.max,
      // No cron jobs here; maintenance (expiry, archiving) runs in every process, pg-boss elects one at a time.
      schedule: false,
      application_name: setup.applicationName,
    });
    this.boss.on("error", (e) => console.error(`[pg-boss] ${e.message}`));
  }

  async start(): Promise<void> {
    this.started ??= (async () => {
      await this.boss.start();
      await ensureQueue(this.boss, this.setup.queue, this.setup.queueOptions);
    })();
    // A start that failed is tried again by the next caller, not remembered as failed.
    await this.started.catch((e) => {
      this.started = null;
      throw e;
    });
  }

  /** Starts `count` pollers (at least one), each taking one job at a time and giving it to `handle`. */
  async poll<T>(
    count: number,
    pollingIntervalSeconds: number,
    handle: (job: PgBoss.Job<T>) => Promise<void>,
  ): Promise<QueuePollers> {
    await this.start();
    let inFlight = 0;
    const handler = async (jobs: PgBoss.Job<T>[]) => {
      inFlight++;
      try {
        for (const job of jobs) await handle(job);
      } finally {
        inFlight--;
      }
    };
    const ids: string[] = [];
    for (let i = 0; i < Math.max(1, count); i++)
      ids.push(await this.boss.work<T>(this.name, { batchSize: 1, pollingIntervalSeconds }, handler));
    return {
      stopTaking: async () => {
        for (const id of ids) await this.boss.offWork({ id }).catch(() => undefined);
      },
      settled: async () => {
        while (inFlight > 0) await sleep(50);
      },
    };
  }

  /** Stops pg-boss if it was started, waiting up to `timeoutMs` for its own work; never throws. */
  async close(timeoutMs: number): Promise<void> {
    if (this.started) await this.boss.stop({ graceful: true, wait: true, timeout: timeoutMs }).catch(() => undefined);
  }
}

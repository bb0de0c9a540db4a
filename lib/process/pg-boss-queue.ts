import { setTimeout as sleep } from "node:timers/promises";
import type PgBoss from "pg-boss";

/**
 * Creates a pg-boss queue unless it exists. Several processes starting at once (workers, app
 * servers, the queues of one process) may create queues together, which PostgreSQL can answer with
 * a deadlock: the creation is tried again, up to five times, after a short random wait.
 */
export async function ensureQueue(
  boss: PgBoss,
  name: string,
  options: Omit<NonNullable<Parameters<PgBoss["createQueue"]>[1]>, "name">,
): Promise<void> {
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

import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";

/**
 * Pending items of active runs that no pg-boss job will deliver: created (or resumed) by a path
 * that never queued them, or whose queueing failed half-way. Only items older than `olderThanMs`,
 * so a run being queued right now is left to its own enqueue. Reads pg-boss's job table (schema
 * `pgboss`, the library's default), which exists once a pg-boss client has started.
 */
export async function pendingItemsWithoutJob(
  db: Database,
  opts: { queue: string; olderThanMs: number; limit?: number },
): Promise<Array<{ id: string; run_id: string }>> {
  const res = await db.execute<{ id: string; run_id: string }>(sql`
    select i.id, i.run_id from eval_items i join eval_runs r on r.id = i.run_id
    where r.status in ('queued', 'running') and i.status = 'pending'
      and i.created_at < now() - make_interval(secs => ${opts.olderThanMs / 1000})
      and not exists (
        select 1 from pgboss.job j
        where j.name = ${opts.queue} and j.data->>'itemId' = i.id::text and j.state in ('created', 'retry', 'active')
      )
    order by r.created_at, i.position
    limit ${opts.limit ?? 1000}`);
  return res.rows;
}

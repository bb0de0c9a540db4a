import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";

/**
 * What a run's scores are computed from, for many runs in one query: each item's status, its
 * claim's gold label and its debate's final verdict. The run list reads this; the run report reads
 * the same three columns from runItemRows, and both score them with lib/eval/report's scoreItems.
 */
export async function itemVerdicts(
  db: Database,
  runIds: readonly string[],
): Promise<Array<{ run_id: string; status: string; gold: string | null; label: string | null }>> {
  if (runIds.length === 0) return [];
  const res = await db.execute<{ run_id: string; status: string; gold: string | null; label: string | null }>(sql`
    select i.run_id, i.status, c.gold_label as gold, v.label
    from eval_items i
    join claims c on c.id = i.claim_id
    left join verdicts v on v.debate_id = i.debate_id and v.is_final
    where i.run_id in (${sql.join(
      runIds.map((id) => sql`${id}`),
      sql`, `,
    )}) and i.status = 'done'`);
  return res.rows;
}

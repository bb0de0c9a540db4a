import { desc, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";

/**
 * The runs of an evaluation matrix (`eval --protocols`): one run per protocol over the same claims,
 * linked by `config.matrix.group` as repeats are linked by `config.repeat.group` (no schema change).
 */

export async function matrixGroupRuns(db: Database, group: string) {
  return db
    .select()
    .from(s.evalRuns)
    .where(sql`${s.evalRuns.config}->'matrix'->>'group' = ${group}`)
    .orderBy(sql`(${s.evalRuns.config}->'matrix'->>'index')::int`);
}

/** Every matrix group, newest first, with its dataset and protocols. */
export async function listMatrixGroups(db: Database, limit = 50) {
  const rows = await db
    .select({
      id: s.evalRuns.id,
      protocol: s.evalRuns.protocol,
      status: s.evalRuns.status,
      dataset: s.evalRuns.dataset,
      createdAt: s.evalRuns.createdAt,
      group: sql<string>`${s.evalRuns.config}->'matrix'->>'group'`,
      index: sql<number>`(${s.evalRuns.config}->'matrix'->>'index')::int`,
    })
    .from(s.evalRuns)
    .where(sql`${s.evalRuns.config}->'matrix'->>'group' is not null`)
    .orderBy(desc(s.evalRuns.createdAt));
  const groups = new Map<
    string,
    {
      group: string;
      dataset: string | null;
      created_at: string;
      runs: Array<{ id: string; protocol: string; status: string; index: number }>;
    }
  >();
  for (const r of rows) {
    const g = groups.get(r.group) ?? {
      group: r.group,
      dataset: r.dataset,
      created_at: r.createdAt.toISOString(),
      runs: [],
    };
    g.runs.push({ id: r.id, protocol: r.protocol, status: r.status, index: Number(r.index) });
    // In the order the matrix named its protocols.
    g.runs.sort((a, b) => a.index - b.index);
    if (r.createdAt.toISOString() < g.created_at) g.created_at = r.createdAt.toISOString();
    groups.set(r.group, g);
  }
  return [...groups.values()].slice(0, limit);
}

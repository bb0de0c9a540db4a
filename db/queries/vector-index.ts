import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";

/**
 * passage_embeddings holds vectors of several models in one untyped `vector` column. Each model
 * gets its own partial HNSW index over `embedding::vector(dim)`, and every dense query must use
 * exactly that expression and predicate (see `denseExpression`) for the planner to pick it.
 */

/** The vector tables: corpus passages, and the claim-matching index (lib/matching). */
export type VectorTable = "passage_embeddings" | "claim_index_embeddings";

/** Index names are derived from the model id, so two processes agree without a registry table. */
export function vectorIndexName(model: string, table: VectorTable = "passage_embeddings"): string {
  return `${table}_hnsw_${createHash("sha256").update(model).digest("hex").slice(0, 12)}`;
}

/** The typed expression the index is built on; queries must repeat it verbatim. */
export function denseExpression(dim: number) {
  if (!Number.isInteger(dim) || dim < 1 || dim > 16_000) throw new Error(`invalid embedding dimension ${dim}`);
  return sql.raw(`(embedding::vector(${dim}))`);
}

function literal(s: string) {
  return `'${s.replace(/'/g, "''")}'`;
}

/** Creates the model's HNSW (cosine) index if it is missing. Cheap when it exists. */
export async function ensureVectorIndex(
  db: Database,
  model: string,
  dim: number,
  opts: { buildMemory?: string; table?: VectorTable } = {},
): Promise<string> {
  const table = opts.table ?? "passage_embeddings";
  const name = vectorIndexName(model, table);
  await db.transaction(async (tx) => {
    // pgvector builds an HNSW graph many times faster when it fits in maintenance_work_mem (64 MB by
    // default, about 60k vectors of 512 dimensions); the setting lasts for this transaction only.
    await tx.execute(
      sql.raw(`set local maintenance_work_mem = '${(opts.buildMemory ?? "512MB").replace(/[^0-9A-Za-z]/g, "")}'`),
    );
    await tx.execute(
      sql.raw(
        `create index if not exists ${name} on ${table} using hnsw ((embedding::vector(${Number(dim)})) vector_cosine_ops) ` +
          `with (m = 16, ef_construction = 64) where model = ${literal(model)}`,
      ),
    );
  });
  return name;
}

export async function vectorIndexExists(
  db: Database,
  model: string,
  table: VectorTable = "passage_embeddings",
): Promise<boolean> {
  const r = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from pg_indexes where indexname = ${vectorIndexName(model, table)}`,
  );
  return (r.rows[0]?.n ?? 0) > 0;
}

/**
 * Whether a load may insert first and index afterwards: building an HNSW index over vectors
 * already in the table is several times faster than maintaining it row by row, but only the
 * first load of a model can skip it: later loads must keep an existing index current.
 */
export async function canDeferVectorIndex(db: Database, model: string): Promise<boolean> {
  if (await vectorIndexExists(db, model)) return false;
  const r = await db.execute<{ any: boolean }>(
    sql`select exists(select 1 from passage_embeddings where model = ${model}) as any`,
  );
  return !r.rows[0]?.any;
}

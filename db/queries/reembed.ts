import { eq, sql } from "drizzle-orm";
import { inChunks } from "@/db/bulk";
import type { Database } from "@/db/client";
import { ingestJobs, passageEmbeddings } from "@/db/schema";
import type { Executor } from "./ingest-jobs";

/** Passages of a corpus that have no vector of `model` yet, oldest first, so a resume continues where it stopped. */
export async function passagesWithoutVector(
  db: Executor | Database,
  corpusId: string,
  model: string,
  limit: number,
): Promise<Array<{ id: number; text: string }>> {
  const res = await db.execute<{ id: string | number; text: string }>(sql`
    select p.id, p.text from passages p
    where p.corpus_id = ${corpusId}
      and not exists (select 1 from passage_embeddings e where e.passage_id = p.id and e.model = ${model})
    order by p.id limit ${limit}`);
  return res.rows.map((r) => ({ id: Number(r.id), text: r.text }));
}

export async function countPassagesWithoutVector(
  db: Executor | Database,
  corpusId: string,
  model: string,
): Promise<number> {
  const res = await db.execute<{ n: string | number }>(sql`
    select count(*) as n from passages p
    where p.corpus_id = ${corpusId}
      and not exists (select 1 from passage_embeddings e where e.passage_id = p.id and e.model = ${model})`);
  return Number(res.rows[0]?.n ?? 0);
}

/**
 * Adds vectors of one model to existing passages. A passage deleted meanwhile (its document was
 * re-ingested) is skipped rather than failing the batch; a vector already there is kept.
 */
export async function addPassageVectors(
  tx: Executor,
  model: string,
  rows: Array<{ passageId: number; embedding: number[] }>,
): Promise<number> {
  if (rows.length === 0) return 0;
  const ids = rows.map((r) => r.passageId);
  // Set-based: one array parameter whatever the batch size (db/bulk.ts).
  const live = await tx.execute<{ id: string | number }>(
    sql`select id from passages where id = any(${sql.param(ids)}::bigint[])`,
  );
  const keep = new Set(live.rows.map((r) => Number(r.id)));
  const values = rows
    .filter((r) => keep.has(r.passageId))
    .map((r) => ({ passageId: r.passageId, model, dim: r.embedding.length, embedding: r.embedding }));
  if (values.length === 0) return 0;
  // Bounded (db/bulk.ts): one insert per MAX_ROWS_PER_STATEMENT vectors.
  const inserted = await inChunks(values, (slice) =>
    tx.insert(passageEmbeddings).values(slice).onConflictDoNothing().returning({ id: passageEmbeddings.passageId }),
  );
  return inserted.length;
}

export type CorpusVectorModel = { model: string; dim: number; passages: number };

/** Which models a corpus has vectors of, and for how many of its passages: read from the vectors themselves, so it cannot drift. */
export async function corpusVectorModels(db: Executor | Database, corpusId: string): Promise<CorpusVectorModel[]> {
  const res = await db.execute<{ model: string; dim: number; n: string | number }>(sql`
    select e.model, min(e.dim) as dim, count(*) as n from passage_embeddings e join passages p on p.id = e.passage_id
    where p.corpus_id = ${corpusId} group by e.model order by e.model`);
  return res.rows.map((r) => ({ model: r.model, dim: Number(r.dim), passages: Number(r.n) }));
}

/** A re-embed job's total is the corpus's passage count, which an ingest between two runs may change. */
export async function setJobPassageTotal(db: Executor | Database, jobId: string, total: number): Promise<void> {
  await db.update(ingestJobs).set({ bytesTotal: total }).where(eq(ingestJobs.id, jobId));
}

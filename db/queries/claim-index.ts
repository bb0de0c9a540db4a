import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { inChunks, MAX_ROWS_PER_STATEMENT } from "@/db/bulk";

/**
 * The claim-matching index and the imported fact-checks behind it. Search itself runs through the
 * shared BM25 and dense queries in ./retrieval.ts (table `claim_index`); this file holds the writes
 * and the reads around them.
 */

export type ClaimIndexSource = (typeof s.CLAIM_INDEX_SOURCES)[number];

export type ClaimIndexInput = {
  source: ClaimIndexSource;
  sourceRef: string;
  claim: string;
  matchText: string;
  rating: string | null;
  scale: string | null;
  publisher: string | null;
  url: string | null;
  claimDate: Date | null;
  reviewDate: Date | null;
};

export type ClaimIndexRow = ClaimIndexInput & { id: number };

/**
 * Inserts or refreshes index rows (one per source and ref). A row whose searched text changed
 * loses its vectors, so the next embedding pass computes them again.
 */
export async function upsertClaimIndex(db: Database, rows: ClaimIndexInput[]): Promise<number[]> {
  // Bounded (db/bulk.ts): each slice is one transaction of a lookup and an insert of at most
  // MAX_ROWS_PER_STATEMENT rows; a crash between slices leaves whole slices, which a rerun upserts again.
  return inChunks(rows, (slice) => upsertClaimIndexSlice(db, slice));
}

async function upsertClaimIndexSlice(db: Database, rows: ClaimIndexInput[]): Promise<number[]> {
  if (rows.length === 0) return [];
  return db.transaction(async (tx) => {
    // Set-based: two typed arrays, two parameters whatever the size. A `(source, ref) in ((..), ..)`
    // list of 300 pairs is what aborted PGlite (issue 32).
    const before = await tx.execute<{ id: number | string; source: string; ref: string; text: string }>(sql`
      select c.id, c.source, c.source_ref as ref, c.match_text as text
      from claim_index c
      join unnest(${sql.param(rows.map((r) => r.source))}::text[], ${sql.param(rows.map((r) => r.sourceRef))}::text[]) as k(source, ref)
        on c.source = k.source and c.source_ref = k.ref`);
    const old = new Map(before.rows.map((b) => [`${b.source}\u0000${b.ref}`, { ...b, id: Number(b.id) }]));
    const out = await tx
      .insert(s.claimIndex)
      .values(rows)
      .onConflictDoUpdate({
        target: [s.claimIndex.source, s.claimIndex.sourceRef],
        set: {
          claim: sql`excluded.claim`,
          matchText: sql`excluded.match_text`,
          rating: sql`excluded.rating`,
          scale: sql`excluded.scale`,
          publisher: sql`excluded.publisher`,
          url: sql`excluded.url`,
          claimDate: sql`excluded.claim_date`,
          reviewDate: sql`excluded.review_date`,
        },
      })
      .returning({ id: s.claimIndex.id });
    const changed = rows
      .map((r) => old.get(`${r.source}\u0000${r.sourceRef}`))
      .filter((b, i) => b && b.text !== rows[i]!.matchText)
      .map((b) => b!.id);
    if (changed.length) await tx.delete(s.claimIndexEmbeddings).where(inArray(s.claimIndexEmbeddings.claimId, changed));
    return out.map((o) => o.id);
  });
}

/** Index rows still without a vector of `model`, oldest first. */
export async function claimsMissingVectors(
  db: Database,
  model: string,
  limit: number,
): Promise<Array<{ id: number; claim: string; matchText: string }>> {
  return db
    .select({ id: s.claimIndex.id, claim: s.claimIndex.claim, matchText: s.claimIndex.matchText })
    .from(s.claimIndex)
    .leftJoin(
      s.claimIndexEmbeddings,
      and(eq(s.claimIndexEmbeddings.claimId, s.claimIndex.id), eq(s.claimIndexEmbeddings.model, model)),
    )
    .where(isNull(s.claimIndexEmbeddings.claimId))
    .orderBy(s.claimIndex.id)
    .limit(limit);
}

export async function countClaimsMissingVectors(db: Database, model: string): Promise<number> {
  const r = await db.execute<{ n: number | string }>(sql`
    select count(*) as n from claim_index c
    where not exists (select 1 from claim_index_embeddings e where e.claim_id = c.id and e.model = ${model})`);
  return Number(r.rows[0]?.n ?? 0);
}

export async function storeClaimVectors(
  db: Database,
  model: string,
  rows: Array<{ id: number; vector: number[] }>,
): Promise<void> {
  // Bounded (db/bulk.ts): one insert per MAX_ROWS_PER_STATEMENT vectors; callers send an embedder batch.
  await inChunks(rows, async (slice) => {
    await db
      .insert(s.claimIndexEmbeddings)
      .values(slice.map((r) => ({ claimId: r.id, model, dim: r.vector.length, embedding: r.vector })))
      .onConflictDoUpdate({
        target: [s.claimIndexEmbeddings.claimId, s.claimIndexEmbeddings.model],
        set: { embedding: sql`excluded.embedding`, dim: sql`excluded.dim` },
      });
    return [];
  });
}

export async function claimIndexSize(db: Database): Promise<number> {
  const r = await db.execute<{ n: number | string }>(sql`select count(*) as n from claim_index`);
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * Finished debates not yet in the index: completed, with a final verdict that could be read (an
 * UNPARSED one is no check), not part of an evaluation run (benchmark claims are not checks a newsroom made).
 */
export async function unindexedFinishedDebates(
  db: Database,
  limit: number,
): Promise<
  Array<{
    debateId: string;
    protocol: string;
    claim: string;
    claimDate: Date | null;
    label: string;
    finishedAt: Date | null;
  }>
> {
  const res = await db.execute<{
    id: string;
    protocol: string;
    text: string;
    claim_date: string | Date | null;
    label: string;
    finished_at: string | Date | null;
  }>(sql`
    select d.id, d.protocol, c.text, c.claim_date, v.label, d.finished_at
    from debates d
    join claims c on c.id = d.claim_id
    join verdicts v on v.debate_id = d.id and v.is_final and v.label <> 'UNPARSED'
    where d.status = 'completed' and d.eval_run_id is null
      and not exists (select 1 from claim_index ci where ci.source = 'debate' and ci.source_ref = d.id::text)
    order by d.finished_at nulls last, d.id
    limit ${limit}`);
  const date = (v: string | Date | null) => (v === null ? null : v instanceof Date ? v : new Date(v));
  return res.rows.map((r) => ({
    debateId: r.id,
    protocol: r.protocol,
    claim: r.text,
    claimDate: date(r.claim_date),
    label: r.label,
    finishedAt: date(r.finished_at),
  }));
}

/**
 * Imported fact-checks stored but not in the index: what an import stopped between its two writes
 * left behind. The next import (or `factchecks reindex`) indexes them, so a retry completes the pool.
 */
export async function unindexedImportedFactChecks(
  db: Database,
  limit: number,
): Promise<Array<typeof s.importedFactChecks.$inferSelect>> {
  return db
    .select()
    .from(s.importedFactChecks)
    .where(
      sql`not exists (select 1 from claim_index ci where ci.source = 'imported' and ci.source_ref = ${s.importedFactChecks.id}::text)`,
    )
    .orderBy(s.importedFactChecks.id)
    .limit(limit);
}

export async function countImportedFactChecks(db: Database): Promise<{ stored: number; unindexed: number }> {
  const r = await db.execute<{ stored: number | string; unindexed: number | string }>(sql`
    select count(*) as stored,
      count(*) filter (where not exists (
        select 1 from claim_index ci where ci.source = 'imported' and ci.source_ref = f.id::text)) as unindexed
    from imported_fact_checks f`);
  return { stored: Number(r.rows[0]?.stored ?? 0), unindexed: Number(r.rows[0]?.unindexed ?? 0) };
}

export type ImportedFactCheckInput = Omit<typeof s.importedFactChecks.$inferInsert, "id" | "createdAt">;

/**
 * Inserts imported fact-checks, skipping any whose URL (or feed and source id) is already stored.
 * Returns the rows inserted, with their ids, so only those are indexed.
 */
export async function insertImportedFactChecks(
  db: Database,
  rows: ImportedFactCheckInput[],
): Promise<Array<typeof s.importedFactChecks.$inferSelect>> {
  // Bounded (db/bulk.ts): one insert of at most MAX_ROWS_PER_STATEMENT records (13 columns each) per statement.
  return inChunks(rows, (slice) => db.insert(s.importedFactChecks).values(slice).onConflictDoNothing().returning());
}

export async function analyzeClaimIndex(db: Database): Promise<void> {
  await db.execute(sql`analyze claim_index`);
  await db.execute(sql`analyze claim_index_embeddings`);
}

export type ClaimCandidateRow = ClaimIndexRow & {
  /** Cosine similarity of the row's vector of `model` to the query vector; null when it has none. */
  cosine: number | null;
  claimLexemes: string[];
  allLexemes: string[];
};

/**
 * Everything the re-scorer needs about candidates in one round trip: the row, its cosine to the
 * query (computed in the database, so vectors never travel) and the stems of its claim and text.
 */
export async function claimCandidateRows(
  db: Database,
  ids: number[],
  query: { model: string; vector: number[] },
): Promise<Map<number, ClaimCandidateRow>> {
  const out = new Map<number, ClaimCandidateRow>();
  if (ids.length === 0) return out;
  // Set-based (one array parameter), and the candidates are a re-ranker's pool: cap it anyway so a
  // caller can never send a statement of unbounded size back through PGlite.
  if (ids.length > MAX_ROWS_PER_STATEMENT * 10)
    throw new Error(`claimCandidateRows: ${ids.length} candidates, at most ${MAX_ROWS_PER_STATEMENT * 10} per call`);
  const dim = query.vector.length;
  if (!Number.isInteger(dim) || dim < 1 || dim > 16_000) throw new Error(`invalid query vector dimension ${dim}`);
  for (const x of query.vector) if (!Number.isFinite(x)) throw new Error("query vector contains a non-finite number");
  const res = await db.execute<Record<string, unknown>>(sql`
    select c.id, c.source, c.source_ref, c.claim, c.match_text, c.rating, c.scale, c.publisher, c.url,
           c.claim_date, c.review_date,
           1 - (e.embedding::vector(${sql.raw(String(dim))}) <=> ${`[${query.vector.join(",")}]`}::vector(${sql.raw(String(dim))})) as cosine,
           array_to_json(tsvector_to_array(to_tsvector('english', c.claim))) as cl,
           array_to_json(tsvector_to_array(c.tsv)) as al
    from claim_index c
    left join claim_index_embeddings e on e.claim_id = c.id and e.model = ${query.model} and e.dim = ${dim}
    where c.id = any(${sql.param(ids)}::bigint[])`);
  const arr = (v: unknown) => (typeof v === "string" ? (JSON.parse(v) as string[]) : ((v as string[] | null) ?? []));
  const date = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));
  for (const r of res.rows) {
    const id = Number(r.id);
    out.set(id, {
      id,
      source: r.source as ClaimIndexSource,
      sourceRef: String(r.source_ref),
      claim: String(r.claim),
      matchText: String(r.match_text),
      rating: (r.rating as string | null) ?? null,
      scale: (r.scale as string | null) ?? null,
      publisher: (r.publisher as string | null) ?? null,
      url: (r.url as string | null) ?? null,
      claimDate: date(r.claim_date),
      reviewDate: date(r.review_date),
      cosine: r.cosine === null || r.cosine === undefined ? null : Number(r.cosine),
      claimLexemes: arr(r.cl),
      allLexemes: arr(r.al),
    });
  }
  return out;
}

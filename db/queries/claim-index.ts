import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";

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
  if (rows.length === 0) return [];
  return db.transaction(async (tx) => {
    const before = await tx
      .select({
        id: s.claimIndex.id,
        source: s.claimIndex.source,
        ref: s.claimIndex.sourceRef,
        text: s.claimIndex.matchText,
      })
      .from(s.claimIndex)
      .where(
        sql`(${s.claimIndex.source}, ${s.claimIndex.sourceRef}) in (${sql.join(
          rows.map((r) => sql`(${r.source}, ${r.sourceRef})`),
          sql`, `,
        )})`,
      );
    const old = new Map(before.map((b) => [`${b.source}\u0000${b.ref}`, b]));
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
  if (rows.length === 0) return;
  await db
    .insert(s.claimIndexEmbeddings)
    .values(rows.map((r) => ({ claimId: r.id, model, dim: r.vector.length, embedding: r.vector })))
    .onConflictDoUpdate({
      target: [s.claimIndexEmbeddings.claimId, s.claimIndexEmbeddings.model],
      set: { embedding: sql`excluded.embedding`, dim: sql`excluded.dim` },
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

export type ImportedFactCheckInput = Omit<typeof s.importedFactChecks.$inferInsert, "id" | "createdAt">;

/**
 * Inserts imported fact-checks, skipping any whose URL (or feed and source id) is already stored.
 * Returns the rows inserted, with their ids, so only those are indexed.
 */
export async function insertImportedFactChecks(
  db: Database,
  rows: ImportedFactCheckInput[],
): Promise<Array<typeof s.importedFactChecks.$inferSelect>> {
  if (rows.length === 0) return [];
  return db.insert(s.importedFactChecks).values(rows).onConflictDoNothing().returning();
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
    where c.id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`);
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

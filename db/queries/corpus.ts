import { and, eq, inArray, sql } from "drizzle-orm";
import { chunks, MAX_ROWS_PER_STATEMENT } from "@/db/bulk";
import type { Database } from "@/db/client";
import { corpora, documents, passageEmbeddings, passages } from "@/db/schema";
import type { ChunkingOptions } from "../types";
import type { Executor } from "./ingest-jobs";

export type CorpusRow = typeof corpora.$inferSelect;

export async function findCorpus(db: Executor | Database, name: string): Promise<CorpusRow | undefined> {
  const [row] = await db.select().from(corpora).where(eq(corpora.name, name));
  return row;
}

export async function findCorpusById(db: Executor | Database, id: string): Promise<CorpusRow | undefined> {
  const [row] = await db.select().from(corpora).where(eq(corpora.id, id));
  return row;
}

/** Creates the corpus if it is missing; concurrent creators end up with the same row. */
export async function insertCorpusIfMissing(
  db: Executor,
  c: { name: string; description?: string; embeddingModel: string; chunking?: ChunkingOptions },
): Promise<CorpusRow> {
  await db
    .insert(corpora)
    .values({
      name: c.name,
      description: c.description ?? null,
      embeddingModel: c.embeddingModel,
      chunking: c.chunking ?? null,
    })
    .onConflictDoNothing({ target: corpora.name });
  return (await findCorpus(db, c.name))!;
}

export async function updateCorpus(
  db: Executor,
  id: string,
  set: { embeddingModel?: string; chunking?: ChunkingOptions; description?: string },
) {
  await db.update(corpora).set(set).where(eq(corpora.id, id));
}

export async function corpusHasPassages(db: Executor, corpusId: string): Promise<boolean> {
  const rows = await db.select({ one: sql<number>`1` }).from(passages).where(eq(passages.corpusId, corpusId)).limit(1);
  return rows.length > 0;
}

export type CorpusSummary = {
  id: string;
  name: string;
  description: string | null;
  /** The model searches and ingests use. */
  embeddingModel: string;
  documents: number;
  passages: number;
  /** Every model the corpus has vectors of, with how many passages have one (all of them when complete). */
  vectorModels: Array<{ model: string; passages: number }>;
  createdAt: Date;
};

export async function listCorpora(db: Executor | Database): Promise<CorpusSummary[]> {
  const res = await db.execute<{
    id: string;
    name: string;
    description: string | null;
    embedding_model: string;
    documents: string;
    passages: string;
    vector_models: Array<{ model: string; passages: number | string }> | string | null;
    created_at: string | Date;
  }>(sql`
    select c.id, c.name, c.description, c.embedding_model, c.created_at,
      (select count(*) from documents d where d.corpus_id = c.id) as documents,
      (select count(*) from passages p where p.corpus_id = c.id) as passages,
      (select json_agg(json_build_object('model', m.model, 'passages', m.n) order by m.model)
         from (select e.model, count(*) as n from passage_embeddings e join passages p on p.id = e.passage_id
               where p.corpus_id = c.id group by e.model) m) as vector_models
    from corpora c order by c.name`);
  return res.rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    embeddingModel: r.embedding_model,
    documents: Number(r.documents),
    passages: Number(r.passages),
    vectorModels: (typeof r.vector_models === "string"
      ? (JSON.parse(r.vector_models) as Array<{ model: string; passages: number }>)
      : (r.vector_models ?? [])
    ).map((m) => ({
      model: m.model,
      passages: Number(m.passages),
    })),
    createdAt: new Date(r.created_at),
  }));
}

export type ExistingDocument = { id: number; contentHash: string };

export async function existingDocuments(
  db: Executor,
  corpusId: string,
  externalIds: string[],
): Promise<Map<string, ExistingDocument>> {
  const out = new Map<string, ExistingDocument>();
  if (externalIds.length === 0) return out;
  const rows = await db
    .select({ id: documents.id, externalId: documents.externalId, contentHash: documents.contentHash })
    .from(documents)
    .where(and(eq(documents.corpusId, corpusId), inArray(documents.externalId, externalIds)));
  for (const r of rows) out.set(r.externalId, { id: r.id, contentHash: r.contentHash });
  return out;
}

export type PassageToWrite = {
  externalId: string;
  ordinal: number;
  text: string;
  charStart: number | null;
  charEnd: number | null;
  embedding: number[];
};

export type DocumentToWrite = {
  externalId: string;
  title: string | null;
  url: string | null;
  publishedAt: Date | null;
  metadata: Record<string, unknown> | null;
  contentHash: string;
  /** Set when the document exists with other content: its passages are replaced. */
  replacesDocumentId?: number;
  passages: PassageToWrite[];
};

// The shared statement bound (db/bulk.ts): 1,000-row statements were under PostgreSQL's 65,535
// parameters but past what embedded PGlite takes.
const ROWS_PER_STATEMENT = MAX_ROWS_PER_STATEMENT;

/**
 * Writes one batch of new and changed documents with their passages and vectors. Call it inside
 * a transaction: a batch is all or nothing. Returns how many passages were removed from replaced
 * documents, and the passage ids that already belonged to another document (skipped).
 */
export async function writeDocuments(
  tx: Executor,
  corpusId: string,
  model: string,
  docs: DocumentToWrite[],
): Promise<{
  passagesAdded: number;
  passagesRemoved: number;
  conflicts: Array<{ document: string; passage: string }>;
}> {
  if (docs.length === 0) return { passagesAdded: 0, passagesRemoved: 0, conflicts: [] };
  let passagesRemoved = 0;
  const replaced = docs.flatMap((d) => (d.replacesDocumentId !== undefined ? [d.replacesDocumentId] : []));
  for (const ids of chunks(replaced, ROWS_PER_STATEMENT)) {
    const removed = await tx.delete(passages).where(inArray(passages.documentId, ids)).returning({ id: passages.id });
    passagesRemoved += removed.length;
  }

  const docIds = new Map<string, number>();
  for (const part of chunks(docs, ROWS_PER_STATEMENT)) {
    const rows = await tx
      .insert(documents)
      .values(
        part.map((d) => ({
          corpusId,
          externalId: d.externalId,
          title: d.title,
          url: d.url,
          publishedAt: d.publishedAt,
          metadata: d.metadata,
          contentHash: d.contentHash,
        })),
      )
      .onConflictDoUpdate({
        target: [documents.corpusId, documents.externalId],
        set: {
          title: sql`excluded.title`,
          url: sql`excluded.url`,
          publishedAt: sql`excluded.published_at`,
          metadata: sql`excluded.metadata`,
          contentHash: sql`excluded.content_hash`,
          updatedAt: sql`now()`,
        },
      })
      .returning({ id: documents.id, externalId: documents.externalId });
    for (const r of rows) docIds.set(r.externalId, r.id);
  }

  const all = docs.flatMap((d) => d.passages.map((p) => ({ doc: d, p })));
  const conflicts: Array<{ document: string; passage: string }> = [];
  let passagesAdded = 0;
  for (const part of chunks(all, ROWS_PER_STATEMENT)) {
    const rows = await tx
      .insert(passages)
      .values(
        part.map(({ doc, p }) => ({
          documentId: docIds.get(doc.externalId)!,
          corpusId,
          publishedAt: doc.publishedAt,
          externalId: p.externalId,
          ordinal: p.ordinal,
          text: p.text,
          charStart: p.charStart,
          charEnd: p.charEnd,
        })),
      )
      .onConflictDoNothing({ target: [passages.corpusId, passages.externalId] })
      .returning({ id: passages.id, externalId: passages.externalId });
    const ids = new Map(rows.map((r) => [r.externalId, r.id]));
    passagesAdded += rows.length;
    const vectors: Array<typeof passageEmbeddings.$inferInsert> = [];
    for (const { doc, p } of part) {
      const id = ids.get(p.externalId);
      if (id === undefined) conflicts.push({ document: doc.externalId, passage: p.externalId });
      else vectors.push({ passageId: id, model, dim: p.embedding.length, embedding: p.embedding });
    }
    if (vectors.length) await tx.insert(passageEmbeddings).values(vectors);
  }
  return { passagesAdded, passagesRemoved, conflicts };
}

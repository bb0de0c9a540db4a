import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { documents, passages } from "@/db/schema";

/** Reading a corpus back for people: its documents page by page, and one document whole. */

export type DocumentListItem = {
  id: number;
  externalId: string;
  title: string | null;
  url: string | null;
  publishedAt: Date | null;
  createdAt: Date;
  passages: number;
};

export const DOCUMENTS_PAGE_SIZE = 25;

/**
 * One page of a corpus's documents, newest first: the most recently ingested, since that is what
 * someone who just uploaded wants to check. Ties (one batch) keep the file's order.
 */
export async function listDocuments(
  db: Database,
  corpusId: string,
  opts: { page?: number; pageSize?: number } = {},
): Promise<{ total: number; items: DocumentListItem[] }> {
  const pageSize = opts.pageSize ?? DOCUMENTS_PAGE_SIZE;
  const page = Math.max(1, Math.floor(opts.page ?? 1));
  // Spelled out: inside a select list drizzle renders ${documents.id} unqualified, and the subquery would read it as p.id.
  const passageCount = sql<number>`(select count(*) from passages p where p.document_id = "documents"."id")`.mapWith(
    Number,
  );
  const [items, [totals]] = await Promise.all([
    db
      .select({
        id: documents.id,
        externalId: documents.externalId,
        title: documents.title,
        url: documents.url,
        publishedAt: documents.publishedAt,
        createdAt: documents.createdAt,
        passages: passageCount,
      })
      .from(documents)
      .where(eq(documents.corpusId, corpusId))
      .orderBy(desc(documents.createdAt), desc(documents.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(documents).where(eq(documents.corpusId, corpusId)),
  ]);
  return { total: Number(totals?.total ?? 0), items };
}

export type DocumentPassage = {
  id: number;
  externalId: string;
  ordinal: number;
  text: string;
  charStart: number | null;
  charEnd: number | null;
};

export type DocumentDetail = Omit<DocumentListItem, "passages"> & {
  metadata: Record<string, unknown> | null;
  updatedAt: Date;
  passages: DocumentPassage[];
};

/** A document with all its passages in reading order, or undefined if it is not in this corpus. */
export async function getDocument(
  db: Database,
  corpusId: string,
  documentId: number,
): Promise<DocumentDetail | undefined> {
  if (!Number.isSafeInteger(documentId) || documentId < 1) return undefined;
  const [doc] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.corpusId, corpusId), eq(documents.id, documentId)));
  if (!doc) return undefined;
  const rows = await db
    .select({
      id: passages.id,
      externalId: passages.externalId,
      ordinal: passages.ordinal,
      text: passages.text,
      charStart: passages.charStart,
      charEnd: passages.charEnd,
    })
    .from(passages)
    .where(eq(passages.documentId, doc.id))
    .orderBy(asc(passages.ordinal));
  return {
    id: doc.id,
    externalId: doc.externalId,
    title: doc.title,
    url: doc.url,
    publishedAt: doc.publishedAt,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    metadata: doc.metadata,
    passages: rows,
  };
}

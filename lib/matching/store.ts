import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { MAX_ROWS_PER_STATEMENT } from "@/db/bulk";
import * as q from "@/db/queries/claim-index";
import { ensureVectorIndex } from "@/db/queries/vector-index";
import * as s from "@/db/schema";
import { getConfig } from "@/lib/config";
import { resolveEmbedder, type Embedder } from "@/lib/embeddings/registry";
import { invalidateLexemeStats } from "@/lib/retrieval/lexical-stats";
import { labelWords, productLabelOf } from "@/lib/debate/methods";
import { ratingToScale } from "./scale";
import { matchTextOf } from "./text";
import type { ProductLabel } from "@/lib/debate/types";

/**
 * Keeping the matching index current. Every source writes rows through here: finished debates
 * (lazily, before each match), published fact-checks (the publish step calls
 * `indexPublishedCheck`), imported fact-checks (lib/matching/import.ts). Vectors use the
 * instance's embedding model, the one corpora are embedded with, so one encoder serves both.
 */

export type IndexDeps = { db: Database; embedder?: Embedder };

/** The encoder for the index: EMBEDDING_MODEL unless the caller gives one (tests, benchmarks). */
export function indexEmbedder(deps: { embedder?: Embedder }): Embedder {
  return deps.embedder ?? resolveEmbedder(getConfig().embeddingModel);
}

/** Index rows are embedded on their claim as worded: the re-scorer compares claims with claims. */
export function embeddingTextOf(row: { claim: string; matchText: string }): string {
  return row.claim;
}

export type EmbedProgress = { done: number; total: number };

/**
 * Embeds every index row that has no vector of the model yet, in the model's batch size, and
 * makes sure the model's HNSW index exists (built once after a first bulk load, kept current later).
 */
export async function embedMissingClaims(
  deps: IndexDeps,
  opts: { onProgress?: (p: EmbedProgress) => void; signal?: AbortSignal; max?: number } = {},
): Promise<{ embedded: number; remaining: number }> {
  const { db } = deps;
  const embedder = indexEmbedder(deps);
  const total = Math.min(await q.countClaimsMissingVectors(db, embedder.id), opts.max ?? Infinity);
  let done = 0;
  let dim = embedder.dim;
  const batch = Math.max(1, embedder.batchSize);
  opts.onProgress?.({ done, total });
  while (done < total) {
    opts.signal?.throwIfAborted();
    const rows = await q.claimsMissingVectors(db, embedder.id, Math.min(batch, total - done));
    if (rows.length === 0) break;
    const vectors = await embedder.embed(rows.map(embeddingTextOf), opts.signal);
    if (vectors.length !== rows.length)
      throw new Error(`${embedder.id} returned ${vectors.length} vectors for ${rows.length} claims`);
    await q.storeClaimVectors(
      db,
      embedder.id,
      rows.map((r, i) => ({ id: r.id, vector: vectors[i]! })),
    );
    dim ??= vectors[0]?.length;
    done += rows.length;
    opts.onProgress?.({ done, total });
  }
  if (done > 0) {
    if (dim) await ensureVectorIndex(db, embedder.id, dim, { table: "claim_index_embeddings" });
    await q.analyzeClaimIndex(db);
    invalidateLexemeStats(db);
  }
  return { embedded: done, remaining: await q.countClaimsMissingVectors(db, embedder.id) };
}

/**
 * Finished debates (completed with a verdict, outside evaluation runs) that are not in the index
 * yet: called before each match, so a debate is matchable from the moment it finishes, and the
 * first match after an upgrade backfills every earlier debate.
 */
export async function indexFinishedDebates(db: Database): Promise<number> {
  let added = 0;
  for (;;) {
    // One slice per statement bound (db/bulk.ts); each slice is committed before the next is read.
    const rows = await q.unindexedFinishedDebates(db, MAX_ROWS_PER_STATEMENT);
    if (rows.length === 0) break;
    await q.upsertClaimIndex(
      db,
      rows.map((r) => ({
        source: "debate" as const,
        sourceRef: r.debateId,
        claim: r.claim,
        matchText: matchTextOf({ claim: r.claim }),
        // The method's own label read onto the product's scale, in the words its pages use:
        // a ZoFia "FAKE" is a "Fake news" rated False, not an unknown rating.
        rating: labelWords(r.protocol, r.label),
        scale: productLabelOf(r.protocol, r.label),
        publisher: getConfig().organisation.name,
        url: `/debates/${r.debateId}`,
        claimDate: r.claimDate,
        reviewDate: r.finishedAt,
      })),
    );
    added += rows.length;
    if (rows.length < MAX_ROWS_PER_STATEMENT) break;
  }
  if (added) invalidateLexemeStats(db);
  return added;
}

/** A fact-check this newsroom published (issue 27's publish step), as the index needs it. */
export type PublishedCheckInput = {
  /** The published fact-check's id. */
  id: string;
  claim: string;
  /** The rating as published ("False", "Mostly true"). */
  rating: string | null;
  /** The editor's rating on the product scale, when known (else read from `rating`). */
  scale?: ProductLabel | null;
  /** The public address of the fact-check (absolute URL or app path). */
  url: string | null;
  headline?: string | null;
  summary?: string | null;
  claimDate?: Date | null;
  publishedAt?: Date | null;
  /** Default: ORGANISATION_NAME. */
  publisher?: string | null;
};

/**
 * Adds or refreshes a published fact-check in the matching index and embeds it, so the next
 * match finds it. Call it after each publish (and again after an edit is published).
 */
export async function indexPublishedCheck(
  db: Database,
  check: PublishedCheckInput,
  opts: { embedder?: Embedder } = {},
): Promise<void> {
  await q.upsertClaimIndex(db, [
    {
      source: "published",
      sourceRef: check.id,
      claim: check.claim,
      matchText: matchTextOf({ title: check.headline, summary: check.summary, claim: check.claim }),
      rating: check.rating,
      scale: check.scale ?? ratingToScale(check.rating),
      publisher: check.publisher ?? getConfig().organisation.name,
      url: check.url,
      claimDate: check.claimDate ?? null,
      reviewDate: check.publishedAt ?? null,
    },
  ]);
  await embedMissingClaims({ db, embedder: opts.embedder });
}

/** Takes an unpublished (or withdrawn) fact-check out of the index. */
export async function unindexPublishedCheck(db: Database, id: string): Promise<void> {
  await db.delete(s.claimIndex).where(and(eq(s.claimIndex.source, "published"), eq(s.claimIndex.sourceRef, id)));
  invalidateLexemeStats(db);
}

/**
 * Indexes every stored imported fact-check that is not in the index yet (an import stopped between
 * storing and indexing), one bounded slice at a time. Returns how many it indexed.
 */
export async function indexStoredImports(db: Database, signal?: AbortSignal): Promise<number> {
  let added = 0;
  for (;;) {
    signal?.throwIfAborted();
    const rows = await q.unindexedImportedFactChecks(db, MAX_ROWS_PER_STATEMENT);
    if (rows.length === 0) break;
    await indexImportedRows(db, rows);
    added += rows.length;
  }
  return added;
}

/** Index rows for imported fact-checks just inserted (vectors follow in embedMissingClaims). */
export async function indexImportedRows(
  db: Database,
  rows: Array<typeof s.importedFactChecks.$inferSelect>,
): Promise<void> {
  await q.upsertClaimIndex(
    db,
    rows.map((r) => ({
      source: "imported" as const,
      sourceRef: String(r.id),
      claim: r.claim,
      matchText: matchTextOf({ title: r.title, summary: r.summary, claim: r.claim }),
      rating: r.rating,
      scale: ratingToScale(r.rating),
      publisher: r.publisher,
      url: r.url,
      claimDate: r.claimDate,
      reviewDate: r.reviewDate,
    })),
  );
  if (rows.length) invalidateLexemeStats(db);
}

import type { Database } from "@/db/client";
import { bm25Candidates, denseCandidates, queryLexemes, type Candidate } from "@/db/queries/retrieval";
import { reciprocalRankFusion, RRF_K } from "@/lib/retrieval/fusion";
import { getLexemeStats, idf, matchLexemes } from "@/lib/retrieval/lexical-stats";
import { DEFAULT_MATCH_BUDGET } from "@/lib/retrieval/search";

/**
 * Candidate retrieval over the matching index with the product's own search pieces: the BM25 of
 * lib/retrieval over `claim_index.tsv`, the dense query over `claim_index_embeddings` (the
 * model's partial HNSW index) and reciprocal rank fusion. The re-scorer (./rescore.ts) orders
 * what this returns.
 */

/** Candidates per retriever before fusion and re-scoring. */
export const MATCH_CANDIDATES = 50;
/**
 * BM25 length normalisation for stored checks. CheckThat! dev split, lexical MAP@5: raw posts
 * with b 0.3 / 0.5 / 0.75 / 1: 0.897 / 0.888 / 0.882 / 0.865; links removed, b 0.2 / 0.3: 0.902 / 0.905.
 */
export const MATCH_BM25_B = 0.3;

export type ClaimCandidates = {
  dense: Candidate[];
  lexical: Candidate[];
  /** RRF of both lists: `passageId` is the claim_index row id. */
  hybrid: Array<{ id: number; score: number; ranks: Array<number | null> }>;
  timings: { denseMs: number; lexicalMs: number };
};

export async function claimCandidates(
  db: Database,
  p: {
    text: string;
    /** The query's vector and the model it came from; without it only the lexical side runs. */
    vector?: { model: string; values: number[] };
    depth?: number;
    bm25B?: number;
  },
): Promise<ClaimCandidates> {
  const depth = p.depth ?? MATCH_CANDIDATES;
  const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
    const t = performance.now();
    const v = await fn();
    return [v, performance.now() - t];
  };
  const [[dense, denseMs], [lexical, lexicalMs]] = await Promise.all([
    p.vector
      ? timed(() =>
          denseCandidates(db, {
            table: "claim_index",
            model: p.vector!.model,
            dim: p.vector!.values.length,
            vector: p.vector!.values,
            limit: depth,
          }),
        )
      : Promise.resolve([[] as Candidate[], 0] as [Candidate[], number]),
    timed(async () => {
      const [lexemes, stats] = await Promise.all([
        queryLexemes(db, p.text),
        getLexemeStats(db, undefined, "claim_index"),
      ]);
      return bm25Candidates(db, {
        table: "claim_index",
        terms: lexemes.map((lexeme) => ({ lexeme, idf: idf(stats, lexeme) })),
        match: matchLexemes(stats, lexemes, DEFAULT_MATCH_BUDGET),
        avgLength: stats.avgLength,
        b: p.bm25B ?? MATCH_BM25_B,
        limit: depth,
      });
    }),
  ]);
  const hybrid = reciprocalRankFusion([dense.map((c) => c.passageId), lexical.map((c) => c.passageId)], {
    k: RRF_K,
  });
  return { dense, lexical, hybrid, timings: { denseMs, lexicalMs } };
}

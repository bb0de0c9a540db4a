/**
 * The re-scorer: turns a retrieved candidate into a similarity in [0, 1] that a person can read
 * against a threshold. A logistic model over four features, fitted on the CheckThat! 2022 Task 2A
 * English dev split only (tweets against Snopes fact-checks; see docs/matching-and-checkworthiness.md),
 * so the value behaves like the chance that the two texts state the same claim:
 * - `cosine`: the sentence encoder's cosine between the incoming claim and the stored claim;
 * - `storedCoverage`: the IDF-weighted share of the stored claim's stems found in the incoming text
 *   (a fact-check's claim is short, a post that repeats it contains most of its rare words);
 * - `queryCoverage`: the IDF-weighted share of the incoming text's stems found in the stored check
 *   (headline, summary and claim);
 * - `rrf`: the hybrid search's reciprocal-rank score, scaled so rank 1 in both lists is 1.
 */
export type RescoreFeatures = { cosine: number; storedCoverage: number; queryCoverage: number; rrf: number };

/**
 * Fitted by logistic regression (Newton's method, scripts/fit-match-rescorer.ts) on the dev split's
 * candidates as `bench match --dump-features` writes them: MAP@5 0.956 there, 0.918 on the held-out
 * 2021 test split. The stored claim's own coverage adds nothing once the other three are known.
 */
export const RESCORE_WEIGHTS = {
  bias: -18.214,
  cosine: 18.199,
  storedCoverage: -0.622,
  queryCoverage: 16.78,
  rrf: 4.166,
};

export function similarity(f: RescoreFeatures, w = RESCORE_WEIGHTS): number {
  const z =
    w.bias +
    w.cosine * f.cosine +
    w.storedCoverage * f.storedCoverage +
    w.queryCoverage * f.queryCoverage +
    w.rrf * f.rrf;
  return 1 / (1 + Math.exp(-z));
}

/** IDF-weighted share of `of`'s stems that occur in `within` (0 when `of` has none). */
export function weightedCoverage(
  of: readonly string[],
  within: ReadonlySet<string>,
  idf: (lexeme: string) => number,
): number {
  let total = 0;
  let found = 0;
  for (const l of new Set(of)) {
    const w = idf(l);
    total += w;
    if (within.has(l)) found += w;
  }
  return total > 0 ? found / total : 0;
}

export function features(p: {
  /** The encoder's cosine between the two claims; null when either has no vector. */
  cosine: number | null;
  queryLexemes: readonly string[];
  storedClaimLexemes: readonly string[];
  storedAllLexemes: readonly string[];
  idf: (lexeme: string) => number;
  rrfScore: number;
  rrfK: number;
}): RescoreFeatures {
  const q = new Set(p.queryLexemes);
  return {
    cosine: p.cosine ?? 0,
    storedCoverage: weightedCoverage(p.storedClaimLexemes, q, p.idf),
    queryCoverage: weightedCoverage(p.queryLexemes, new Set(p.storedAllLexemes), p.idf),
    // Two lists, each at rank 1: 2 / (k + 1).
    rrf: (p.rrfScore * (p.rrfK + 1)) / 2,
  };
}

/**
 * Retrieval metrics with binary relevance (an id is either gold evidence for the claim or not).
 *
 * - recall@k: |gold ∩ top-k| / |gold| for one claim; the benchmark averages it over claims
 *   (macro average), so a claim with 15 gold sentences weighs the same as one with 2. Note that
 *   a claim with more than k gold ids cannot reach 1.
 * - hit@k: 1 when at least one gold id is in the top k.
 * - MRR: 1 / rank of the first gold id within the ranked list given (the benchmark passes the
 *   top 20, so it is MRR@20), 0 when none appears.
 * - nDCG@k: DCG = sum over ranks i <= k of rel_i / log2(i + 1), divided by the DCG of an ideal
 *   list that puts min(|gold|, k) gold ids first.
 */

function asSet(gold: Iterable<string>): Set<string> {
  return gold instanceof Set ? (gold as Set<string>) : new Set(gold);
}

/** Counts each gold id once even if a ranked list repeats it. */
function goldInTop(ranked: ReadonlyArray<string>, gold: Set<string>, k: number): number {
  const found = new Set<string>();
  for (const id of ranked.slice(0, k)) if (gold.has(id)) found.add(id);
  return found.size;
}

export function recallAtK(ranked: ReadonlyArray<string>, gold: Iterable<string>, k: number): number {
  const g = asSet(gold);
  if (g.size === 0) throw new Error("recall is undefined without gold ids");
  return goldInTop(ranked, g, k) / g.size;
}

export function hitAtK(ranked: ReadonlyArray<string>, gold: Iterable<string>, k: number): number {
  return goldInTop(ranked, asSet(gold), k) > 0 ? 1 : 0;
}

export function reciprocalRank(ranked: ReadonlyArray<string>, gold: Iterable<string>, k = ranked.length): number {
  const g = asSet(gold);
  const i = ranked.slice(0, k).findIndex((id) => g.has(id));
  return i < 0 ? 0 : 1 / (i + 1);
}

export function ndcgAtK(ranked: ReadonlyArray<string>, gold: Iterable<string>, k: number): number {
  const g = asSet(gold);
  if (g.size === 0) throw new Error("nDCG is undefined without gold ids");
  let dcg = 0;
  const seen = new Set<string>();
  ranked.slice(0, k).forEach((id, i) => {
    if (g.has(id) && !seen.has(id)) {
      seen.add(id);
      dcg += 1 / Math.log2(i + 2);
    }
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(g.size, k); i++) ideal += 1 / Math.log2(i + 2);
  return dcg / ideal;
}

/** Nearest-rank percentile (p in 0..100) of a sample: always one of the observed values. */
export function percentile(values: ReadonlyArray<number>, p: number): number {
  if (values.length === 0) return NaN;
  if (p < 0 || p > 100) throw new Error(`percentile must be within 0..100, got ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export function mean(values: ReadonlyArray<number>): number {
  if (values.length === 0) return NaN;
  return values.reduce((a, b) => a + b, 0) / values.length;
}

export type RetrievalScores = {
  claims: number;
  recall_at_5: number;
  recall_at_10: number;
  recall_at_20: number;
  hit_at_20: number;
  mrr: number;
  ndcg_at_20: number;
};

/** Macro averages over claims; claims without gold ids must be dropped by the caller. */
export function scoreRuns(
  runs: ReadonlyArray<{ ranked: ReadonlyArray<string>; gold: ReadonlyArray<string> }>,
): RetrievalScores {
  const per = runs.map(({ ranked, gold }) => {
    const g = new Set(gold);
    return {
      r5: recallAtK(ranked, g, 5),
      r10: recallAtK(ranked, g, 10),
      r20: recallAtK(ranked, g, 20),
      h20: hitAtK(ranked, g, 20),
      rr: reciprocalRank(ranked, g, 20),
      ndcg: ndcgAtK(ranked, g, 20),
    };
  });
  return {
    claims: runs.length,
    recall_at_5: mean(per.map((x) => x.r5)),
    recall_at_10: mean(per.map((x) => x.r10)),
    recall_at_20: mean(per.map((x) => x.r20)),
    hit_at_20: mean(per.map((x) => x.h20)),
    mrr: mean(per.map((x) => x.rr)),
    ndcg_at_20: mean(per.map((x) => x.ndcg)),
  };
}

export type IndexRecall = {
  k: number;
  queries: number;
  recall: number;
  queries_missing_one: number;
  exact_p95_ms: number;
};

/**
 * Recall of approximate (HNSW) lists against exact lists of the same queries and depth, by
 * distance: a returned neighbour counts when it is as close as the exact list's last one, so a tie
 * at the cut-off (equal cosines, common with short texts) is not a miss. A query misses one when
 * a vector closer than the approximate list's own last entry was left out.
 */
export function indexRecall(
  got: ReadonlyArray<ReadonlyArray<{ score: number }>>,
  exact: ReadonlyArray<ReadonlyArray<{ score: number }>>,
  k: number,
  exactMs: number[],
): IndexRecall {
  const EPS = 1e-6;
  let hit = 0;
  let all = 0;
  let missing = 0;
  got.forEach((g, i) => {
    const e = exact[i]!;
    if (e.length === 0) return;
    const cut = e[e.length - 1]!.score;
    const found = Math.min(e.length, g.filter((x) => x.score >= cut - EPS).length);
    hit += found;
    all += e.length;
    // Exact neighbours strictly closer than the approximate list's weakest entry, left out of it.
    const weakest = g.length ? g[g.length - 1]!.score : Number.POSITIVE_INFINITY;
    const closer = e.filter((x) => x.score > weakest + EPS).length;
    const kept = g.filter((x) => x.score > weakest + EPS).length;
    if (closer > kept || g.length < e.length) missing++;
  });
  return {
    k,
    queries: got.length,
    recall: all ? Math.round((hit / all) * 1000) / 1000 : 1,
    queries_missing_one: missing,
    exact_p95_ms: Math.round(percentile(exactMs, 95) * 10) / 10,
  };
}

/**
 * Rank fusion and diversification, kept free of I/O so the arithmetic is unit-tested on its own.
 */

export type RankedList<Id> = ReadonlyArray<Id>;

export type FusedItem<Id> = {
  id: Id;
  score: number;
  /** 1-based rank in each input list, or null when the list did not return the item. */
  ranks: Array<number | null>;
};

/** k = 60 is the constant of Cormack et al. (2009); it damps the weight of the very first ranks. */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion: score(d) = sum over lists of w / (k + rank(d)). Uses ranks only, so the
 * incomparable scales of cosine similarity and ts_rank_cd never have to be calibrated.
 * Ties are broken by the best single rank, then by first appearance, so the output is deterministic.
 */
export function reciprocalRankFusion<Id>(
  lists: ReadonlyArray<RankedList<Id>>,
  opts: { k?: number; weights?: ReadonlyArray<number> } = {},
): FusedItem<Id>[] {
  const k = opts.k ?? RRF_K;
  if (!(k >= 0)) throw new Error(`RRF k must be >= 0, got ${k}`);
  const byId = new Map<Id, FusedItem<Id> & { order: number; best: number }>();
  let order = 0;
  lists.forEach((list, li) => {
    const w = opts.weights?.[li] ?? 1;
    const seen = new Set<Id>();
    list.forEach((id, i) => {
      // A list repeating an id would otherwise count it twice.
      if (seen.has(id)) return;
      seen.add(id);
      const rank = i + 1;
      let item = byId.get(id);
      if (!item) {
        item = { id, score: 0, ranks: lists.map(() => null), order: order++, best: Infinity };
        byId.set(id, item);
      }
      item.score += w / (k + rank);
      item.ranks[li] = rank;
      item.best = Math.min(item.best, rank);
    });
  });
  return [...byId.values()]
    .sort((a, b) => b.score - a.score || a.best - b.best || a.order - b.order)
    .map(({ id, score, ranks }) => ({ id, score, ranks }));
}

export function cosineSimilarity(a: ReadonlyArray<number>, b: ReadonlyArray<number>): number {
  if (a.length !== b.length) throw new Error(`vector dimensions differ: ${a.length} vs ${b.length}`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 || nb === 0) return 0;
  return dot / Math.sqrt(na * nb);
}

export type MmrCandidate<Id> = {
  id: Id;
  /** Relevance to the query on a 0..1 scale (the caller normalises fused or cosine scores). */
  relevance: number;
  /** Missing when the passage has no vector of this model: it can't be compared, so never penalised. */
  vector?: ReadonlyArray<number>;
};

/**
 * Maximal marginal relevance (Carbonell & Goldstein, 1998): greedily picks the candidate that
 * maximises lambda * relevance - (1 - lambda) * max similarity to what is already picked, so
 * near-duplicate passages (the same sentence quoted in several articles) do not fill the evidence pool.
 * Returns candidate ids in the new order; lambda = 1 keeps the relevance order.
 */
export function maximalMarginalRelevance<Id>(
  candidates: ReadonlyArray<MmrCandidate<Id>>,
  k: number,
  lambda = 0.7,
): Id[] {
  if (lambda < 0 || lambda > 1) throw new Error(`MMR lambda must be within 0..1, got ${lambda}`);
  const pool = candidates.map((c, i) => ({ ...c, i }));
  const picked: typeof pool = [];
  // Running max similarity to the picked set, updated once per pick: O(k * n) similarities.
  const maxSim = new Array<number>(pool.length).fill(0);
  const taken = new Array<boolean>(pool.length).fill(false);
  const n = Math.min(k, pool.length);
  while (picked.length < n) {
    let best = -1;
    let bestScore = -Infinity;
    for (let i = 0; i < pool.length; i++) {
      if (taken[i]) continue;
      const s = lambda * pool[i]!.relevance - (1 - lambda) * (picked.length ? maxSim[i]! : 0);
      // Strict '>' keeps the earlier (more relevant) candidate on ties.
      if (s > bestScore) {
        bestScore = s;
        best = i;
      }
    }
    const chosen = pool[best]!;
    taken[best] = true;
    picked.push(chosen);
    if (chosen.vector) {
      for (let i = 0; i < pool.length; i++) {
        const v = pool[i]!.vector;
        if (taken[i] || !v) continue;
        maxSim[i] = Math.max(maxSim[i]!, cosineSimilarity(chosen.vector, v));
      }
    }
  }
  return picked.map((p) => p.id);
}

/** Min-max scaling to 0..1; a constant list maps to all ones (every item equally relevant). */
export function normalizeScores(scores: ReadonlyArray<number>): number[] {
  if (scores.length === 0) return [];
  // A loop, not Math.min(...scores): spreading a long list overflows the call stack.
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of scores) {
    if (s < lo) lo = s;
    if (s > hi) hi = s;
  }
  if (hi === lo) return scores.map(() => 1);
  return scores.map((s) => (s - lo) / (hi - lo));
}

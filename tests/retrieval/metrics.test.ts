import { describe, expect, it } from "vitest";
import {
  hitAtK,
  indexRecall,
  mean,
  ndcgAtK,
  percentile,
  recallAtK,
  reciprocalRank,
  scoreRuns,
} from "@/lib/bench/metrics";

describe("retrieval metrics (hand-computed)", () => {
  const ranked = ["a", "x", "b", "y", "z", "c"];
  const gold = ["a", "b", "c", "d"];

  it("recall@k is the fraction of gold ids in the top k", () => {
    expect(recallAtK(ranked, gold, 1)).toBe(1 / 4);
    expect(recallAtK(ranked, gold, 3)).toBe(2 / 4);
    expect(recallAtK(ranked, gold, 5)).toBe(2 / 4);
    expect(recallAtK(ranked, gold, 6)).toBe(3 / 4);
    expect(recallAtK(ranked, gold, 20)).toBe(3 / 4);
  });

  it("counts a repeated gold id once", () => {
    expect(recallAtK(["a", "a", "a"], ["a", "b"], 3)).toBe(0.5);
    expect(ndcgAtK(["a", "a"], ["a", "b"], 2)).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 12);
  });

  it("refuses recall without gold ids instead of returning NaN", () => {
    expect(() => recallAtK(ranked, [], 5)).toThrow(/without gold/);
  });

  it("hit@k", () => {
    expect(hitAtK(["x", "y", "a"], gold, 2)).toBe(0);
    expect(hitAtK(["x", "y", "a"], gold, 3)).toBe(1);
  });

  it("reciprocal rank uses the first gold id, 0 when none", () => {
    expect(reciprocalRank(["x", "y", "b", "a"], gold)).toBeCloseTo(1 / 3, 12);
    expect(reciprocalRank(["x", "y"], gold)).toBe(0);
    expect(reciprocalRank(["x", "y", "b"], gold, 2)).toBe(0);
  });

  it("nDCG@k: gold at ranks 1, 3 and 6 of 4 gold ids", () => {
    // DCG = 1/log2(2) + 1/log2(4) + 1/log2(7); IDCG (4 gold, k=6) = 1 + 1/log2(3) + 1/log2(4) + 1/log2(5)
    const dcg = 1 + 0.5 + 1 / Math.log2(7);
    const idcg = 1 + 1 / Math.log2(3) + 0.5 + 1 / Math.log2(5);
    expect(ndcgAtK(ranked, gold, 6)).toBeCloseTo(dcg / idcg, 12);
    // With k = 2 only rank 1 counts, and the ideal list has 2 gold ids.
    expect(ndcgAtK(ranked, gold, 2)).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 12);
    expect(ndcgAtK(["a", "b", "c", "d"], gold, 20)).toBeCloseTo(1, 12);
  });

  it("percentile is nearest-rank", () => {
    const v = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(v, 50)).toBe(5);
    expect(percentile(v, 95)).toBe(10);
    expect(percentile(v, 90)).toBe(9);
    expect(percentile([7], 95)).toBe(7);
    expect(Number.isNaN(percentile([], 50))).toBe(true);
  });

  it("scoreRuns macro-averages over claims", () => {
    const s = scoreRuns([
      { ranked: ["a", "b"], gold: ["a"] }, // recall 1, rr 1
      { ranked: ["x", "y", "z", "q", "r", "b"], gold: ["b", "c"] }, // r@5 0, r@10 0.5, rr 1/6
    ]);
    expect(s.claims).toBe(2);
    expect(s.recall_at_5).toBeCloseTo(0.5, 12);
    expect(s.recall_at_10).toBeCloseTo(0.75, 12);
    expect(s.mrr).toBeCloseTo(mean([1, 1 / 6]), 12);
    expect(s.hit_at_20).toBe(1);
    const ndcg2 = 1 / Math.log2(7) / (1 + 1 / Math.log2(3));
    expect(s.ndcg_at_20).toBeCloseTo((1 + ndcg2) / 2, 12);
  });
});

describe("indexRecall (HNSW against exact search)", () => {
  const list = (...scores: number[]) => scores.map((score, i) => ({ passageId: i, score }));
  it("counts a tie at the cut-off as found, and a closer neighbour left out as a miss", () => {
    const exact = [list(0.9, 0.8, 0.7), list(0.9, 0.8, 0.7)];
    // First: the last entry is another vector at the same distance. Second: the 0.8 one was missed.
    const got = [list(0.9, 0.8, 0.7), list(0.9, 0.7, 0.6)];
    const r = indexRecall(got, exact, 3, [1, 2]);
    expect(r.recall).toBeCloseTo(5 / 6, 3);
    expect(r.queries_missing_one).toBe(1);
    expect(indexRecall([list(0.9, 0.8)], [list(0.9, 0.8, 0.7)], 3, [1]).queries_missing_one).toBe(1);
  });
});

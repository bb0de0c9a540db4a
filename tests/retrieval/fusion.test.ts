import { describe, expect, it } from "vitest";
import {
  cosineSimilarity,
  maximalMarginalRelevance,
  normalizeScores,
  reciprocalRankFusion,
} from "@/lib/retrieval/fusion";

describe("reciprocal rank fusion", () => {
  it("sums 1/(k+rank) over lists and records each list's rank", () => {
    const fused = reciprocalRankFusion(
      [
        ["a", "b", "c"],
        ["c", "a", "d"],
      ],
      { k: 60 },
    );
    const byId = Object.fromEntries(fused.map((f) => [f.id, f]));
    expect(byId.a!.score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(byId.c!.score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(byId.b!.score).toBeCloseTo(1 / 62, 12);
    expect(byId.d!.ranks).toEqual([null, 3]);
    expect(byId.a!.ranks).toEqual([1, 2]);
    expect(fused.map((f) => f.id)).toEqual(["a", "c", "b", "d"]);
  });

  it("prefers an item found by both lists over one ranked first by a single list", () => {
    const fused = reciprocalRankFusion([
      ["solo", "x", "both"],
      ["y", "z", "both"],
    ]);
    // both: 2/63 = 0.0317 > solo: 1/61 = 0.0164
    expect(fused[0]!.id).toBe("both");
  });

  it("breaks ties deterministically by best rank, then first appearance", () => {
    const fused = reciprocalRankFusion([
      ["a", "b"],
      ["b", "a"],
    ]);
    expect(fused.map((f) => f.id)).toEqual(["a", "b"]);
    const fused2 = reciprocalRankFusion([["p"], ["q"]]);
    expect(fused2.map((f) => f.id)).toEqual(["p", "q"]);
  });

  it("applies per-list weights and ignores repeats within a list", () => {
    const fused = reciprocalRankFusion([["a"], ["b"]], { k: 0, weights: [1, 3] });
    expect(fused.map((f) => [f.id, f.score])).toEqual([
      ["b", 3],
      ["a", 1],
    ]);
    const rep = reciprocalRankFusion([["a", "a"]], { k: 0 });
    expect(rep).toEqual([{ id: "a", score: 1, ranks: [1] }]);
  });
});

describe("MMR", () => {
  it("cosine similarity", () => {
    expect(cosineSimilarity([1, 0], [0, 1])).toBe(0);
    expect(cosineSimilarity([1, 1], [2, 2])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([0, 0], [1, 0])).toBe(0);
    expect(() => cosineSimilarity([1], [1, 2])).toThrow(/dimensions/);
  });

  it("pushes a near-duplicate below a less relevant but different passage", () => {
    const candidates = [
      { id: "orig", relevance: 1, vector: [1, 0, 0] },
      { id: "dup", relevance: 0.95, vector: [0.99, 0.01, 0] },
      { id: "other", relevance: 0.8, vector: [0, 1, 0] },
    ];
    expect(maximalMarginalRelevance(candidates, 3, 0.7)).toEqual(["orig", "other", "dup"]);
    // lambda = 1 is pure relevance.
    expect(maximalMarginalRelevance(candidates, 3, 1)).toEqual(["orig", "dup", "other"]);
    expect(maximalMarginalRelevance(candidates, 2, 0.7)).toEqual(["orig", "other"]);
  });

  it("never penalises candidates without a vector, and rejects a bad lambda", () => {
    const c = [
      { id: 1, relevance: 1, vector: [1, 0] },
      { id: 2, relevance: 0.9 },
      { id: 3, relevance: 0.8, vector: [1, 0] },
    ];
    expect(maximalMarginalRelevance(c, 3, 0.5)).toEqual([1, 2, 3]);
    expect(() => maximalMarginalRelevance(c, 3, 1.5)).toThrow(/lambda/);
  });

  it("normalises scores to 0..1", () => {
    expect(normalizeScores([2, 4, 3])).toEqual([0, 1, 0.5]);
    expect(normalizeScores([5, 5])).toEqual([1, 1]);
    expect(normalizeScores([])).toEqual([]);
  });
});

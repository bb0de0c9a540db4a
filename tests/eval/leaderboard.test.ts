import { describe, expect, it } from "vitest";
import { frontier, pairOf } from "@/lib/eval/leaderboard";
import { planMatrix } from "@/lib/eval/matrix";

describe("pairwise McNemar in the leaderboard", () => {
  it("matches a hand-worked 2x2 table", () => {
    // 14 shared claims: both right 3, only A right 8, only B right 2, both wrong 1.
    // Exact McNemar: the 10 discordant claims split Binomial(10, 1/2) under "equally accurate";
    // P(X <= 2) = (C(10,0) + C(10,1) + C(10,2)) / 2^10 = (1 + 10 + 45) / 1024 = 56/1024;
    // two-sided p = 2 * 56/1024 = 112/1024 = 0.109375.
    const right = (xs: boolean[]) => new Map(xs.map((v, i) => [`c${i}`, v]));
    const a = [...Array(3).fill(true), ...Array(8).fill(true), ...Array(2).fill(false), false];
    const b = [...Array(3).fill(true), ...Array(8).fill(false), ...Array(2).fill(true), false];
    const onlyInA = new Map([...right(a), ["extra", true]]);
    const p = pairOf({ protocol: "radar", correct: onlyInA }, { protocol: "tool-mad", correct: right(b) });
    expect(p).toMatchObject({
      a: "radar",
      b: "tool-mad",
      shared: 14,
      both_right: 3,
      only_a_right: 8,
      only_b_right: 2,
      both_wrong: 1,
    });
    expect(p.p_value).toBeCloseTo(112 / 1024, 12);
  });

  it("gives p = 1 when the two never disagree", () => {
    const m = new Map([
      ["x", true],
      ["y", false],
    ]);
    expect(pairOf({ protocol: "a", correct: m }, { protocol: "b", correct: new Map(m) }).p_value).toBe(1);
  });
});

describe("the cost/accuracy frontier", () => {
  it("keeps the points no other beats on both cost and accuracy, cheapest first", () => {
    const points = [
      { id: "cheap", x: 0.5, y: 0.4 },
      { id: "a", x: 1, y: 0.5 },
      { id: "b", x: 2, y: 0.7 },
      // Dearer and less accurate than b.
      { id: "c", x: 3, y: 0.6 },
      // As dear as b, less accurate.
      { id: "g", x: 2, y: 0.65 },
      // As accurate as a, dearer.
      { id: "h", x: 1.5, y: 0.5 },
      { id: "best", x: 4, y: 0.9 },
    ];
    expect(frontier(points).map((p) => p.id)).toEqual(["cheap", "a", "b", "best"]);
  });

  it("keeps both of two identical points (neither beats the other)", () => {
    expect(
      frontier([
        { id: "p", x: 1, y: 0.5 },
        { id: "q", x: 1, y: 0.5 },
      ])
        .map((p) => p.id)
        .sort(),
    ).toEqual(["p", "q"]);
  });
});

describe("planning a matrix", () => {
  const claims = [
    { id: "1", claim: "One.", label: "SUPPORTS" },
    { id: "2", claim: "Two.", label: "REFUTES" },
    { id: "3", claim: "Three.", label: "NOT ENOUGH INFO" },
  ];
  const entry = (protocol: string, config: Record<string, unknown> = {}) => ({
    protocol,
    config,
    models: {},
    evidence: { mode: "tools" as const, corpus: null },
    references: [],
  });

  it("gives Tool-MAD the label scheme that reads every gold label, unless one was set explicitly", () => {
    const plan = planMatrix({ dataset: "fever", claims, entries: [entry("tool-mad", { labels: "faviq" })] });
    expect(plan.runs[0]!.entry.config.labels).toBe("fever");
    expect(plan.runs[0]!.scoring).toMatchObject({ scored: 3, unscored: {} });
    const kept = planMatrix({
      dataset: "fever",
      claims,
      entries: [entry("tool-mad", { labels: "faviq" })],
      explicitLabels: new Set(["tool-mad"]),
    });
    expect(kept.runs[0]!.entry.config.labels).toBe("faviq");
    expect(kept.runs[0]!.scoring).toMatchObject({ scored: 2, unscored: { "NOT ENOUGH INFO": 1 } });
  });

  it("scores RADAR on SUPPORTS / REFUTES gold through the product scale instead of refusing it, and refuses a protocol named twice", () => {
    const plan = planMatrix({ dataset: "fever", claims, entries: [entry("radar"), entry("proclaim")] });
    expect(plan.refused).toEqual([]);
    expect(plan.runs[0]!.scoring).toMatchObject({
      scale: "product",
      labels: ["TRUE", "HALF-TRUE", "FALSE"],
      scored: 2,
      unscored: { "NOT ENOUGH INFO": 1 },
    });
    expect(plan.runs[1]!.scoring).toMatchObject({
      labels: ["SUPPORTED", "NOT SUPPORTED"],
      scored: 2,
      unscored: { "NOT ENOUGH INFO": 1 },
    });
    expect(() => planMatrix({ dataset: "fever", claims, entries: [entry("proclaim"), entry("proclaim")] })).toThrow(
      /names proclaim twice/,
    );
  });
});

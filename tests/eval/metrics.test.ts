import { describe, expect, it } from "vitest";
import {
  comparePaired,
  distribution,
  excludedItems,
  mcnemarExact,
  quantileSorted,
  summarize,
  summarizeWithCI,
  type LabeledItem,
} from "@/lib/eval/metrics";

const L = ["TRUE", "HALF-TRUE", "FALSE"] as const;

// Worked by hand below; NEE is outside the 3-way scheme.
const ITEMS: LabeledItem[] = [
  { gold: "TRUE", predicted: "TRUE" },
  { gold: "TRUE", predicted: "HALF-TRUE" },
  { gold: "HALF-TRUE", predicted: "HALF-TRUE" },
  { gold: "HALF-TRUE", predicted: "UNPARSED" },
  { gold: "FALSE", predicted: "FALSE" },
  { gold: "FALSE", predicted: "FALSE" },
  { gold: "FALSE", predicted: "TRUE" },
  { gold: "Not Enough Evidence", predicted: "FALSE" },
];

describe("summarize", () => {
  it("matches the hand-computed accuracy, per-class P/R/F1, macro-F1 and confusion matrix", () => {
    const s = summarize(ITEMS, L);
    // 7 scored claims (NEE left out), 4 right, 1 unparsed.
    expect(s.n).toBe(7);
    expect(s.correct).toBe(4);
    expect(s.unparsed).toBe(1);
    expect(s.accuracy).toBeCloseTo(4 / 7, 12);
    expect(s.accuracy_parsed).toBeCloseTo(4 / 6, 12);
    // TRUE: TP 1, predicted 2 (one from FALSE), support 2 -> P .5, R .5, F1 .5
    expect(s.per_class.TRUE).toEqual({ precision: 0.5, recall: 0.5, f1: 0.5, support: 2, predicted: 2 });
    // HALF-TRUE: TP 1, predicted 2, support 2 (the unparsed one counts against recall, not as a prediction)
    expect(s.per_class["HALF-TRUE"]).toEqual({ precision: 0.5, recall: 0.5, f1: 0.5, support: 2, predicted: 2 });
    // FALSE: TP 2, predicted 2, support 3 -> P 1, R 2/3, F1 0.8
    expect(s.per_class.FALSE!.precision).toBe(1);
    expect(s.per_class.FALSE!.recall).toBeCloseTo(2 / 3, 12);
    expect(s.per_class.FALSE!.f1).toBeCloseTo(0.8, 12);
    expect(s.macro_f1).toBeCloseTo((0.5 + 0.5 + 0.8) / 3, 12);
    expect(s.confusion).toEqual({
      TRUE: { TRUE: 1, "HALF-TRUE": 1, FALSE: 0, UNPARSED: 0 },
      "HALF-TRUE": { TRUE: 0, "HALF-TRUE": 1, FALSE: 0, UNPARSED: 1 },
      FALSE: { TRUE: 1, "HALF-TRUE": 0, FALSE: 2, UNPARSED: 0 },
    });
  });

  it("reports out-of-scheme gold labels separately", () => {
    expect(excludedItems(ITEMS, L)).toEqual({ "Not Enough Evidence": { FALSE: 1 } });
  });

  it("never folds an unparsed or unknown verdict into a class", () => {
    const s = summarize(
      [
        { gold: "FALSE", predicted: null },
        { gold: "FALSE", predicted: "MOSTLY-FALSE" },
      ],
      L,
    );
    expect(s.unparsed).toBe(2);
    expect(s.per_class.FALSE).toEqual({ precision: null, recall: 0, f1: 0, support: 2, predicted: 0 });
    // TRUE and HALF-TRUE neither occur nor are predicted: no F1, left out of the macro average.
    expect(s.per_class.TRUE!.f1).toBeNull();
    expect(s.macro_f1).toBe(0);
    expect(s.accuracy_parsed).toBeNull();
  });
});

describe("bootstrap intervals", () => {
  it("uses type-7 quantiles", () => {
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4], 0.25)).toBe(1.75);
  });

  it("are degenerate when every claim is right, and reproducible for a seed", () => {
    const all = Array.from({ length: 20 }, () => ({ gold: "FALSE", predicted: "FALSE" }));
    const s = summarizeWithCI(all, L, { resamples: 200, seed: 3 });
    expect(s.accuracy).toEqual({ value: 1, ci: { low: 1, high: 1 } });
    const a = summarizeWithCI(ITEMS, L, { resamples: 300, seed: 7 });
    const b = summarizeWithCI(ITEMS, L, { resamples: 300, seed: 7 });
    expect(a).toEqual(b);
    expect(a.accuracy.ci!.low).toBeLessThanOrEqual(4 / 7);
    expect(a.accuracy.ci!.high).toBeGreaterThanOrEqual(4 / 7);
    expect(a.confusion.FALSE!.FALSE!.value).toBe(2);
    expect(a.bootstrap).toEqual({ resamples: 300, seed: 7, level: 0.95, method: "percentile" });
  });

  it("shrinks with more claims", () => {
    const mk = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ gold: "FALSE", predicted: i % 4 === 0 ? "TRUE" : "FALSE" }));
    const small = summarizeWithCI(mk(20), L, { resamples: 500 });
    const large = summarizeWithCI(mk(400), L, { resamples: 500 });
    const width = (s: typeof small) => s.accuracy.ci!.high - s.accuracy.ci!.low;
    expect(width(large)).toBeLessThan(width(small) / 2);
  });
});

describe("paired comparison", () => {
  it("McNemar exact p-values by hand: 2 * P(Bin(n, 1/2) <= min)", () => {
    // b=1, c=5: n=6, P(X<=1) = (1+6)/64 -> p = 14/64
    expect(mcnemarExact(1, 5)).toBeCloseTo(14 / 64, 12);
    expect(mcnemarExact(5, 1)).toBeCloseTo(14 / 64, 12);
    expect(mcnemarExact(0, 6)).toBeCloseTo(2 / 64, 12);
    expect(mcnemarExact(3, 3)).toBe(1);
    expect(mcnemarExact(0, 0)).toBe(1);
  });

  it("counts discordant claims and bootstraps the difference", () => {
    const items = [
      ...Array.from({ length: 10 }, () => ({ gold: "FALSE", a: "FALSE", b: "FALSE" })),
      { gold: "TRUE", a: "TRUE", b: "FALSE" },
      ...Array.from({ length: 5 }, () => ({ gold: "HALF-TRUE", a: "FALSE", b: "HALF-TRUE" })),
      { gold: "Not Enough Evidence", a: "TRUE", b: "FALSE" },
    ];
    const c = comparePaired(items, L, { resamples: 500, seed: 2 });
    expect(c.n).toBe(16);
    expect(c.only_a_correct).toBe(1);
    expect(c.only_b_correct).toBe(5);
    expect(c.mcnemar.p_value).toBeCloseTo(14 / 64, 12);
    expect(c.accuracy_a).toBeCloseTo(11 / 16, 12);
    expect(c.accuracy_b).toBeCloseTo(15 / 16, 12);
    expect(c.accuracy_diff.value).toBeCloseTo(-4 / 16, 12);
    expect(c.accuracy_diff.ci!.high).toBeLessThanOrEqual(0);
    // 1 vs 5 discordant claims is weak evidence either way: the bootstrap agrees with McNemar's order of magnitude.
    expect(c.accuracy_diff.p_value).toBeGreaterThan(0.02);
    expect(c.accuracy_diff.p_value).toBeLessThan(0.4);
  });
});

describe("distribution", () => {
  it("mean, median, p95 and total", () => {
    const d = distribution([4, 1, 3, 2]);
    expect(d).toMatchObject({ n: 4, mean: 2.5, median: 2.5, total: 10 });
    // type 7: position 0.95 * 3 = 2.85 between 3 and 4
    expect(d.p95).toBeCloseTo(3.85, 12);
    expect(distribution([])).toEqual({ n: 0, mean: null, median: null, p95: null, total: 0 });
  });
});

import { describe, expect, it } from "vitest";
import {
  agreementReport,
  bootstrap,
  cohenKappa,
  fleissKappa,
  krippendorffAlphaNominal,
  majority,
} from "@/lib/annotation/agreement";

/** Expand a table of counts (rows: items, columns: categories) into label lists. */
const fromCounts = (rows: number[][]) => rows.map((r) => r.flatMap((c, j) => Array<string>(c).fill(`c${j + 1}`)));
const pairsFrom = (table: Record<string, number>) =>
  Object.entries(table).flatMap(([k, n]) => Array.from({ length: n }, () => k.split("/") as [string, string]));

describe("Cohen's kappa", () => {
  it("matches the textbook 2x2 table: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no gives po 0.7, pe 0.5, kappa 0.4", () => {
    expect(cohenKappa(pairsFrom({ "Y/Y": 20, "Y/N": 5, "N/Y": 10, "N/N": 15 }))).toBeCloseTo(0.4, 12);
  });
  it("matches the textbook's second table: 45/15/25/15 gives po 0.6, pe 0.54, kappa 0.1304", () => {
    expect(cohenKappa(pairsFrom({ "Y/Y": 45, "Y/N": 15, "N/Y": 25, "N/N": 15 }))).toBeCloseTo(0.06 / 0.46, 12);
  });
  it("is 1 for perfect agreement and undefined when both always say the same single label", () => {
    expect(
      cohenKappa([
        ["A", "A"],
        ["B", "B"],
      ]),
    ).toBe(1);
    expect(
      cohenKappa([
        ["A", "A"],
        ["A", "A"],
      ]),
    ).toBeNull();
    expect(cohenKappa([])).toBeNull();
  });
});

describe("Fleiss' kappa", () => {
  // The worked example of 10 subjects, 14 raters, 5 categories (Fleiss' method as presented on
  // Wikipedia): P-bar = 0.378, P-bar-e = 0.2128, kappa = 0.2099.
  const table = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
  ];
  it("matches the worked example to four decimals", () => {
    const pj = [20, 28, 39, 21, 32].map((c) => c / 140);
    const pe = pj.reduce((a, p) => a + p * p, 0);
    // P_i = (sum of squared counts - 14) / (14 * 13), summed by hand over the ten rows.
    const pBar = [196, 60, 70, 94, 74, 98, 58, 46, 66, 66].reduce((a, sq) => a + (sq - 14) / 182, 0) / 10;
    expect(pBar).toBeCloseTo(0.378, 3);
    expect(pe).toBeCloseTo(0.2128, 4);
    expect(fleissKappa(fromCounts(table))).toBeCloseTo((pBar - pe) / (1 - pe), 12);
    expect(fleissKappa(fromCounts(table))).toBeCloseTo(0.2099, 4);
  });
  it("equals Cohen-style chance correction on a two-rater table only through its own pooled marginals (Scott's pi)", () => {
    // With two raters Fleiss' kappa is Scott's pi: 20/5/10/15 gives pooled p(Y) = 0.55, pe = 0.505, pi = (0.7 - 0.505) / 0.495.
    const items = pairsFrom({ "Y/Y": 20, "Y/N": 5, "N/Y": 10, "N/N": 15 }).map(([a, b]) => [a, b]);
    expect(fleissKappa(items)).toBeCloseTo((0.7 - 0.505) / 0.495, 12);
  });
});

describe("Krippendorff's alpha, nominal", () => {
  it("matches Krippendorff's (2011) binary example of two observers and ten units: alpha = 0.095", () => {
    const a = [0, 1, 0, 0, 0, 0, 0, 0, 1, 0];
    const b = [1, 1, 1, 0, 0, 1, 0, 0, 0, 0];
    expect(krippendorffAlphaNominal(a.map((x, i) => [String(x), String(b[i])]))).toBeCloseTo(0.095, 3);
  });
  it("matches Krippendorff's (2011) example of four observers, twelve units and missing values: alpha = 0.743", () => {
    const _ = null;
    const obs = [
      [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
      [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
      [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
      [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
    ];
    const units = obs[0]!.map((_x, u) =>
      obs
        .map((o) => o[u])
        .filter((v) => v !== null)
        .map(String),
    );
    expect(krippendorffAlphaNominal(units)).toBeCloseTo(0.743, 3);
  });
});

describe("bootstrap intervals", () => {
  const items = pairsFrom({ "Y/Y": 20, "Y/N": 5, "N/Y": 10, "N/N": 15 });
  it("are reproducible with a seed, differ with another, and contain the estimate", () => {
    const a = bootstrap(items, cohenKappa, { seed: 7, resamples: 500 });
    const b = bootstrap(items, cohenKappa, { seed: 7, resamples: 500 });
    const c = bootstrap(items, cohenKappa, { seed: 8, resamples: 500 });
    expect(a).toEqual(b);
    expect(a.ci).not.toEqual(c.ci);
    expect(a.ci!.low).toBeLessThan(0.4);
    expect(a.ci!.high).toBeGreaterThan(0.4);
  });
});

describe("the agreement report", () => {
  it("computes pairwise kappas, the judge against the majority, its confusion matrix and per-annotator figures", () => {
    const L = ["TRUE", "HALF-TRUE", "FALSE"];
    const item = (id: string, judge: string, labels: string[], secs = 30) => ({
      debateId: id,
      judge,
      labels: labels.map((label, i) => ({ annotator: ["ann", "bob", "cat"][i]!, label, durationSeconds: secs + i })),
    });
    const r = agreementReport(
      [
        item("1", "TRUE", ["TRUE", "TRUE", "TRUE"]),
        item("2", "FALSE", ["FALSE", "FALSE", "HALF-TRUE"]),
        item("3", "TRUE", ["HALF-TRUE", "HALF-TRUE", "FALSE"]),
        item("4", "FALSE", ["TRUE", "FALSE", "HALF-TRUE"]),
      ],
      L,
      { resamples: 200 },
    );
    expect(r.items).toBe(4);
    expect(r.pairs.map((p) => `${p.a}-${p.b}:${p.n}`)).toEqual(["ann-bob:4", "ann-cat:4", "bob-cat:4"]);
    expect(r.pairs[0]!.percentAgreement).toBe(0.75);
    // Item 4 has no majority: three items judged; the judge is right on 1 and 2, wrong on 3.
    expect(r.judge.n).toBe(3);
    expect(r.judge.accuracy.value).toBeCloseTo(2 / 3, 12);
    expect(r.judge.confusion.TRUE).toEqual({ TRUE: 1, "HALF-TRUE": 1, FALSE: 0 });
    expect(r.annotators.find((a) => a.annotator === "cat")).toMatchObject({
      count: 4,
      medianSeconds: 32,
      comparable: 3,
      agreementWithOthers: 1 / 3,
    });
    expect(majority(["A", "B"])).toBeNull();
  });
});

describe("how many debates each figure rests on", () => {
  it("counts for Fleiss and Krippendorff only the debates with two or more labels (3 of 4 here, not 4)", () => {
    const two = (id: string, x: string, y: string) => ({
      debateId: id,
      judge: "TRUE",
      labels: [
        { annotator: "ann", label: x },
        { annotator: "bob", label: y },
      ],
    });
    const items = [
      two("1", "TRUE", "TRUE"),
      two("2", "FALSE", "FALSE"),
      two("3", "TRUE", "FALSE"),
      { debateId: "4", judge: "TRUE", labels: [{ annotator: "ann", label: "HALF-TRUE" }] },
    ];
    const r = agreementReport(items, ["TRUE", "HALF-TRUE", "FALSE"], { resamples: 50 });
    expect(r.items).toBe(4);
    expect(r.multiplyLabelled).toBe(3);
    expect(r.fleissKappa.n).toBe(3);
    expect(r.krippendorffAlpha.n).toBe(3);
    // Leaving the single-label debate out does not change the statistic itself.
    expect(r.fleissKappa.value).toBeCloseTo(
      fleissKappa(items.slice(0, 3).map((it) => it.labels.map((l) => l.label)))!,
      12,
    );
    expect(r.pairs[0]!.n).toBe(3);
  });
});

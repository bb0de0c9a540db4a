import { describe, expect, it } from "vitest";
import type { ClaimRecord } from "@/lib/datasets/claims";
import { planMatrix, type MatrixEntry } from "@/lib/eval/matrix";
import { summarize } from "@/lib/eval/metrics";
import { goldOnProductScale, whyNotScored } from "@/lib/eval/product-scale";
import { scoreRun } from "@/lib/eval/report";

/** Scoring through the product scale (TRUE / HALF-TRUE / FALSE) on hand-made tables: which claims are scored, which not, and why. */

const table = (labels: string[]): ClaimRecord[] =>
  labels.map((label, i) => ({ id: `c${i + 1}`, claim: `Claim ${i + 1} about the harbour.`, label }));
const entries = (protocols: string[]): MatrixEntry[] =>
  protocols.map((protocol) => ({ protocol, config: {}, models: {}, evidence: { mode: "gold" }, references: [] }));
const all = { limit: 100 };

describe("gold labels on the product scale", () => {
  it("reads each dataset's spellings, and gives none to not-enough-info labels", () => {
    expect(["SUPPORTS", "supported", "TRUE", "Supported", "REAL"].map((g) => goldOnProductScale(g))).toEqual([
      "TRUE",
      "TRUE",
      "TRUE",
      "TRUE",
      "TRUE",
    ]);
    expect(["REFUTES", "refuted", "FALSE", "FAKE"].map((g) => goldOnProductScale(g))).toEqual([
      "FALSE",
      "FALSE",
      "FALSE",
      "FALSE",
    ]);
    expect(goldOnProductScale("half-true")).toBe("HALF-TRUE");
    expect(
      ["NOT ENOUGH INFO", "NEI", "Not Enough Evidence", "Conflicting Evidence/Cherrypicking", null].map((g) =>
        goldOnProductScale(g),
      ),
    ).toEqual([null, null, null, null, null]);
    // The native label is read when the stored one has no reading.
    expect(goldOnProductScale("odd", "SUPPORTS")).toBe("TRUE");
    expect(whyNotScored(["TRUE", "FALSE"], "HALF-TRUE")).toBe("the method never answers HALF-TRUE");
    expect(whyNotScored(["TRUE", "HALF-TRUE", "FALSE"], "NOT ENOUGH INFO")).toBe(
      "its gold label (NOT ENOUGH INFO) has no product label",
    );
    expect(whyNotScored(["TRUE", "FALSE"], "REFUTES")).toBeNull();
  });
});

describe("planMatrix through the product scale", () => {
  it("on a FEVER table scores RADAR and ZoFia on the product scale, Tool-MAD and PROClaim natively, and says which claims are left out", () => {
    // 3 SUPPORTS, 2 REFUTES, 1 NOT ENOUGH INFO.
    const plan = planMatrix({
      dataset: "fever-hand",
      claims: table(["SUPPORTS", "REFUTES", "NOT ENOUGH INFO", "SUPPORTS", "REFUTES", "SUPPORTS"]),
      sample: all,
      entries: entries(["radar", "tool-mad", "zofia", "proclaim"]),
    });
    expect(plan.refused).toEqual([]);
    const by = Object.fromEntries(plan.runs.map((r) => [r.entry.protocol, r.scoring]));
    expect(by.radar).toMatchObject({
      scale: "product",
      labels: ["TRUE", "HALF-TRUE", "FALSE"],
      scored: 5,
      unscored: { "NOT ENOUGH INFO": 1 },
      why: { "NOT ENOUGH INFO": "its gold label (NOT ENOUGH INFO) has no product label" },
    });
    expect(by.zofia).toMatchObject({
      scale: "product",
      labels: ["TRUE", "FALSE"],
      scored: 5,
      unscored: { "NOT ENOUGH INFO": 1 },
    });
    expect(by.zofia!.how).toMatch(
      /^on the product scale \(TRUE \/ FALSE\): its own labels read as REAL → TRUE, FAKE → FALSE, the gold read the same way; each claim is read as a one-paragraph article .*the paper judges whole articles; not scored: 1 NOT ENOUGH INFO \(its gold label \(NOT ENOUGH INFO\) has no product label\)$/,
    );
    // Read natively: no product scale.
    expect(by["tool-mad"]).toMatchObject({ labels: ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"], scored: 6 });
    expect(by["tool-mad"]!.scale).toBeUndefined();
    expect(by.proclaim).toMatchObject({ labels: ["SUPPORTED", "NOT SUPPORTED"], scored: 5 });
    expect(by.proclaim!.scale).toBeUndefined();
  });

  it("on a TRUE / HALF-TRUE / FALSE table ZoFia leaves out HALF-TRUE (it never answers it); RADAR reads every claim natively", () => {
    const plan = planMatrix({
      dataset: "politifact-hand",
      claims: table(["TRUE", "HALF-TRUE", "FALSE", "HALF-TRUE", "TRUE"]),
      sample: all,
      entries: entries(["radar", "zofia"]),
    });
    const by = Object.fromEntries(plan.runs.map((r) => [r.entry.protocol, r.scoring]));
    expect(by.radar).toMatchObject({ scored: 5, unscored: {} });
    expect(by.radar!.scale).toBeUndefined();
    expect(by.zofia).toMatchObject({
      scale: "product",
      scored: 3,
      unscored: { "HALF-TRUE": 2 },
      why: { "HALF-TRUE": "the method never answers HALF-TRUE" },
    });
  });

  it("refuses only when not one claim can be scored on the product scale either", () => {
    const half = planMatrix({
      dataset: "half-only",
      claims: table(["HALF-TRUE", "HALF-TRUE"]),
      sample: all,
      entries: entries(["radar", "zofia"]),
    });
    expect(half.runs.map((r) => r.entry.protocol)).toEqual(["radar"]);
    expect(half.refused[0]!.reason).toMatch(
      /^ZoFia cannot be scored on half-only: it answers REAL \/ FAKE, none of the dataset's gold labels \(HALF-TRUE\) reads as one, and none reads as a product label it can give \(TRUE \/ FALSE\) either\./,
    );
    const nei = planMatrix({
      dataset: "nei-only",
      claims: table(["NOT ENOUGH INFO"]),
      sample: all,
      entries: entries(["radar"]),
    });
    expect(nei.runs).toEqual([]);
    expect(nei.refused[0]!.protocol).toBe("radar");
  });
});

describe("a run's report on the product scale", () => {
  it("scores the verdict through the protocol's mapping against the gold read the same way", () => {
    const zofia = { protocol: "zofia", config: { matrix: { scoring: { scale: "product" } } } };
    const rows = [
      { status: "done", gold: "SUPPORTS", label: "REAL" }, // TRUE vs TRUE: right
      { status: "done", gold: "REFUTES", label: "REAL" }, // FALSE vs TRUE: wrong
      { status: "done", gold: "REFUTES", label: "FAKE" }, // right
      { status: "done", gold: "SUPPORTS", label: null }, // unparsed: wrong
      { status: "done", gold: "NOT ENOUGH INFO", label: "FAKE" }, // no product label: not scored
      { status: "failed", gold: "SUPPORTS", label: null }, // not finished: not scored
    ];
    const s = scoreRun(rows, zofia);
    expect(s.labels).toEqual(["TRUE", "FALSE"]);
    const m = summarize(s.labeled, s.labels);
    expect(m.n).toBe(4);
    expect(m.accuracy).toBe(0.5);
    expect(m.unparsed).toBe(1);
    // Without the matrix's choice the same rows read nothing (ZoFia's REAL / FAKE meet no SUPPORTS).
    expect(summarize(scoreRun(rows, { protocol: "zofia", config: {} }).labeled, ["REAL", "FAKE"]).n).toBe(0);
  });

  it("reads Tool-MAD's NOT ENOUGH INFO verdict as wrong and PROClaim's INCONCLUSIVE by the run's policy", () => {
    const tm = scoreRun(
      [
        { status: "done", gold: "TRUE", label: "NOT ENOUGH INFO" },
        { status: "done", gold: "FALSE", label: "REFUTES" },
      ],
      { protocol: "tool-mad", config: { "tool-mad": { labels: "fever" }, matrix: { scoring: { scale: "product" } } } },
    );
    expect(tm.labels).toEqual(["TRUE", "FALSE"]);
    expect(summarize(tm.labeled, tm.labels)).toMatchObject({ n: 2, accuracy: 0.5 });
    const pc = scoreRun([{ status: "done", gold: "REAL", label: "INCONCLUSIVE" }], {
      protocol: "proclaim",
      config: { matrix: { scoring: { scale: "product" } }, reporting: { inconclusive: "support" } },
    });
    expect(pc.labeled).toEqual([{ gold: "TRUE", predicted: "TRUE" }]);
    expect(pc.inconclusive).toMatchObject({ policy: "support", verdicts: 1 });
  });
});

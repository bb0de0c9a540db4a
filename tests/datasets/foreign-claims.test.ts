import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseClaimLine } from "@/lib/datasets/claims";
import { normaliseLabel } from "@/lib/datasets/label-schemes";
import { applyLabelMap, readLabelMap } from "@/lib/datasets/label-map";
import { validateClaimsFile, validationText } from "@/lib/datasets/validate";
import { goldOnProductScale } from "@/lib/eval/product-scale";
import { planSingleRun, unscoredMessage, unscoredOf } from "@/lib/eval/unscored";
import { planMatrix } from "@/lib/eval/matrix";

/** Public fact-checking files converted to claims JSONL, as a new user brings them: read right, or refused out loud. */

const tmpFile = (name: string, text: string) => {
  const f = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cp-foreign-")), name);
  fs.writeFileSync(f, text);
  return f;
};
const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

describe("a claims line", () => {
  it("refuses a claim of only spaces, naming the line", () => {
    expect(() => parseClaimLine(JSON.stringify({ id: "a", claim: "   " }), "f.jsonl", 4)).toThrow(
      /f\.jsonl:4: claim: blank claim/,
    );
    expect(parseClaimLine(JSON.stringify({ id: "a", claim: "  x " })).claim).toBe("x");
  });

  it("accepts a date-time without an offset, read as UTC, and one with an offset as given", () => {
    expect(parseClaimLine(JSON.stringify({ id: "a", claim: "x", date: "2020-03-01T12:00:00" })).date).toBe(
      "2020-03-01T12:00:00Z",
    );
    expect(parseClaimLine(JSON.stringify({ id: "a", claim: "x", date: "2020-03-01T12:00:00+02:00" })).date).toBe(
      "2020-03-01T12:00:00+02:00",
    );
    expect(parseClaimLine(JSON.stringify({ id: "a", claim: "x", date: "2020-03-01" })).date).toBe("2020-03-01");
    expect(() => parseClaimLine(JSON.stringify({ id: "a", claim: "x", date: "01-03-2020" }))).toThrow(
      /date: expected an ISO 8601 date/,
    );
  });

  it("reads a numeric id as a string", () => {
    expect(parseClaimLine(JSON.stringify({ id: 17, claim: "x" })).id).toBe("17");
  });
});

describe("label families, one declared table each", () => {
  it("reads PolitiFact's six labels in every spelling, barely-true as Mostly False", () => {
    for (const l of [
      "pants-fire",
      "pants on fire",
      "Pants on Fire!".replace("!", ""),
      "barely-true",
      "Mostly False",
      "false",
    ])
      expect(normaliseLabel("radar", l)).toBe("FALSE");
    for (const l of ["mostly-true", "Mostly True", "half-true"]) expect(normaliseLabel("radar", l)).toBe("HALF-TRUE");
    expect(normaliseLabel("radar", "true")).toBe("TRUE");
    expect(goldOnProductScale("barely-true")).toBe("FALSE");
  });

  it("reads SciFact / HealthVer labels, NEI named Neutral included", () => {
    expect(normaliseLabel("fever", "Neutral")).toBe("NOT ENOUGH INFO");
    expect(normaliseLabel("fever", "CONTRADICT")).toBe("REFUTES");
    expect(normaliseLabel("fever", "Supports")).toBe("SUPPORTS");
    expect(normaliseLabel("averitec", "Neutral")).toBe("Not Enough Evidence");
  });

  it("maps any other family with a label map file, keeping the file's own label", () => {
    const map = readLabelMap(
      tmpFile("m.json", JSON.stringify({ "Mostly Accurate": "TRUE", Unproven: "NOT ENOUGH INFO" })),
    );
    const [a] = applyLabelMap([{ id: "1", claim: "x", label: "mostly accurate" }], map);
    expect(a).toMatchObject({ label: "TRUE", metadata: { native_label: "mostly accurate" } });
    expect(() => readLabelMap(tmpFile("m.json", "[1]"))).toThrow(/--label-map .*expected a JSON object/);
  });
});

describe("dataset validate", () => {
  it("counts rows and labels, shows each label's reading, lists refused lines, duplicates and contradictions with line numbers", async () => {
    const f = tmpFile(
      "liar.jsonl",
      jsonl([
        { id: 1, claim: "Taxes rose.", label: "pants-fire", date: "2020-01-01T10:00:00" },
        { id: 2, claim: "Crime fell.", label: "barely-true" },
        { id: 3, claim: "Jobs grew.", label: "TURE" },
        { id: 3, claim: "Wages grew.", label: "true" },
        { id: 5, claim: "taxes  rose.", label: "true" },
        { id: 6, claim: "   ", label: "false" },
        { id: 7, claim: "Taxes rose.", label: "false" },
      ]),
    );
    const r = await validateClaimsFile(f, { scheme: "radar" });
    expect(r).toMatchObject({ rows: 7, valid: 6, numeric_ids: 6, dates_read_as_utc: [1], unscored: 1, ok: false });
    expect(r.errors).toEqual([{ line: 6, message: expect.stringMatching(/^claim: blank claim/) }]);
    expect(r.labels.find((l) => l.label === "TURE")).toMatchObject({ count: 1, reads_as: null, lines: [3] });
    expect(r.labels.find((l) => l.label === "barely-true")).toMatchObject({ reads_as: "FALSE", product: "FALSE" });
    expect(r.duplicates).toEqual([{ id: "3", lines: [3, 4] }]);
    // pants-fire and false agree; true disagrees with both.
    expect(r.contradictions).toEqual([{ claim: "Taxes rose.", labels: { FALSE: [1, 7], TRUE: [5] } }]);
    const text = validationText(r);
    expect(text).toMatch(/TURE: 1 → NO READING/);
    expect(text).toMatch(/line 6: claim: blank claim/);
    expect(text).toMatch(/1 date-time without an offset, read as UTC \(line 1\)/);
  });

  it("passes a clean file", async () => {
    const r = await validateClaimsFile(
      tmpFile(
        "ok.jsonl",
        jsonl([
          { id: "a", claim: "x", label: "SUPPORTS" },
          { id: "b", claim: "y", label: "Neutral" },
        ]),
      ),
      { scheme: "fever" },
    );
    expect(r.ok).toBe(true);
  });
});

describe("an evaluation whose claims would go unscored", () => {
  const entry = {
    protocol: "radar",
    config: { variant: "expertise" },
    models: {},
    evidence: { mode: "gold" as const },
  };

  it("is refused with the labels named and the fix, unless allowed; the count is known before the start", () => {
    const claims = [
      { id: "1", claim: "a", label: "TRUE" },
      { id: "2", claim: "b", label: "TURE" },
      { id: "3", claim: "c", label: "TURE" },
    ];
    const plan = planSingleRun({ dataset: "d", claims, entry, explicitLabels: false });
    expect(plan.unscored).toEqual([
      { protocols: ["radar"], count: 2, of: 3, byLabel: { TURE: 2 }, labels: ["TRUE", "HALF-TRUE", "FALSE"] },
    ]);
    const msg = unscoredMessage(plan.unscored);
    expect(msg).toMatch(
      /Not started: 2 claims of 3 would go unscored by RADAR: the gold label "TURE" \(2\) has no reading/,
    );
    expect(msg).toMatch(/dataset validate .*--label-map .*--allow-unscored/);
  });

  it("a single RADAR run reads SUPPORTS / REFUTES on the product scale, as the matrix does", () => {
    const claims = [
      { id: "1", claim: "a", label: "SUPPORTS" },
      { id: "2", claim: "b", label: "REFUTES" },
    ];
    const plan = planSingleRun({ dataset: "d", claims, entry, explicitLabels: false });
    expect(plan.unscored).toEqual([]);
    expect(plan.scoring).toMatchObject({ scale: "product", scored: 2 });
  });

  it("a six-way PolitiFact file is scored whole", () => {
    const claims = ["pants-fire", "barely-true", "mostly-true", "half-true", "true", "false"].map((label, i) => ({
      id: String(i),
      claim: `c${i}`,
      label,
    }));
    const plan = planSingleRun({ dataset: "liar", claims, entry, explicitLabels: false });
    expect(plan.unscored).toEqual([]);
    expect(plan.scoring.scored).toBe(6);
  });

  it("in a matrix, a claim one method cannot read is scored by the others; a label none reads stops the start", () => {
    const entries = [
      entry,
      { protocol: "tool-mad", config: {}, models: {}, evidence: { mode: "tools" as const, corpus: null } },
    ];
    const fever = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"].map((label, i) => ({
      id: String(i),
      claim: `c${i}`,
      label,
    }));
    expect(unscoredOf(planMatrix({ dataset: "d", claims: fever, entries }))).toEqual([]);
    const typo = [...fever, { id: "9", claim: "c9", label: "SUPORTS" }];
    const u = unscoredOf(planMatrix({ dataset: "d", claims: typo, entries }));
    expect(u).toMatchObject([{ protocols: ["radar", "tool-mad"], count: 1, byLabel: { SUPORTS: 1 } }]);
    expect(unscoredMessage(u)).toMatch(
      /1 claim of 4 would go unscored by any of RADAR, Tool-MAD: the gold label "SUPORTS" \(1\) has no reading in their labels/,
    );
  });
});

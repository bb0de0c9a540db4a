import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyPlatt, expectedCalibrationError, fitPlatt } from "@/lib/checkworthy/calibration";
import { readLabelledSentences } from "@/lib/checkworthy/dataset";
import { contiguousFolds, countDebates, debateFolds, namedGroupFolds } from "@/lib/checkworthy/folds";
import { weightBytes } from "@/lib/checkworthy/model-file";
import { TRAINING_GRIDS, trainFromSentences } from "@/lib/checkworthy/train-run";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/checkworthy");

describe("training the offline check-worthiness scorer", () => {
  it("is deterministic: the committed sample gives the committed weights, calibration and threshold", async () => {
    // Written by: npx tsx scripts/train-checkworthy.ts tests/fixtures/checkworthy/train-sample.jsonl --grid sample --folds 5 --out tests/fixtures/checkworthy/sample-model
    const committed = JSON.parse(fs.readFileSync(path.join(FIXTURES, "sample-model/model.json"), "utf8"));
    const sample = readLabelledSentences(path.join(FIXTURES, "train-sample.jsonl"));
    const run = await trainFromSentences(sample, { grid: TRAINING_GRIDS.sample!, folds: 5 });
    expect(createHash("sha256").update(weightBytes(run.fitted.nets)).digest("hex")).toBe(committed.weightsSha256);
    expect(run.fitted.platt).toEqual(committed.platt);
    expect(run.fitted.threshold).toBe(committed.threshold);
    expect(run.chosen.options).toEqual(committed.training.chosen);
  }, 120_000);

  it("folds whole runs of consecutive ids (whole debates), whatever the order of the file", () => {
    const ids = ["50", "3", "12", "7", "41", "1", "30", "22", "9", "60"];
    const fold = contiguousFolds(ids, 2);
    const byFold = [0, 1].map((f) => ids.filter((_, i) => fold[i] === f).map(Number));
    expect(byFold[0]!.sort((a, b) => a - b)).toEqual([1, 3, 7, 9, 12]);
    expect(byFold[1]!.sort((a, b) => a - b)).toEqual([22, 30, 41, 50, 60]);
  });

  it("finds debates where the numbering jumps and never splits one across folds", () => {
    // Three debates (ids jump by more than 20 between them) of 6, 2 and 4 sentences, in shuffled order.
    const debates = [
      [100, 101, 103, 104, 110, 111],
      [200, 202],
      [300, 301, 302, 305],
    ];
    const ids = [...debates.flat()].reverse().map(String);
    expect(countDebates(ids)).toBe(3);
    const fold = debateFolds(ids, 2);
    const foldOf = (id: number) => fold[ids.indexOf(String(id))];
    for (const d of debates) expect(new Set(d.map(foldOf)).size).toBe(1);
    // The first debate's middle falls in the first half, the other two in the second.
    expect(debates.map((d) => foldOf(d[0]!))).toEqual([0, 1, 1]);
    // contiguousFolds cuts by count: 12 sentences in 2 runs of 6, so it would have split nothing here,
    // but with 3 folds it splits the first debate.
    expect(new Set(debates[0]!.map((id) => contiguousFolds(ids, 3)[ids.indexOf(String(id))])).size).toBe(2);
    expect(new Set(debates[0]!.map((id) => debateFolds(ids, 3)[ids.indexOf(String(id))])).size).toBe(1);
    // Fewer debates than folds: runs of consecutive ids instead.
    expect(debateFolds(ids, 4)).toEqual(contiguousFolds(ids, 4));
  });

  it("holds out named groups of whole debates, and names a debate left out or placed twice", () => {
    // Four debates (first ids 100, 200, 300, 400) in shuffled order, grouped into two "elections".
    const ids = ["301", "100", "402", "200", "101", "400", "300", "202"];
    const { fold, names } = namedGroupFolds(ids, { "early (A, B)": ["100", "300"], "late (C)": ["200", "400"] });
    expect(names).toEqual(["early (A, B)", "late (C)"]);
    expect(ids.filter((_, i) => fold[i] === 0).sort()).toEqual(["100", "101", "300", "301"]);
    expect(ids.filter((_, i) => fold[i] === 1).sort()).toEqual(["200", "202", "400", "402"]);
    expect(() => namedGroupFolds(ids, { a: ["100", "300"], b: ["200"] })).toThrow(
      "these debates are in no group (the id of their first sentence): 400",
    );
    expect(() => namedGroupFolds(ids, { a: ["100", "300", "200"], b: ["200", "400"] })).toThrow(
      'the debate starting at sentence id 200 is in two groups ("a" and "b")',
    );
    // 101 is inside the first debate, not where one starts.
    expect(() => namedGroupFolds(ids, { a: ["101"], b: ["200"] })).toThrow(
      'group "a": no debate starts at sentence id 101',
    );
    expect(() => namedGroupFolds(["a1", "a2"], { a: ["1"], b: ["2"] })).toThrow("numeric sentence ids");
  });

  it("groups the training split's 33 debates by election in the committed file, each once", () => {
    const file = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, "../../models/checkworthy/elections.json"), "utf8"),
    );
    const firsts = Object.values(file.groups as Record<string, string[]>).flat();
    expect(firsts).toHaveLength(33);
    expect(new Set(firsts).size).toBe(33);
  });

  it("calibrates over-confident scores and measures how far probabilities are from frequencies", () => {
    // Raw scores three times too confident: the true log-odds are logit/3.
    const logits: number[] = [];
    const labels: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const z = ((i % 41) - 20) / 2;
      logits.push(z);
      // A deterministic stand-in for sampling: the share of positives at z follows sigmoid(z/3).
      labels.push((i * 0.6180339887) % 1 < 1 / (1 + Math.exp(-z / 3)) ? 1 : 0);
    }
    const raw = logits.map((z) => 1 / (1 + Math.exp(-z)));
    const platt = fitPlatt(logits, labels);
    expect(platt.a).toBeCloseTo(1 / 3, 1);
    const calibrated = logits.map((z) => applyPlatt(platt, z));
    expect(expectedCalibrationError(calibrated, labels)).toBeLessThan(0.03);
    expect(expectedCalibrationError(raw, labels)).toBeGreaterThan(0.05);
    expect(expectedCalibrationError([0.75, 0.75, 0.75, 0.75], [1, 1, 1, 0])).toBe(0);
    expect(expectedCalibrationError([0.9, 0.9], [0, 0])).toBeCloseTo(0.9);
  });
});

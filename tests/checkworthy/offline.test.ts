import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DatasetFileError, parseLabelledSentences } from "@/lib/checkworthy/dataset";
import { ensembleLogit, netLogit, trainNet } from "@/lib/checkworthy/classifier";
import { embedSentences, FEATURE_DIMS, sentenceVector } from "@/lib/checkworthy/encoder-features";
import { bestThreshold, countsAt, f1AtPrevalence, positiveClassScores, rocAuc } from "@/lib/checkworthy/metrics";
import { defaultModelDir, ModelFileError, readModel, writeModel } from "@/lib/checkworthy/model-file";
import { OfflineScorer, offlineScorer } from "@/lib/checkworthy/offline";

const sentence = (index: number, text: string) => ({ index, text, speaker: null, block: 0 });

describe("the classifier and its measures", () => {
  it("learns a separable problem, with or without a hidden layer, the same way every time", () => {
    const rows: Float32Array[] = [];
    const labels: number[] = [];
    for (let i = 0; i < 200; i++) {
      const yes = i % 2 === 0;
      rows.push(Float32Array.from([yes ? 1 : -1, (i % 7) / 7, ((i * 3) % 5) / 5]));
      labels.push(yes ? 1 : 0);
    }
    for (const hidden of [0, 4]) {
      const o = { hidden, epochs: 20, l2: 1e-4, learningRate: 0.01, batchSize: 16, positiveWeight: 1, seed: 1 };
      const net = trainNet(rows, labels, o);
      expect(netLogit(net, [1, 0.5, 0.5])).toBeGreaterThan(1);
      expect(netLogit(net, [-1, 0.5, 0.5])).toBeLessThan(-1);
      expect(Array.from(trainNet(rows, labels, o).w2)).toEqual(Array.from(net.w2));
    }
  });

  it("measures precision, recall and F1 of the positive class, and finds the best threshold", () => {
    const probs = [0.9, 0.8, 0.6, 0.4, 0.2];
    const labels = [1, 0, 1, 1, 0];
    expect(countsAt(probs, labels, 0.5)).toEqual({ tp: 2, fp: 1, fn: 1, tn: 1 });
    const s = positiveClassScores(countsAt(probs, labels, 0.5));
    expect(s.precision).toBeCloseTo(2 / 3);
    expect(s.recall).toBeCloseTo(2 / 3);
    expect(s.f1).toBeCloseTo(2 / 3);
    // From 0.21 to 0.40 the four highest are positive: P 3/4, R 1, F1 6/7 (at 0.20 the last one joins them).
    expect(bestThreshold(probs, labels)).toEqual({ threshold: expect.closeTo(0.21, 2), f1: expect.closeTo(6 / 7, 5) });
    // 4 of the 6 (check-worthy, not) pairs are ranked the right way round; a tie counts half.
    expect(rocAuc(probs, labels)).toBeCloseTo(4 / 6);
    expect(rocAuc([0.5, 0.5], [1, 0])).toBe(0.5);
    // The same recall (2/3) and false-positive rate (1/2) at the file's own share (3/5) and at a quarter.
    expect(f1AtPrevalence(countsAt(probs, labels, 0.5), 3 / 5)).toBeCloseTo(2 / 3);
    expect(f1AtPrevalence(countsAt(probs, labels, 0.5), 1 / 4)).toBeCloseTo(0.4211, 3);
  });
});

describe("the shipped offline scorer", () => {
  const scorer = offlineScorer();

  it("ranks checkable statements above greetings, opinions and questions, with reasons", async () => {
    const scored = await scorer.score([
      sentence(0, "Thank you all for coming tonight."),
      sentence(1, "Unemployment fell from 7.2 percent in 2019 to 4.1 percent last year."),
      sentence(2, "I think we can do better."),
      sentence(3, "What are you afraid of?"),
      sentence(4, "My opponent voted against the budget three times."),
    ]);
    const [greeting, figure, opinion, question, vote] = scored;
    for (const high of [figure!, vote!]) {
      expect(high.checkworthy).toBe(true);
      for (const low of [greeting!, opinion!, question!]) expect(high.score).toBeGreaterThan(low.score);
    }
    expect(greeting!.checkworthy || opinion!.checkworthy || question!.checkworthy).toBe(false);
    expect(figure!.reason).toMatch(/percentage/);
    expect(question!.reason).toMatch(/question/);
    expect(opinion!.reason).toMatch(/opinion/);
  });

  it("scores sentences from embeddings computed once elsewhere exactly as it scores their text", async () => {
    const sentences = [
      sentence(0, "Unemployment fell from 7.2 percent in 2019 to 4.1 percent last year."),
      sentence(1, "I think we can do better."),
    ];
    const vectors = await embedSentences(sentences.map((s) => s.text));
    expect(scorer.scoreEmbedded(sentences, vectors)).toEqual(await scorer.score(sentences));
    expect(() =>
      scorer.scoreEmbedded(sentences, { vectors: vectors.vectors.slice(0, 1), probe: vectors.probe }),
    ).toThrow(/2 sentences but 1 embeddings and 2 probes/);
  });

  it("gives calibrated probabilities: a small file whose threshold and calibration came from held-out debates", () => {
    const bytes = fs.statSync(path.join(defaultModelDir(), "weights.bin")).size;
    expect(bytes).toBeLessThanOrEqual(4 * 1024 ** 2);
    const { meta } = readModel();
    expect(meta.threshold).toBe(scorer.threshold);
    expect(scorer.threshold).toBeGreaterThan(0.1);
    expect(scorer.threshold).toBeLessThan(0.9);
    // A calibration, not the identity: fitted on out-of-fold scores of the grouped cross-validation.
    expect(meta.platt.a).not.toBe(1);
    expect(meta.training).toMatchObject({ folds: expect.stringMatching(/whole debates/) });
  });

  it("refuses a weights file that does not match its description, and a model trained on other features", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-model-"));
    try {
      const net = trainNet([new Float32Array(FEATURE_DIMS).fill(0), new Float32Array(FEATURE_DIMS).fill(1)], [0, 1], {
        hidden: 2,
        epochs: 1,
        l2: 0,
        learningRate: 0.01,
        batchSize: 2,
        positiveWeight: 1,
        seed: 3,
      });
      const lr = trainNet([new Float32Array(FEATURE_DIMS).fill(0), new Float32Array(FEATURE_DIMS).fill(1)], [0, 1], {
        hidden: 0,
        epochs: 1,
        l2: 0,
        learningRate: 0.01,
        batchSize: 2,
        positiveWeight: 1,
        seed: 4,
      });
      // An ensemble of two networks of different shapes round-trips through weights.bin, in order.
      writeModel(dir, { nets: [net, lr], platt: { a: 2, b: -1 }, threshold: 0.5 }, {});
      const loaded = readModel(dir);
      expect(loaded.nets.map((n) => n.hidden)).toEqual([2, 0]);
      expect(Array.from(loaded.nets[0]!.w1)).toEqual(Array.from(net.w1));
      expect(loaded.nets[0]!.b2).toBe(net.b2);
      expect(Array.from(loaded.nets[1]!.w2)).toEqual(Array.from(lr.w2));
      const x = new Float32Array(FEATURE_DIMS).fill(0.5);
      expect(ensembleLogit(loaded.nets, x)).toBeCloseTo((netLogit(net, x) + netLogit(lr, x)) / 2, 5);
      expect(new OfflineScorer(loaded).threshold).toBe(0.5);
      fs.writeFileSync(path.join(dir, "weights.bin"), Buffer.alloc(64, 1));
      expect(() => readModel(dir)).toThrow(ModelFileError);
      expect(() => readModel(dir)).toThrow(/does not match model.json/);
      writeModel(dir, { nets: [net], platt: { a: 2, b: -1 }, threshold: 0.5 }, {});
      const meta = JSON.parse(fs.readFileSync(path.join(dir, "model.json"), "utf8"));
      fs.writeFileSync(
        path.join(dir, "model.json"),
        JSON.stringify({ ...meta, featureVersion: meta.featureVersion + 1 }),
      );
      expect(() => readModel(dir)).toThrow(/Train it again/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads the cues of a sentence into its vector", () => {
    const { vector, cues } = sentenceVector(
      "Crime rose 30 percent in 2021.",
      new Array(384).fill(0.01),
      new Array(384).fill(0.02),
    );
    expect([...cues].sort()).toEqual(["number", "percent", "year"]);
    expect(vector).toHaveLength(FEATURE_DIMS);
    expect(vector[0]).toBeCloseTo(0.01);
    expect(vector[384]).toBeCloseTo(0.02);
    expect(() => sentenceVector("Crime rose.", new Array(384).fill(0), new Array(383).fill(0))).toThrow(
      /384-dimension probe/,
    );
  });
});

describe("labelled sentence files", () => {
  it("reads the CheckThat! .tsv as published (quoted text included) and JSON Lines", () => {
    const tsv =
      'Sentence_id\tText\tclass_label\n26\t"You know, I saw a movie - ""Crocodile Dundee."""\tNo\n80\tWe\'re consuming 50 percent of the world\'s cocaine.\tYes';
    expect(parseLabelledSentences(tsv, "dev.tsv")).toEqual([
      { id: "26", text: 'You know, I saw a movie - "Crocodile Dundee."', label: 0 },
      { id: "80", text: "We're consuming 50 percent of the world's cocaine.", label: 1 },
    ]);
    expect(parseLabelledSentences('{"id": "7", "text": "Taxes rose.", "label": 1}\n', "a.jsonl")).toEqual([
      { id: "7", text: "Taxes rose.", label: 1 },
    ]);
  });

  it("names the file and line of a bad record", () => {
    expect(() =>
      parseLabelledSentences('{"text": "ok", "label": 1}\n{"text": "x", "label": "Yes"}', "d.jsonl"),
    ).toThrow(new DatasetFileError("d.jsonl, line 2: label must be 0 or 1"));
    expect(() => parseLabelledSentences("Sentence_id\tText\tclass_label\n1\tHi.\tMaybe", "d.tsv")).toThrow(
      /d.tsv, row 2: class_label must be Yes or No/,
    );
  });
});

describe("ranking a whole text", () => {
  it("scores a full debate transcript to its end with the offline scorer, and reports what a scorer left over", async () => {
    const { rankText } = await import("@/lib/checkworthy");
    // 1,200 short turns, the length of a 90-minute debate: every one is scored, none left over.
    const lines = Array.from({ length: 1_200 }, (_, i) =>
      i % 3 === 0
        ? `SMITH: Unemployment fell to ${3 + (i % 5)} percent in ${1990 + (i % 30)}.`
        : `JONES: Thank you, ${i}.`,
    );
    const full = await rankText(lines.join("\n"), offlineScorer());
    expect(full.leftOver).toBe(0);
    expect(full.sentences).toHaveLength(1_200);
    expect(full.sentences[1_197]).toMatchObject({ speaker: "SMITH", checkworthy: true });
    expect(full.sentences[1_199]!.checkworthy).toBe(false);

    // A scorer that reads fewer (the language-model one reads 600) scores the first ones and counts the rest.
    const offline = offlineScorer();
    const short = {
      name: offline.name,
      threshold: offline.threshold,
      maxSentences: 100,
      score: offline.score.bind(offline),
    };
    const cut = await rankText(lines.join("\n"), short);
    expect(cut.sentences.map((s) => s.index)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(cut.leftOver).toBe(1_100);
  });
});

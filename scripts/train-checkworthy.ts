/**
 * Trains the offline check-worthiness scorer (lib/checkworthy/offline.ts) and writes
 * models/checkworthy/{model.json,weights.bin}.
 *
 *   npx tsx scripts/train-checkworthy.ts <train file> <dev file> [--out models/checkworthy]
 *
 * Files: JSON Lines {"text", "label": 0|1} or the CLEF CheckThat! 2024 Task 1 .tsv files as
 * published (`npx counterpoint dataset download checkworthiness` installs them). The script tries
 * a small grid of settings, keeps the one with the best positive-class F1 on the dev file (with its
 * best threshold), and prints every row it tried. Deterministic: the same files give the same weights.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { readLabelledSentences } from "@/lib/checkworthy/dataset";
import { extractFeatures } from "@/lib/checkworthy/features";
import { bestThreshold, countsAt, positiveClassScores, predict, train } from "@/lib/checkworthy/logistic";
import { writeModel } from "@/lib/checkworthy/model-file";

const DIMS = 1 << 18;

function usage(): never {
  console.error("usage: npx tsx scripts/train-checkworthy.ts <train file> <dev file> [--out <folder>]");
  process.exit(2);
}

const args = process.argv.slice(2);
const outAt = args.indexOf("--out");
const out = outAt >= 0 ? args[outAt + 1] : path.join(process.cwd(), "models", "checkworthy");
const files = outAt >= 0 ? args.filter((_, i) => i !== outAt && i !== outAt + 1) : args;
if (files.length !== 2 || !out) usage();
const [trainFile, devFile] = files as [string, string];

const sha = (f: string) => createHash("sha256").update(fs.readFileSync(f)).digest("hex");
const t0 = performance.now();
const trainSet = readLabelledSentences(trainFile);
const devSet = readLabelledSentences(devFile);
const trainRows = trainSet.map((s) => extractFeatures(s.text, DIMS));
const devRows = devSet.map((s) => extractFeatures(s.text, DIMS));
const trainLabels = trainSet.map((s) => s.label);
const devLabels = devSet.map((s) => s.label);
console.log(
  `features: ${trainSet.length} training and ${devSet.length} dev sentences in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
);

type Row = { epochs: number; l2: number; positiveWeight: number; threshold: number; f1: number };
const grid: Row[] = [];
let best: { row: Row; model: ReturnType<typeof train> } | null = null;
for (const epochs of [4, 8])
  for (const l2 of [1e-6, 1e-5])
    for (const positiveWeight of [1, 2]) {
      const model = train(trainRows, trainLabels, {
        dims: DIMS,
        epochs,
        l2,
        learningRate: 0.2,
        positiveWeight,
        seed: 7,
      });
      const probs = devRows.map((r) => predict(model, r));
      const { threshold, f1 } = bestThreshold(probs, devLabels);
      const row = { epochs, l2, positiveWeight, threshold, f1 };
      grid.push(row);
      console.log(
        `epochs ${epochs}  l2 ${l2}  positive weight ${positiveWeight}  → dev F1 ${f1.toFixed(3)} at ${threshold}`,
      );
      if (!best || f1 > best.row.f1) best = { row, model };
    }
const chosen = best!;
const devScores = positiveClassScores(
  countsAt(
    devRows.map((r) => predict(chosen.model, r)),
    devLabels,
    chosen.row.threshold,
  ),
);
const meta = writeModel(out, chosen.model, {
  threshold: chosen.row.threshold,
  training: {
    command: `npx tsx scripts/train-checkworthy.ts ${path.basename(trainFile)} ${path.basename(devFile)}`,
    trainFile: {
      name: path.basename(trainFile),
      sentences: trainSet.length,
      positive: trainLabels.filter((y) => y === 1).length,
      sha256: sha(trainFile),
    },
    devFile: {
      name: path.basename(devFile),
      sentences: devSet.length,
      positive: devLabels.filter((y) => y === 1).length,
      sha256: sha(devFile),
    },
    chosen: {
      epochs: chosen.row.epochs,
      l2: chosen.row.l2,
      positiveWeight: chosen.row.positiveWeight,
      learningRate: 0.2,
      seed: 7,
    },
    dev: {
      precision: +devScores.precision.toFixed(4),
      recall: +devScores.recall.toFixed(4),
      f1: +devScores.f1.toFixed(4),
    },
  },
});
console.log(
  `chosen: epochs ${chosen.row.epochs}, l2 ${chosen.row.l2}, positive weight ${chosen.row.positiveWeight}, threshold ${meta.threshold}; dev P ${devScores.precision.toFixed(3)} R ${devScores.recall.toFixed(3)} F1 ${devScores.f1.toFixed(3)}`,
);
console.log(
  `wrote ${out}/model.json and weights.bin (${(meta.dims * 4) / 1024 ** 2} MB) in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
);

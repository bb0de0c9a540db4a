/**
 * Trains the offline check-worthiness scorer (lib/checkworthy/offline.ts) and writes
 * models/checkworthy/{model.json,weights.bin}.
 *
 *   npx tsx scripts/train-checkworthy.ts <train file> [--report <file>]... [--out <folder>]
 *                                        [--folds 10] [--grid full|sample] [--cache <folder>]
 *                                        [--groups <file.json>]
 *
 * Files: JSON Lines {"id", "text", "label": 0|1} or the CLEF CheckThat! 2024 Task 1 .tsv files as
 * published (`npx counterpoint dataset download checkworthiness` installs them). Every setting of
 * the grid is measured by grouped cross-validation on the training file (folds of whole debates,
 * found where the sentence ids jump: lib/checkworthy/folds.ts); the best pooled out-of-fold F1 is
 * trained on the whole file, calibrated and thresholded on its out-of-fold scores. `--report`
 * files (dev, dev-test) are only measured, never used to choose or fit anything. Deterministic: the
 * same file and grid give the same weights. Embeddings are cached by the file's checksum under
 * `--cache` (default .data/cache/checkworthy), so a second run skips the encoder. `--groups` names
 * groups of debates (models/checkworthy/elections.json: the election each debate belongs to); the
 * chosen setting is then measured once more holding out one whole group at a time, a harder test
 * of debates from years the model never saw. That report chooses nothing either.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { applyPlatt } from "@/lib/checkworthy/calibration";
import { ensembleLogit, type NetOptions } from "@/lib/checkworthy/classifier";
import { type LabelledSentence, readLabelledSentences } from "@/lib/checkworthy/dataset";
import {
  ENCODER_DIM,
  embedSentences,
  PROBE_LAYER,
  SENTENCE_ENCODER,
  type SentenceEmbeddings,
  sentenceVector,
} from "@/lib/checkworthy/encoder-features";
import { writeModel } from "@/lib/checkworthy/model-file";
import { TRAINING_GRIDS as GRIDS, trainFromSentences } from "@/lib/checkworthy/train-run";
import { countDebates } from "@/lib/checkworthy/folds";
import { countsAt, f1AtPrevalence } from "@/lib/checkworthy/metrics";
import { scoresAt } from "@/lib/checkworthy/training";

function usage(problem: string): never {
  console.error(
    `${problem}\nusage: npx tsx scripts/train-checkworthy.ts <train file> [--report <file>]... [--out <folder>] [--folds 10] [--grid ${Object.keys(GRIDS).join("|")}] [--cache <folder>] [--groups <file.json>]`,
  );
  process.exit(2);
}

const args = process.argv.slice(2);
const files: string[] = [];
const reports: string[] = [];
let out = path.join(process.cwd(), "models", "checkworthy");
let cacheDir = path.join(process.cwd(), ".data", "cache", "checkworthy");
let folds = 10;
let gridName = "full";
let groupsFile: string | undefined;
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  const value = () => args[++i] ?? usage(`${a} needs a value`);
  if (a === "--report") reports.push(value());
  else if (a === "--out") out = value();
  else if (a === "--cache") cacheDir = value();
  else if (a === "--folds") folds = Number(value());
  else if (a === "--grid") gridName = value();
  else if (a === "--groups") groupsFile = value();
  else if (a.startsWith("--")) usage(`unknown option ${a}`);
  else files.push(a);
}
if (files.length !== 1) usage("give exactly one training file");
if (!Number.isInteger(folds) || folds < 2) usage(`--folds must be a whole number of at least 2, not ${folds}`);
const grid = GRIDS[gridName] ?? usage(`--grid must be one of ${Object.keys(GRIDS).join(", ")}, not ${gridName}`);
const trainFile = files[0]!;

/** `--groups`: `{"groups": {"<name>": ["<id of a debate's first sentence>", ...], ...}}`, anything else beside. */
const GroupsFile = z.object({
  groups: z.record(z.string().min(1), z.array(z.string().regex(/^\d+$/, "a sentence id (digits)"))),
});

function readGroups(file: string): Record<string, string[]> {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    usage(`--groups ${file}: ${(e as Error).message}`);
  }
  const parsed = GroupsFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    usage(`--groups ${file}: at ${issue.path.join(".") || "the top"}: ${issue.message}`);
  }
  return parsed.data.groups;
}
const groups = groupsFile ? readGroups(groupsFile) : undefined;

const sha = (f: string) => createHash("sha256").update(fs.readFileSync(f)).digest("hex");

/**
 * The encoder's vectors and probes of a file's sentences, from the cache when this file was
 * embedded before (one file: every sentence's vector, then every sentence's probe).
 */
async function embeddingsOf(file: string, rows: readonly LabelledSentence[]): Promise<SentenceEmbeddings> {
  const cached = path.join(
    cacheDir,
    `${sha(file)}.${SENTENCE_ENCODER.replace(/[^a-z0-9-]/gi, "_")}.probe${PROBE_LAYER}.f32`,
  );
  const n = rows.length * ENCODER_DIM;
  const all = new Float32Array(2 * n);
  const split = (): SentenceEmbeddings => ({
    vectors: rows.map((_, i) => all.subarray(i * ENCODER_DIM, (i + 1) * ENCODER_DIM)),
    probe: rows.map((_, i) => all.subarray(n + i * ENCODER_DIM, n + (i + 1) * ENCODER_DIM)),
  });
  if (fs.existsSync(cached)) {
    const b = fs.readFileSync(cached);
    if (b.length === all.byteLength) {
      new Uint8Array(all.buffer).set(b);
      return split();
    }
  }
  const t0 = performance.now();
  for (let at = 0; at < rows.length; at += 256) {
    const part = await embedSentences(rows.slice(at, at + 256).map((r) => r.text));
    part.vectors.forEach((v, j) => all.set(v, (at + j) * ENCODER_DIM));
    part.probe.forEach((v, j) => all.set(v, n + (at + j) * ENCODER_DIM));
    process.stderr.write(`\r${path.basename(file)}: ${at + part.vectors.length}/${rows.length} sentences embedded`);
  }
  process.stderr.write(` in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(cached, Buffer.from(all.buffer));
  return split();
}

/** "hidden 16, epochs 8, l2 0.0001", or the members of an ensemble joined by " + ". */
function setting(members: readonly NetOptions[]): string {
  return members.map((o) => `hidden ${o.hidden}, epochs ${o.epochs}, l2 ${o.l2}`).join(" + ");
}

function describe(name: string, rows: readonly LabelledSentence[], file: string) {
  return { name, sentences: rows.length, positive: rows.filter((r) => r.label === 1).length, sha256: sha(file) };
}

async function main() {
  const t0 = performance.now();
  const trainSet = readLabelledSentences(trainFile);
  const run = await trainFromSentences(trainSet, {
    grid,
    folds,
    embeddings: await embeddingsOf(trainFile, trainSet),
    groups,
    onTried: (cv) =>
      console.log(
        `${setting(cv.options)}  → grouped CV F1 ${cv.pooled.f1} (P ${cv.pooled.precision} R ${cv.pooled.recall}, folds ${cv.folds.map((f) => f.f1).join(" ")}), ECE ${cv.pooled.ece}, AUC ${cv.pooled.auc}`,
      ),
  });
  const { fitted, chosen, byGroup } = run;
  if (byGroup) {
    console.log(
      `chosen setting, one group of ${path.basename(groupsFile!)} held out at a time → F1 ${byGroup.pooled.f1} (P ${byGroup.pooled.precision} R ${byGroup.pooled.recall}), ECE ${byGroup.pooled.ece}, AUC ${byGroup.pooled.auc}; ${byGroup.names.map((name, g) => `${name} ${byGroup.folds[g]!.f1}`).join(", ")}`,
    );
  }
  const trainShare = trainSet.filter((r) => r.label === 1).length / trainSet.length;
  const measured: Record<string, unknown> = {};
  for (const file of reports) {
    const rows = readLabelledSentences(file);
    const emb = await embeddingsOf(file, rows);
    const probs = rows.map((r, i) =>
      applyPlatt(
        fitted.platt,
        ensembleLogit(fitted.nets, sentenceVector(r.text, emb.vectors[i]!, emb.probe[i]!).vector),
      ),
    );
    const labels = rows.map((r) => r.label);
    const s = scoresAt(probs, labels, fitted.threshold);
    // The same recall and false-positive rate at the training file's share of check-worthy sentences.
    const f1AtTrainShare =
      Math.round(f1AtPrevalence(countsAt(probs, labels, fitted.threshold), trainShare) * 10000) / 10000;
    measured[path.basename(file)] = { ...describe(path.basename(file), rows, file), ...s, f1AtTrainShare };
    console.log(
      `${path.basename(file)}: P ${s.precision} R ${s.recall} F1 ${s.f1} at ${s.threshold}, ECE ${s.ece}, AUC ${s.auc}, F1 at the training file's share of check-worthy ${f1AtTrainShare}`,
    );
  }
  const meta = writeModel(out, fitted, {
    command: `npx tsx scripts/train-checkworthy.ts ${path.basename(trainFile)}${reports.map((r) => ` --report ${path.basename(r)}`).join("")}${gridName === "full" ? "" : ` --grid ${gridName}`}${folds === 10 ? "" : ` --folds ${folds}`}${groupsFile ? ` --groups ${path.relative(process.cwd(), groupsFile)}` : ""}`,
    trainFile: describe(path.basename(trainFile), trainSet, trainFile),
    folds: `${folds} folds of whole debates (${countDebates(trainSet.map((r) => r.id))} debates found where consecutive sentence ids jump; lib/checkworthy/folds.ts)`,
    chosen: chosen.options,
    groupedCv: { ...chosen.pooled, folds: chosen.folds },
    ...(byGroup
      ? {
          heldOutByGroup: {
            groups: `${path.basename(groupsFile!)}: ${byGroup.names.length} groups of whole debates, one held out at a time (the chosen setting; chose nothing)`,
            ...byGroup.pooled,
            each: Object.fromEntries(byGroup.names.map((name, g) => [name, byGroup.folds[g]])),
          },
        }
      : {}),
    tried: run.tried.map((cv) => ({ options: cv.options, groupedCv: cv.pooled })),
    measured,
  });
  console.log(
    `chosen: ${setting(chosen.options)}; threshold ${meta.threshold}; grouped CV P ${chosen.pooled.precision} R ${chosen.pooled.recall} F1 ${chosen.pooled.f1} ECE ${chosen.pooled.ece}`,
  );
  console.log(
    `wrote ${out}/model.json and weights.bin (${(fs.statSync(path.join(out, "weights.bin")).size / 1024).toFixed(0)} KB, sha256 ${meta.weightsSha256.slice(0, 12)}…) in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  // The encoder's worker thread would keep the process alive.
  process.exit(0);
}

main().catch((e) => {
  console.error((e as Error).message);
  process.exit(1);
});

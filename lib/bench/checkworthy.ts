import { readLabelledSentences } from "@/lib/checkworthy/dataset";
import { countsAt, positiveClassScores } from "@/lib/checkworthy/logistic";
import type { CheckworthyScorer } from "@/lib/checkworthy/types";

/**
 * `bench checkworthy`: precision, recall and F1 of the positive class (the measure of CLEF
 * CheckThat! Task 1) of one scorer on a labelled file, beside what labelling every sentence
 * check-worthy would get.
 */

export type CheckworthyBenchReport = {
  data: string;
  scorer: string;
  model: string | null;
  sentences: number;
  positives: number;
  threshold: number;
  precision: number;
  recall: number;
  f1: number;
  counts: { tp: number; fp: number; fn: number; tn: number };
  all_positive_f1: number;
  seconds: number;
};

const r3 = (x: number) => Math.round(x * 1000) / 1000;

export async function benchCheckworthy(
  file: string,
  scorer: CheckworthyScorer,
  opts: { limit?: number; model?: string | null; onProgress?: (done: number, total: number) => void } = {},
): Promise<CheckworthyBenchReport> {
  const rows = readLabelledSentences(file).slice(0, opts.limit);
  const started = performance.now();
  const probs: number[] = [];
  const chunk = 100;
  for (let at = 0; at < rows.length; at += chunk) {
    const part = rows.slice(at, at + chunk).map((r, i) => ({ index: at + i, text: r.text, speaker: null, block: 0 }));
    for (const s of await scorer.score(part)) probs.push(s.score);
    opts.onProgress?.(Math.min(rows.length, at + chunk), rows.length);
  }
  const labels = rows.map((r) => r.label);
  const counts = countsAt(probs, labels, scorer.threshold);
  const s = positiveClassScores(counts);
  const allPositive = positiveClassScores(
    countsAt(
      probs.map(() => 1),
      labels,
      0.5,
    ),
  );
  return {
    data: file,
    scorer: scorer.name,
    model: opts.model ?? null,
    sentences: rows.length,
    positives: labels.filter((y) => y === 1).length,
    threshold: scorer.threshold,
    precision: r3(s.precision),
    recall: r3(s.recall),
    f1: r3(s.f1),
    counts,
    all_positive_f1: r3(allPositive.f1),
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

export function checkworthyBenchText(r: CheckworthyBenchReport): string {
  return [
    `| scorer | sentences (check-worthy) | threshold | precision | recall | F1 | all positive F1 |`,
    `|---|---|---|---|---|---|---|`,
    `| ${r.scorer}${r.model ? ` (${r.model})` : ""} | ${r.sentences} (${r.positives}) | ${r.threshold} | ${r.precision} | ${r.recall} | **${r.f1}** | ${r.all_positive_f1} |`,
    "",
    `${r.data}: ${r.counts.tp} found, ${r.counts.fp} false alarms, ${r.counts.fn} missed, in ${r.seconds} s`,
  ].join("\n");
}

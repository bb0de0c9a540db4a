import { rankText } from "@/lib/checkworthy";
import { expectedCalibrationError } from "@/lib/checkworthy/calibration";
import { readLabelledSentences } from "@/lib/checkworthy/dataset";
import { countsAt, positiveClassScores, rocAuc } from "@/lib/checkworthy/metrics";
import type { CheckworthyScorer } from "@/lib/checkworthy/types";

/**
 * `bench checkworthy`: precision, recall and F1 of the positive class (the measure of CLEF
 * CheckThat! Task 1) of one scorer on a labelled file at its own threshold, beside what labelling
 * every sentence check-worthy would get; the expected calibration error of its scores; and its
 * speed: time per sentence over the whole file (scored 100 at a time), the 95th percentile of
 * scoring one sentence alone, and ranking a 30-sentence transcript (split and scored) made of the
 * file's first 30 sentences.
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
  /** Expected calibration error, 10 equal-width bins: 0 when a score of 0.7 means 70 %. */
  ece: number;
  /** Area under the ROC curve: how well the scores rank, whatever the share of check-worthy sentences (F1 moves with it). */
  auc: number;
  counts: { tp: number; fp: number; fn: number; tn: number };
  all_positive_f1: number;
  seconds: number;
  ms_per_sentence: number;
  /** Scoring one sentence alone (one call each), over `latency_sentences` of them. */
  latency_sentences: number;
  p50_ms_per_sentence: number | null;
  p95_ms_per_sentence: number | null;
  /** Splitting and scoring a 30-sentence transcript; null when the file has fewer sentences. */
  transcript_30_seconds: number | null;
};

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const r1 = (x: number) => Math.round(x * 10) / 10;

function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

export async function benchCheckworthy(
  file: string,
  scorer: CheckworthyScorer,
  opts: {
    limit?: number;
    model?: string | null;
    /** Sentences scored one at a time for the latency percentiles (default 100; 0 skips). */
    latencySentences?: number;
    onProgress?: (done: number, total: number) => void;
  } = {},
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
  const seconds = (performance.now() - started) / 1000;
  // After the whole-file pass, so the encoder has loaded: these measure scoring, not start-up.
  const latency: number[] = [];
  for (const [i, r] of rows.slice(0, opts.latencySentences ?? 100).entries()) {
    const t = performance.now();
    await scorer.score([{ index: i, text: r.text, speaker: null, block: 0 }]);
    latency.push(performance.now() - t);
  }
  latency.sort((a, b) => a - b);
  let transcript: number | null = null;
  if (rows.length >= 30) {
    const text = rows
      .slice(0, 30)
      .map((r, i) => `${i % 2 ? "SECOND SPEAKER" : "FIRST SPEAKER"}: ${r.text}`)
      .join("\n");
    const t = performance.now();
    await rankText(text, scorer);
    transcript = (performance.now() - t) / 1000;
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
    ece: r3(expectedCalibrationError(probs, labels)),
    auc: r3(rocAuc(probs, labels)),
    counts,
    all_positive_f1: r3(allPositive.f1),
    seconds: r1(seconds),
    ms_per_sentence: rows.length ? r1((seconds * 1000) / rows.length) : 0,
    latency_sentences: latency.length,
    p50_ms_per_sentence: latency.length ? r1(percentile(latency, 0.5)) : null,
    p95_ms_per_sentence: latency.length ? r1(percentile(latency, 0.95)) : null,
    transcript_30_seconds: transcript === null ? null : Math.round(transcript * 100) / 100,
  };
}

export function checkworthyBenchText(r: CheckworthyBenchReport): string {
  const ms = (x: number | null) => (x === null ? "–" : `${x} ms`);
  return [
    `| scorer | sentences (check-worthy) | threshold | precision | recall | F1 | ECE | AUC | all positive F1 |`,
    `|---|---|---|---|---|---|---|---|---|`,
    `| ${r.scorer}${r.model ? ` (${r.model})` : ""} | ${r.sentences} (${r.positives}) | ${r.threshold} | ${r.precision} | ${r.recall} | **${r.f1}** | ${r.ece} | ${r.auc} | ${r.all_positive_f1} |`,
    "",
    `${r.data}: ${r.counts.tp} found, ${r.counts.fp} false alarms, ${r.counts.fn} missed, in ${r.seconds} s (${r.ms_per_sentence} ms per sentence)`,
    `speed: one sentence alone p50 ${ms(r.p50_ms_per_sentence)}, p95 ${ms(r.p95_ms_per_sentence)} (${r.latency_sentences} sentences); a 30-sentence transcript ranked in ${r.transcript_30_seconds === null ? "– (fewer than 30 sentences)" : `${r.transcript_30_seconds} s`}`,
  ].join("\n");
}

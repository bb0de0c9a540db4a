import binomialCdf from "@stdlib/stats-base-dists-binomial-cdf";
import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from "pure-rand";

/**
 * Classification metrics for evaluation runs, with percentile-bootstrap confidence intervals and
 * paired tests between two runs.
 *
 * Conventions (they change numbers, so they are fixed here and shown in reports):
 * - Only items whose gold label is in the label set are scored. Others (e.g. AVeriTeC's "Not
 *   Enough Evidence" in a 3-way evaluation) are counted under `excluded` with what was predicted.
 * - An unparsed verdict is never a class: it is a miss in accuracy and in its gold class's recall,
 *   a false positive for no class, and has its own column in the confusion matrix. `accuracy_parsed`
 *   leaves those items out, for comparison with papers that drop them.
 * - Precision is null when nothing was predicted as the class, recall when the class has no gold
 *   items. F1 is 0 when either is 0 or null while the class occurs at all, and null when the class
 *   neither occurs nor is predicted; macro-F1 averages the non-null F1s.
 */

export const UNPARSED = "UNPARSED";

export type LabeledItem = { gold: string; predicted: string | null };

export type ClassMetrics = {
  precision: number | null;
  recall: number | null;
  f1: number | null;
  support: number;
  predicted: number;
};

export type Summary = {
  n: number;
  correct: number;
  unparsed: number;
  accuracy: number | null;
  accuracy_parsed: number | null;
  macro_f1: number | null;
  per_class: Record<string, ClassMetrics>;
  /** confusion[gold][predicted], predicted including the UNPARSED column. */
  confusion: Record<string, Record<string, number>>;
};

const isUnparsed = (p: string | null) => p === null || p === UNPARSED;

export function summarize(items: readonly LabeledItem[], labels: readonly string[]): Summary {
  const inScheme = new Set(labels);
  const confusion: Record<string, Record<string, number>> = {};
  for (const g of labels) confusion[g] = Object.fromEntries([...labels, UNPARSED].map((p) => [p, 0]));
  let n = 0;
  let correct = 0;
  let unparsed = 0;
  for (const it of items) {
    if (!inScheme.has(it.gold)) continue;
    n++;
    // A prediction outside the label set cannot be credited to a class either; it counts as unparsed.
    const pred = isUnparsed(it.predicted) || !inScheme.has(it.predicted!) ? UNPARSED : it.predicted!;
    confusion[it.gold]![pred]!++;
    if (pred === UNPARSED) unparsed++;
    else if (pred === it.gold) correct++;
  }
  const per_class: Record<string, ClassMetrics> = {};
  const f1s: number[] = [];
  for (const c of labels) {
    const tp = confusion[c]![c]!;
    const support = labels.reduce((a, p) => a + confusion[c]![p]!, 0) + confusion[c]![UNPARSED]!;
    const predicted = labels.reduce((a, g) => a + confusion[g]![c]!, 0);
    const precision = predicted > 0 ? tp / predicted : null;
    const recall = support > 0 ? tp / support : null;
    let f1: number | null;
    if (support === 0 && predicted === 0) f1 = null;
    else if (!precision || !recall) f1 = 0;
    else f1 = (2 * precision * recall) / (precision + recall);
    if (f1 !== null) f1s.push(f1);
    per_class[c] = { precision, recall, f1, support, predicted };
  }
  return {
    n,
    correct,
    unparsed,
    accuracy: n > 0 ? correct / n : null,
    accuracy_parsed: n - unparsed > 0 ? correct / (n - unparsed) : null,
    macro_f1: f1s.length ? f1s.reduce((a, b) => a + b, 0) / f1s.length : null,
    per_class,
    confusion,
  };
}

/** Items whose gold label is outside the scheme, by gold label and prediction. */
export function excludedItems(items: readonly LabeledItem[], labels: readonly string[]) {
  const inScheme = new Set(labels);
  const out: Record<string, Record<string, number>> = {};
  for (const it of items) {
    if (inScheme.has(it.gold)) continue;
    const row = (out[it.gold] ??= {});
    const p = isUnparsed(it.predicted) ? UNPARSED : it.predicted!;
    row[p] = (row[p] ?? 0) + 1;
  }
  return out;
}

// --- bootstrap -----------------------------------------------------------------------------

export type Interval = { low: number; high: number };
export type WithCI = { value: number | null; ci: Interval | null };

/** Linear-interpolation quantile (type 7, as R and numpy default) of sorted values. */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

function interval(samples: number[], level: number): Interval | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const alpha = (1 - level) / 2;
  return { low: quantileSorted(sorted, alpha), high: quantileSorted(sorted, 1 - alpha) };
}

export function rng(seed: number): RandomGenerator {
  return xoroshiro128plus(seed);
}

/** Indices of one resample with replacement. */
function resample(n: number, g: RandomGenerator): number[] {
  const idx = new Array<number>(n);
  for (let i = 0; i < n; i++) idx[i] = unsafeUniformIntDistribution(0, n - 1, g);
  return idx;
}

export type BootstrapOptions = { resamples?: number; seed?: number; level?: number };

export type SummaryWithCI = {
  n: number;
  unparsed: number;
  accuracy: WithCI;
  accuracy_parsed: WithCI;
  macro_f1: WithCI;
  per_class: Record<string, { precision: WithCI; recall: WithCI; f1: WithCI; support: number; predicted: number }>;
  confusion: Record<string, Record<string, WithCI>>;
  bootstrap: { resamples: number; seed: number; level: number; method: "percentile" };
};

/**
 * Every metric of `summarize` with a percentile-bootstrap interval over claims: one resample draws
 * n scored claims with replacement and recomputes everything, so the intervals of different
 * metrics come from the same resamples. A metric undefined in a resample (e.g. precision of a
 * class nothing was predicted as) is left out of that metric's distribution.
 */
export function summarizeWithCI(
  items: readonly LabeledItem[],
  labels: readonly string[],
  opts: BootstrapOptions = {},
): SummaryWithCI {
  const resamples = opts.resamples ?? 1000;
  const seed = opts.seed ?? 1;
  const level = opts.level ?? 0.95;
  const scored = items.filter((it) => labels.includes(it.gold));
  const point = summarize(scored, labels);
  const g = rng(seed);
  const acc: number[] = [];
  const accP: number[] = [];
  const mf1: number[] = [];
  const cls: Record<string, { p: number[]; r: number[]; f: number[] }> = Object.fromEntries(
    labels.map((l) => [l, { p: [], r: [], f: [] }]),
  );
  const cells: Record<string, Record<string, number[]>> = Object.fromEntries(
    labels.map((gl) => [gl, Object.fromEntries([...labels, UNPARSED].map((p) => [p, [] as number[]]))]),
  );
  const push = (arr: number[], v: number | null) => {
    if (v !== null) arr.push(v);
  };
  if (scored.length > 0) {
    for (let b = 0; b < resamples; b++) {
      const s = summarize(
        resample(scored.length, g).map((i) => scored[i]!),
        labels,
      );
      push(acc, s.accuracy);
      push(accP, s.accuracy_parsed);
      push(mf1, s.macro_f1);
      for (const l of labels) {
        push(cls[l]!.p, s.per_class[l]!.precision);
        push(cls[l]!.r, s.per_class[l]!.recall);
        push(cls[l]!.f, s.per_class[l]!.f1);
        for (const p of [...labels, UNPARSED]) cells[l]![p]!.push(s.confusion[l]![p]!);
      }
    }
  }
  const w = (value: number | null, samples: number[]): WithCI => ({
    value,
    ci: value === null ? null : interval(samples, level),
  });
  return {
    n: point.n,
    unparsed: point.unparsed,
    accuracy: w(point.accuracy, acc),
    accuracy_parsed: w(point.accuracy_parsed, accP),
    macro_f1: w(point.macro_f1, mf1),
    per_class: Object.fromEntries(
      labels.map((l) => {
        const c = point.per_class[l]!;
        return [
          l,
          {
            precision: w(c.precision, cls[l]!.p),
            recall: w(c.recall, cls[l]!.r),
            f1: w(c.f1, cls[l]!.f),
            support: c.support,
            predicted: c.predicted,
          },
        ];
      }),
    ),
    confusion: Object.fromEntries(
      labels.map((gl) => [
        gl,
        Object.fromEntries([...labels, UNPARSED].map((p) => [p, w(point.confusion[gl]![p]!, cells[gl]![p]!)])),
      ]),
    ),
    bootstrap: { resamples, seed, level, method: "percentile" },
  };
}

// --- paired comparison ---------------------------------------------------------------------

export type PairedItem = { gold: string; a: string | null; b: string | null };

export type PairedComparison = {
  n: number;
  accuracy_a: number | null;
  accuracy_b: number | null;
  macro_f1_a: number | null;
  macro_f1_b: number | null;
  /** Claims only A got right, only B got right. */
  only_a_correct: number;
  only_b_correct: number;
  mcnemar: { statistic: "exact-binomial"; p_value: number };
  /** A minus B, with a paired-bootstrap interval and two-sided p-value. */
  accuracy_diff: WithCI & { p_value: number | null };
  macro_f1_diff: WithCI & { p_value: number | null };
  bootstrap: { resamples: number; seed: number; level: number };
};

/**
 * McNemar's exact test: under "both systems are equally accurate", the claims exactly one of them
 * gets right split 50/50, so the two-sided p-value is twice the binomial tail of the smaller count.
 */
export function mcnemarExact(onlyA: number, onlyB: number): number {
  const n = onlyA + onlyB;
  if (n === 0) return 1;
  return Math.min(1, 2 * binomialCdf(Math.min(onlyA, onlyB), n, 0.5));
}

/** Two-sided bootstrap p-value for "difference = 0": twice the smaller share of resamples on one side of 0. */
function bootstrapP(samples: number[]): number | null {
  if (samples.length === 0) return null;
  const le = samples.filter((d) => d <= 0).length / samples.length;
  const ge = samples.filter((d) => d >= 0).length / samples.length;
  return Math.min(1, 2 * Math.min(le, ge));
}

export function comparePaired(
  items: readonly PairedItem[],
  labels: readonly string[],
  opts: BootstrapOptions = {},
): PairedComparison {
  const resamples = opts.resamples ?? 1000;
  const seed = opts.seed ?? 1;
  const level = opts.level ?? 0.95;
  const scored = items.filter((it) => labels.includes(it.gold));
  const sa = (xs: readonly PairedItem[]) =>
    summarize(
      xs.map((x) => ({ gold: x.gold, predicted: x.a })),
      labels,
    );
  const sb = (xs: readonly PairedItem[]) =>
    summarize(
      xs.map((x) => ({ gold: x.gold, predicted: x.b })),
      labels,
    );
  const A = sa(scored);
  const B = sb(scored);
  let onlyA = 0;
  let onlyB = 0;
  for (const it of scored) {
    const ca = it.a === it.gold;
    const cb = it.b === it.gold;
    if (ca && !cb) onlyA++;
    if (cb && !ca) onlyB++;
  }
  const g = rng(seed);
  const dAcc: number[] = [];
  const dF1: number[] = [];
  if (scored.length) {
    for (let r = 0; r < resamples; r++) {
      const xs = resample(scored.length, g).map((i) => scored[i]!);
      const a = sa(xs);
      const b = sb(xs);
      if (a.accuracy !== null && b.accuracy !== null) dAcc.push(a.accuracy - b.accuracy);
      if (a.macro_f1 !== null && b.macro_f1 !== null) dF1.push(a.macro_f1 - b.macro_f1);
    }
  }
  const diff = (x: number | null, y: number | null, samples: number[]) => {
    const value = x === null || y === null ? null : x - y;
    return {
      value,
      ci: value === null ? null : interval(samples, level),
      p_value: value === null ? null : bootstrapP(samples),
    };
  };
  return {
    n: scored.length,
    accuracy_a: A.accuracy,
    accuracy_b: B.accuracy,
    macro_f1_a: A.macro_f1,
    macro_f1_b: B.macro_f1,
    only_a_correct: onlyA,
    only_b_correct: onlyB,
    mcnemar: { statistic: "exact-binomial", p_value: mcnemarExact(onlyA, onlyB) },
    accuracy_diff: diff(A.accuracy, B.accuracy, dAcc),
    macro_f1_diff: diff(A.macro_f1, B.macro_f1, dF1),
    bootstrap: { resamples, seed, level },
  };
}

// --- cost ----------------------------------------------------------------------------------

/** Smallest and largest of a list (null when empty); a loop, because Math.min(...xs) overflows the stack on long lists. */
export function extent(values: Iterable<number>): { min: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min === Infinity ? null : { min, max };
}

export type Distribution = { n: number; mean: number | null; median: number | null; p95: number | null; total: number };

export function distribution(values: readonly number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const total = values.reduce((a, b) => a + b, 0);
  return {
    n: values.length,
    mean: values.length ? total / values.length : null,
    median: values.length ? quantileSorted(sorted, 0.5) : null,
    p95: values.length ? quantileSorted(sorted, 0.95) : null,
    total,
  };
}

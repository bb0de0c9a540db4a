import { unsafeUniformIntDistribution, type RandomGenerator } from "pure-rand";
import { quantileSorted, rng } from "@/lib/eval/metrics";

/*
 * Inter-annotator agreement on nominal labels. Items are debates; each item carries the labels its
 * annotators gave (latest version per annotator). Undefined cases (no pairs, or all annotators
 * always picking the same single label so chance agreement is 1) give null, never NaN or 0.
 */

export type Interval = { low: number; high: number };
export type Estimate = { value: number | null; ci: Interval | null; n: number };
export type BootstrapOptions = { resamples?: number; seed?: number; level?: number };

/** Cohen (1960): two raters, the same items. `pairs` holds [rater A's label, rater B's label]. */
export function cohenKappa(pairs: ReadonlyArray<readonly [string, string]>): number | null {
  const n = pairs.length;
  if (n === 0) return null;
  const a = new Map<string, number>();
  const b = new Map<string, number>();
  let agree = 0;
  for (const [x, y] of pairs) {
    if (x === y) agree++;
    a.set(x, (a.get(x) ?? 0) + 1);
    b.set(y, (b.get(y) ?? 0) + 1);
  }
  const po = agree / n;
  let pe = 0;
  for (const [label, na] of a) pe += (na / n) * ((b.get(label) ?? 0) / n);
  return pe === 1 ? null : (po - pe) / (1 - pe);
}

/**
 * Fleiss (1971) over items rated by several raters. `items[i]` are the labels item i received.
 * Fleiss assumes every item has the same number of raters; items with fewer than two labels carry
 * no agreement information and are left out, and with unequal counts each item's agreement uses its
 * own count (the usual generalisation; identical to Fleiss when the counts are equal).
 */
export function fleissKappa(items: ReadonlyArray<readonly string[]>): number | null {
  const rated = items.filter((it) => it.length >= 2);
  if (rated.length === 0) return null;
  const totals = new Map<string, number>();
  let ratings = 0;
  let sumP = 0;
  for (const labels of rated) {
    const counts = new Map<string, number>();
    for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
    const m = labels.length;
    let sq = 0;
    for (const [l, c] of counts) {
      sq += c * c;
      totals.set(l, (totals.get(l) ?? 0) + c);
    }
    sumP += (sq - m) / (m * (m - 1));
    ratings += m;
  }
  const pBar = sumP / rated.length;
  let pe = 0;
  for (const c of totals.values()) pe += (c / ratings) ** 2;
  return pe === 1 ? null : (pBar - pe) / (1 - pe);
}

/**
 * Krippendorff's alpha for nominal data (Krippendorff 2011, "Computing Krippendorff's
 * Alpha-Reliability"): from the coincidence matrix, alpha = 1 - (n - 1) * D_o / D_e with
 * D_o = sum over c != k of o_ck and D_e = sum over c != k of n_c * n_k. Missing values are simply
 * absent from a unit's list; units with fewer than two values are not pairable and drop out.
 */
export function krippendorffAlphaNominal(units: ReadonlyArray<readonly string[]>): number | null {
  const pairable = units.filter((u) => u.length >= 2);
  const nc = new Map<string, number>();
  let disagreeObserved = 0;
  for (const values of pairable) {
    const m = values.length;
    const counts = new Map<string, number>();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    // Ordered pairs of different values within the unit, each weighted 1 / (m - 1).
    let same = 0;
    for (const c of counts.values()) same += c * (c - 1);
    disagreeObserved += (m * (m - 1) - same) / (m - 1);
    for (const [v, c] of counts) nc.set(v, (nc.get(v) ?? 0) + c);
  }
  let n = 0;
  for (const c of nc.values()) n += c;
  if (n < 2) return null;
  let sumSq = 0;
  for (const c of nc.values()) sumSq += c * c;
  const disagreeExpected = n * n - sumSq;
  if (disagreeExpected === 0) return null;
  return 1 - ((n - 1) * disagreeObserved) / disagreeExpected;
}

/** The label more than half of `labels` agree on, or null (ties, or no strict majority). */
export function majority(labels: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  for (const [l, c] of counts) if (c * 2 > labels.length) return l;
  return null;
}

function percentile(samples: number[], level: number): Interval | null {
  if (samples.length === 0) return null;
  const sorted = samples.sort((a, b) => a - b);
  const alpha = (1 - level) / 2;
  return { low: quantileSorted(sorted, alpha), high: quantileSorted(sorted, 1 - alpha) };
}

/**
 * Percentile bootstrap over items: each resample draws as many items as there are, with
 * replacement, and recomputes the statistic. Seeded (xoroshiro128+), so a report is reproducible.
 * Resamples where the statistic is undefined are left out of the interval.
 */
export function bootstrap<T>(
  items: readonly T[],
  stat: (sample: readonly T[]) => number | null,
  opts: BootstrapOptions = {},
): Estimate {
  const value = stat(items);
  const resamples = opts.resamples ?? 1000;
  if (value === null || items.length < 2 || resamples === 0) return { value, ci: null, n: items.length };
  const g: RandomGenerator = rng(opts.seed ?? 1);
  const samples: number[] = [];
  const sample = new Array<T>(items.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < items.length; i++) sample[i] = items[unsafeUniformIntDistribution(0, items.length - 1, g)]!;
    const v = stat(sample);
    if (v !== null && Number.isFinite(v)) samples.push(v);
  }
  return { value, ci: percentile(samples, opts.level ?? 0.95), n: items.length };
}

// --- the report ---------------------------------------------------------------------------

export type AnnotatedItem = {
  debateId: string;
  judge: string | null;
  /** Latest label per annotator. */
  labels: Array<{ annotator: string; label: string; judgeCorrect?: boolean | null; durationSeconds?: number | null }>;
};

export type AgreementReport = {
  items: number;
  /** Debates with two or more labels: the only ones agreement can be measured on. */
  multiplyLabelled: number;
  annotations: number;
  labels: string[];
  fleissKappa: Estimate;
  krippendorffAlpha: Estimate;
  pairs: Array<{ a: string; b: string; n: number; cohenKappa: Estimate; percentAgreement: number }>;
  judge: { n: number; accuracy: Estimate; cohenKappa: Estimate; confusion: Record<string, Record<string, number>> };
  annotators: Array<{
    annotator: string;
    count: number;
    medianSeconds: number | null;
    agreementWithOthers: number | null;
    comparable: number;
  }>;
  bootstrap: { resamples: number; seed: number; level: number; method: "percentile, items resampled" };
};

const median = (xs: number[]) =>
  xs.length
    ? quantileSorted(
        [...xs].sort((a, b) => a - b),
        0.5,
      )
    : null;

export function agreementReport(
  items: readonly AnnotatedItem[],
  labels: readonly string[],
  opts: BootstrapOptions = {},
): AgreementReport {
  const boot = { resamples: opts.resamples ?? 1000, seed: opts.seed ?? 1, level: opts.level ?? 0.95 };
  const labelLists = items.map((it) => it.labels.map((l) => l.label));
  // A debate with one label carries no agreement information: counting it in n (and resampling it)
  // would claim more evidence than there is.
  const pairable = labelLists.filter((l) => l.length >= 2);

  const annotators = [...new Set(items.flatMap((it) => it.labels.map((l) => l.annotator)))].sort();
  const pairs: AgreementReport["pairs"] = [];
  for (let i = 0; i < annotators.length; i++) {
    for (let j = i + 1; j < annotators.length; j++) {
      const a = annotators[i]!;
      const b = annotators[j]!;
      const both: Array<[string, string]> = [];
      for (const it of items) {
        const la = it.labels.find((l) => l.annotator === a);
        const lb = it.labels.find((l) => l.annotator === b);
        if (la && lb) both.push([la.label, lb.label]);
      }
      if (both.length === 0) continue;
      pairs.push({
        a,
        b,
        n: both.length,
        cohenKappa: bootstrap(both, cohenKappa, boot),
        percentAgreement: both.filter(([x, y]) => x === y).length / both.length,
      });
    }
  }

  // The judge against the annotators' majority, on items that have one.
  const judged = items.flatMap((it) => {
    const m = majority(it.labels.map((l) => l.label));
    return m && it.judge ? [[it.judge, m] as [string, string]] : [];
  });
  const confusion: Record<string, Record<string, number>> = {};
  const judgeLabels = [...new Set([...labels, ...judged.map(([j]) => j)])];
  for (const j of judgeLabels) confusion[j] = Object.fromEntries(labels.map((g) => [g, 0]));
  for (const [j, g] of judged) (confusion[j] ??= {})[g] = (confusion[j]![g] ?? 0) + 1;

  const perAnnotator = annotators.map((annotator) => {
    const mine = items.flatMap((it) => it.labels.filter((l) => l.annotator === annotator).map((l) => ({ l, it })));
    // Agreement with the majority of the others on the same item (the annotator left out).
    let agree = 0;
    let comparable = 0;
    for (const { l, it } of mine) {
      const others = majority(it.labels.filter((o) => o.annotator !== annotator).map((o) => o.label));
      if (others === null) continue;
      comparable++;
      if (others === l.label) agree++;
    }
    const secs = mine.map(({ l }) => l.durationSeconds).filter((x): x is number => typeof x === "number");
    return {
      annotator,
      count: mine.length,
      medianSeconds: median(secs),
      agreementWithOthers: comparable ? agree / comparable : null,
      comparable,
    };
  });

  return {
    items: items.length,
    multiplyLabelled: pairable.length,
    annotations: labelLists.reduce((a, l) => a + l.length, 0),
    labels: [...labels],
    fleissKappa: bootstrap(pairable, fleissKappa, boot),
    krippendorffAlpha: bootstrap(pairable, krippendorffAlphaNominal, boot),
    pairs,
    judge: {
      n: judged.length,
      accuracy: bootstrap(judged, (s) => (s.length ? s.filter(([j, g]) => j === g).length / s.length : null), boot),
      cohenKappa: bootstrap(judged, cohenKappa, boot),
      confusion,
    },
    annotators: perAnnotator,
    bootstrap: { ...boot, method: "percentile, items resampled" },
  };
}

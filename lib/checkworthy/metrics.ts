/** Precision, recall and F1 of the check-worthy class (CLEF CheckThat! Task 1's measure), and the threshold that maximises F1. */

export type Counts = { tp: number; fp: number; fn: number; tn: number };
export type PositiveClassScores = { precision: number; recall: number; f1: number };

export function countsAt(probs: readonly number[], labels: readonly number[], threshold: number): Counts {
  const c = { tp: 0, fp: 0, fn: 0, tn: 0 };
  probs.forEach((p, i) => {
    const yes = p >= threshold;
    if (yes && labels[i] === 1) c.tp++;
    else if (yes) c.fp++;
    else if (labels[i] === 1) c.fn++;
    else c.tn++;
  });
  return c;
}

/** 0 where undefined (no sentence predicted, or none check-worthy). */
export function positiveClassScores(c: Counts): PositiveClassScores {
  const precision = c.tp + c.fp ? c.tp / (c.tp + c.fp) : 0;
  const recall = c.tp + c.fn ? c.tp / (c.tp + c.fn) : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

/** The threshold (in whole hundredths, so the one stored is exactly the one measured) with the best F1 on held-out scores. */
export function bestThreshold(probs: readonly number[], labels: readonly number[]): { threshold: number; f1: number } {
  let best = { threshold: 0.5, f1: -1 };
  for (let k = 5; k <= 95; k++) {
    const f1 = positiveClassScores(countsAt(probs, labels, k / 100)).f1;
    if (f1 > best.f1) best = { threshold: k / 100, f1 };
  }
  return best;
}

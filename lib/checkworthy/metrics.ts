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

/**
 * Area under the ROC curve: the chance that a check-worthy sentence scores above one that is not
 * (ties count half). Unlike F1 it does not move with the share of check-worthy sentences, so it
 * compares splits of different make-up (dev-test is a third check-worthy, the folds a quarter).
 */
export function rocAuc(scores: readonly number[], labels: readonly number[]): number {
  const order = scores.map((_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  let pos = 0;
  let rankSum = 0;
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && scores[order[j + 1]!] === scores[order[i]!]) j++;
    // Tied scores share the mean of their ranks (1-based).
    const rank = (i + j + 2) / 2;
    for (let t = i; t <= j; t++)
      if (labels[order[t]!] === 1) {
        pos++;
        rankSum += rank;
      }
    i = j + 1;
  }
  const neg = order.length - pos;
  return pos && neg ? (rankSum - (pos * (pos + 1)) / 2) / (pos * neg) : 0;
}

/**
 * F1 the same ranking would have at another share of check-worthy sentences (`prevalence`), from
 * its recall and false-positive rate at the threshold: precision is what moves with the share.
 */
export function f1AtPrevalence(c: Counts, prevalence: number): number {
  const tpr = c.tp + c.fn ? c.tp / (c.tp + c.fn) : 0;
  const fpr = c.fp + c.tn ? c.fp / (c.fp + c.tn) : 0;
  const tp = tpr * prevalence;
  const fp = fpr * (1 - prevalence);
  const precision = tp + fp ? tp / (tp + fp) : 0;
  return precision + tpr ? (2 * precision * tpr) / (precision + tpr) : 0;
}

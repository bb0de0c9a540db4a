import { sigmoid } from "./classifier";

/**
 * Turning the classifier's raw scores into probabilities a reader can take at their word, and
 * measuring how far they are from it. Platt scaling: p = sigmoid(a·logit + b), with a and b fitted
 * on scores the classifier gave to sentences it was not trained on (the out-of-fold predictions of
 * the grouped cross-validation), never on its own training rows, where it is over-confident.
 */

export type Platt = { a: number; b: number };

export function applyPlatt(c: Platt, logit: number): number {
  return sigmoid(c.a * logit + c.b);
}

/**
 * Maximum likelihood a and b by Newton's method, with Platt's smoothed targets
 * ((positives+1)/(positives+2) and 1/(negatives+2)) so that separable scores give finite values.
 */
export function fitPlatt(logits: readonly number[], labels: readonly number[]): Platt {
  const pos = labels.filter((y) => y === 1).length;
  const neg = labels.length - pos;
  const hi = (pos + 1) / (pos + 2);
  const lo = 1 / (neg + 2);
  const target = labels.map((y) => (y === 1 ? hi : lo));
  // Cross-entropy against the smoothed targets, written so that it does not overflow for large |a·x + b|.
  const loss = (a: number, b: number) => {
    let f = 0;
    for (let i = 0; i < logits.length; i++) {
      const z = a * logits[i]! + b;
      f += (z >= 0 ? Math.log1p(Math.exp(-z)) : -z + Math.log1p(Math.exp(z))) + (1 - target[i]!) * z;
    }
    return f;
  };
  let a = 1;
  let b = 0;
  let f = loss(a, b);
  for (let it = 0; it < 100; it++) {
    let ga = 0;
    let gb = 0;
    // A small ridge keeps the step finite when the scores barely vary.
    let haa = 1e-12;
    let hab = 0;
    let hbb = 1e-12;
    for (let i = 0; i < logits.length; i++) {
      const x = logits[i]!;
      const p = sigmoid(a * x + b);
      const d = p - target[i]!;
      const w = p * (1 - p);
      ga += d * x;
      gb += d;
      haa += w * x * x;
      hab += w * x;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    // Newton's step, halved until the loss goes down (Platt's own safeguard).
    let step = 1;
    let next = loss(a - da, b - db);
    while (next > f && step > 1e-10) {
      step /= 2;
      next = loss(a - step * da, b - step * db);
    }
    if (next > f) break;
    a -= step * da;
    b -= step * db;
    const done = f - next < 1e-12 * Math.max(1, Math.abs(f));
    f = next;
    if (done) break;
  }
  return { a, b };
}

/**
 * Expected calibration error over `bins` equal-width bins of the predicted probability: the
 * sentence-weighted mean of |share of check-worthy sentences − mean probability| per bin.
 */
export function expectedCalibrationError(probs: readonly number[], labels: readonly number[], bins = 10): number {
  const n = new Array<number>(bins).fill(0);
  const sumP = new Array<number>(bins).fill(0);
  const sumY = new Array<number>(bins).fill(0);
  probs.forEach((p, i) => {
    const k = Math.min(bins - 1, Math.floor(p * bins));
    n[k]!++;
    sumP[k]! += p;
    sumY[k]! += labels[i]!;
  });
  let ece = 0;
  for (let k = 0; k < bins; k++) if (n[k]) ece += Math.abs(sumY[k]! - sumP[k]!);
  return probs.length ? ece / probs.length : 0;
}

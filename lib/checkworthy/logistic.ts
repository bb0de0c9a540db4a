/**
 * Binary logistic regression over sparse hashed features: small enough to read in one sitting and
 * to ship as a flat array of weights. npm's logistic-regression packages work on dense matrices,
 * which at 2^18 hashed dimensions would need gigabytes; this trains with AdaGrad on sparse rows.
 */

export type SparseRow = { indices: Uint32Array; values: Float32Array };

export type TrainOptions = {
  dims: number;
  epochs: number;
  /** L2 penalty per example (applied lazily to the weights an example touches). */
  l2: number;
  learningRate: number;
  /** Weight of a positive example relative to a negative one (the classes are unbalanced). */
  positiveWeight: number;
  /** Seeded shuffling, so the same data and options give the same weights. */
  seed: number;
};

export type LogisticModel = { weights: Float32Array; bias: number };

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

export function predict(model: LogisticModel, row: SparseRow): number {
  let z = model.bias;
  for (let k = 0; k < row.indices.length; k++) z += model.weights[row.indices[k]!]! * row.values[k]!;
  return sigmoid(z);
}

/** A small seeded generator (mulberry32) for the shuffle. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function train(rows: readonly SparseRow[], labels: readonly number[], o: TrainOptions): LogisticModel {
  if (rows.length !== labels.length) throw new Error("train: one label per row");
  const weights = new Float32Array(o.dims);
  const g2 = new Float32Array(o.dims).fill(1e-8);
  let bias = 0;
  let biasG2 = 1e-8;
  const order = rows.map((_, i) => i);
  const random = rng(o.seed);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const n of order) {
      const row = rows[n]!;
      const y = labels[n]!;
      const p = predict({ weights, bias }, row);
      const w = y === 1 ? o.positiveWeight : 1;
      const err = (p - y) * w;
      for (let k = 0; k < row.indices.length; k++) {
        const i = row.indices[k]!;
        const g = err * row.values[k]! + o.l2 * weights[i]!;
        g2[i] = g2[i]! + g * g;
        weights[i] = weights[i]! - (o.learningRate * g) / Math.sqrt(g2[i]!);
      }
      biasG2 += err * err;
      bias -= (o.learningRate * err) / Math.sqrt(biasG2);
    }
  }
  return { weights, bias };
}

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

/** Precision, recall and F1 of the positive class (the shared task's measure); 0 where undefined. */
export function positiveClassScores(c: Counts): PositiveClassScores {
  const precision = c.tp + c.fp ? c.tp / (c.tp + c.fp) : 0;
  const recall = c.tp + c.fn ? c.tp / (c.tp + c.fn) : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

/** The threshold (in steps of 0.01) with the best F1 on held-out data. */
export function bestThreshold(probs: readonly number[], labels: readonly number[]): { threshold: number; f1: number } {
  let best = { threshold: 0.5, f1: -1 };
  // Whole hundredths, so the threshold stored is exactly the one measured.
  for (let k = 5; k <= 95; k++) {
    const f1 = positiveClassScores(countsAt(probs, labels, k / 100)).f1;
    if (f1 > best.f1) best = { threshold: k / 100, f1 };
  }
  return best;
}

/**
 * The offline scorer's classifier: a small feed-forward network over a dense feature vector
 * (the sentence encoder's embedding and the fact-checking cues, lib/checkworthy/encoder-features.ts).
 * `hidden: 0` is plain logistic regression. Trained with Adam on mini-batches, seeded, in float64
 * arithmetic, so the same rows, labels and options give the same weights in any process. Written
 * here rather than taken from npm because the packages that train networks in JavaScript
 * (TensorFlow.js and the like) bring their own native or WebGL back ends and do not promise the
 * same weights from one run to the next.
 */

export type NetOptions = {
  /** Units in the one hidden layer (ReLU); 0 for logistic regression. */
  hidden: number;
  epochs: number;
  /** L2 penalty on the weights (not the biases), per example. */
  l2: number;
  learningRate: number;
  batchSize: number;
  /** Weight of a positive example relative to a negative one. */
  positiveWeight: number;
  seed: number;
};

/** Weights as plain arrays of numbers, so a model file is JSON-friendly and rounds-trips exactly through float32. */
export type Net = {
  dims: number;
  hidden: number;
  /** Per feature: subtracted, then divided by `scale` (fitted on the training rows). */
  mean: Float32Array;
  scale: Float32Array;
  /** hidden > 0: hidden×dims row-major, then `b1` (hidden), `w2` (hidden), `b2`. hidden = 0: `w2` (dims), `b2`. */
  w1: Float32Array;
  b1: Float32Array;
  w2: Float32Array;
  b2: number;
};

/** mulberry32: a small seeded generator, for the initial weights and the shuffle. */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

function standardiser(rows: readonly Float32Array[], dims: number) {
  const mean = new Float64Array(dims);
  const sq = new Float64Array(dims);
  for (const r of rows) for (let j = 0; j < dims; j++) mean[j]! += r[j]!;
  for (let j = 0; j < dims; j++) mean[j]! /= rows.length;
  for (const r of rows)
    for (let j = 0; j < dims; j++) {
      const d = r[j]! - mean[j]!;
      sq[j]! += d * d;
    }
  const scale = new Float32Array(dims);
  // A feature that never varies (a cue absent from the training rows) is left as it is rather than divided by 0.
  for (let j = 0; j < dims; j++) scale[j] = Math.sqrt(sq[j]! / rows.length) || 1;
  return { mean: Float32Array.from(mean), scale };
}

/** The raw score (log-odds) of one feature vector. */
export function netLogit(net: Net, x: ArrayLike<number>): number {
  const { dims, hidden, mean, scale, w1, b1, w2 } = net;
  const z = new Float64Array(dims);
  for (let j = 0; j < dims; j++) z[j] = (x[j]! - mean[j]!) / scale[j]!;
  let out = net.b2;
  if (hidden === 0) {
    for (let j = 0; j < dims; j++) out += w2[j]! * z[j]!;
    return out;
  }
  for (let h = 0; h < hidden; h++) {
    let a = b1[h]!;
    const row = h * dims;
    for (let j = 0; j < dims; j++) a += w1[row + j]! * z[j]!;
    if (a > 0) out += w2[h]! * a;
  }
  return out;
}

/** The raw score of an ensemble: the mean of its networks' raw scores. */
export function ensembleLogit(nets: readonly Net[], x: ArrayLike<number>): number {
  return nets.reduce((sum, net) => sum + netLogit(net, x), 0) / nets.length;
}

export function trainNet(rows: readonly Float32Array[], labels: readonly number[], o: NetOptions): Net {
  if (rows.length !== labels.length || rows.length === 0)
    throw new Error("trainNet: one label per row, at least one row");
  const dims = rows[0]!.length;
  const H = o.hidden;
  const { mean, scale } = standardiser(rows, dims);
  const X = rows.map((r) => {
    const z = new Float64Array(dims);
    for (let j = 0; j < dims; j++) z[j] = (r[j]! - mean[j]!) / scale[j]!;
    return z;
  });
  const random = rng(o.seed);
  // Parameters in one flat array: [w1 (H*dims), b1 (H), w2 (H or dims), b2].
  const nW1 = H * dims;
  const nOut = H === 0 ? dims : H;
  const P = nW1 + H + nOut + 1;
  const p = new Float64Array(P);
  // He initialisation for the hidden layer, small for the output.
  for (let i = 0; i < nW1; i++) p[i] = (random() * 2 - 1) * Math.sqrt(6 / dims);
  for (let i = 0; i < nOut; i++) p[nW1 + H + i] = (random() * 2 - 1) * 0.01;
  const m = new Float64Array(P);
  const v = new Float64Array(P);
  const g = new Float64Array(P);
  const act = new Float64Array(H);
  const b1At = nW1;
  const w2At = nW1 + H;
  const b2At = P - 1;
  const order = rows.map((_, i) => i);
  let step = 0;
  const beta1 = 0.9;
  const beta2 = 0.999;
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (let at = 0; at < order.length; at += o.batchSize) {
      g.fill(0);
      const end = Math.min(order.length, at + o.batchSize);
      let weightSum = 0;
      for (let k = at; k < end; k++) {
        const n = order[k]!;
        const x = X[n]!;
        const y = labels[n]!;
        const w = y === 1 ? o.positiveWeight : 1;
        weightSum += w;
        let out = p[b2At]!;
        if (H === 0) for (let j = 0; j < dims; j++) out += p[w2At + j]! * x[j]!;
        else
          for (let h = 0; h < H; h++) {
            let a = p[b1At + h]!;
            const row = h * dims;
            for (let j = 0; j < dims; j++) a += p[row + j]! * x[j]!;
            act[h] = a > 0 ? a : 0;
            out += p[w2At + h]! * act[h]!;
          }
        const err = (sigmoid(out) - y) * w;
        g[b2At]! += err;
        if (H === 0) for (let j = 0; j < dims; j++) g[w2At + j]! += err * x[j]!;
        else
          for (let h = 0; h < H; h++) {
            if (act[h]! <= 0) continue;
            g[w2At + h]! += err * act[h]!;
            const d = err * p[w2At + h]!;
            g[b1At + h]! += d;
            const row = h * dims;
            for (let j = 0; j < dims; j++) g[row + j]! += d * x[j]!;
          }
      }
      step++;
      const lr = (o.learningRate * Math.sqrt(1 - beta2 ** step)) / (1 - beta1 ** step);
      for (let i = 0; i < P; i++) {
        const isWeight = i < nW1 || (i >= w2At && i < b2At);
        const gi = g[i]! / weightSum + (isWeight ? o.l2 * p[i]! : 0);
        m[i] = beta1 * m[i]! + (1 - beta1) * gi;
        v[i] = beta2 * v[i]! + (1 - beta2) * gi * gi;
        p[i]! -= (lr * m[i]!) / (Math.sqrt(v[i]!) + 1e-8);
      }
    }
  }
  return {
    dims,
    hidden: H,
    mean,
    scale,
    w1: Float32Array.from(p.subarray(0, nW1)),
    b1: Float32Array.from(p.subarray(b1At, w2At)),
    w2: Float32Array.from(p.subarray(w2At, b2At)),
    b2: Math.fround(p[b2At]!),
  };
}

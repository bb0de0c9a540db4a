import { applyPlatt, expectedCalibrationError, fitPlatt, type Platt } from "./calibration";
import { type Net, type NetOptions, netLogit, trainNet } from "./classifier";
import { bestThreshold, countsAt, positiveClassScores, rocAuc } from "./metrics";

/**
 * Choosing and fitting the offline scorer by how it does on debates it was not trained on:
 * grouped cross-validation (lib/checkworthy/folds.ts), with the calibration and the threshold of
 * each held-out fold fitted on the other folds' out-of-fold scores, so no number here comes from
 * a threshold or a calibration tuned on the sentences it is measured on.
 */

export type Scores = {
  precision: number;
  recall: number;
  f1: number;
  threshold: number;
  ece: number;
  /** Area under the ROC curve: how well it ranks, whatever the share of check-worthy sentences. */
  auc: number;
};

export type CrossValidation = {
  /** The networks whose raw scores are averaged (one: a single network). */
  options: NetOptions[];
  /** Every fold's held-out predictions pooled; each fold's threshold and calibration came from the other folds. */
  pooled: Scores;
  folds: Scores[];
  /** Out-of-fold raw scores, one per row (the final calibration and threshold are fitted on these). */
  oofLogits: number[];
};

const r4 = (x: number) => Math.round(x * 10000) / 10000;

export function scoresAt(probs: readonly number[], labels: readonly number[], threshold: number): Scores {
  const s = positiveClassScores(countsAt(probs, labels, threshold));
  return {
    precision: r4(s.precision),
    recall: r4(s.recall),
    f1: r4(s.f1),
    threshold,
    ece: r4(expectedCalibrationError(probs, labels)),
    auc: r4(rocAuc(probs, labels)),
  };
}

/** A calibration and a threshold fitted on held-out scores. */
export function calibrate(logits: readonly number[], labels: readonly number[]): { platt: Platt; threshold: number } {
  const platt = fitPlatt(logits, labels);
  const { threshold } = bestThreshold(
    logits.map((z) => applyPlatt(platt, z)),
    labels,
  );
  return { platt, threshold };
}

/** Every row's raw score from a network trained on the other folds. */
export function outOfFoldLogits(
  vectors: readonly Float32Array[],
  labels: readonly number[],
  fold: readonly number[],
  options: NetOptions,
): number[] {
  const k = Math.max(...fold) + 1;
  const oofLogits = new Array<number>(vectors.length);
  for (let f = 0; f < k; f++) {
    const inTrain = vectors.map((_, i) => fold[i] !== f);
    const net = trainNet(
      vectors.filter((_, i) => inTrain[i]),
      labels.filter((_, i) => inTrain[i]),
      options,
    );
    vectors.forEach((v, i) => {
      if (!inTrain[i]) oofLogits[i] = netLogit(net, v);
    });
  }
  return oofLogits;
}

/**
 * Out-of-fold raw scores measured: each fold calibrated and thresholded on the other folds' scores,
 * then every sentence judged at its own fold's threshold and pooled.
 */
export function scoreOutOfFold(
  oofLogits: readonly number[],
  labels: readonly number[],
  fold: readonly number[],
): { pooled: Scores; folds: Scores[] } {
  const k = Math.max(...fold) + 1;
  const pooledProbs = new Array<number>(oofLogits.length);
  const pooledThresholdAt = new Array<number>(oofLogits.length);
  const folds: Scores[] = [];
  for (let f = 0; f < k; f++) {
    const others = oofLogits.map((_, i) => i).filter((i) => fold[i] !== f);
    const mine = oofLogits.map((_, i) => i).filter((i) => fold[i] === f);
    const { platt, threshold } = calibrate(
      others.map((i) => oofLogits[i]!),
      others.map((i) => labels[i]!),
    );
    const probs = mine.map((i) => applyPlatt(platt, oofLogits[i]!));
    mine.forEach((i, j) => {
      pooledProbs[i] = probs[j]!;
      pooledThresholdAt[i] = threshold;
    });
    folds.push(
      scoresAt(
        probs,
        mine.map((i) => labels[i]!),
        threshold,
      ),
    );
  }
  // Pooled: each sentence judged at its own fold's threshold (thresholds differ by a hundredth or two between folds).
  const c = { tp: 0, fp: 0, fn: 0, tn: 0 };
  pooledProbs.forEach((p, i) => {
    const yes = p >= pooledThresholdAt[i]!;
    if (yes && labels[i] === 1) c.tp++;
    else if (yes) c.fp++;
    else if (labels[i] === 1) c.fn++;
    else c.tn++;
  });
  const s = positiveClassScores(c);
  const thresholds = folds.map((x) => x.threshold);
  return {
    pooled: {
      precision: r4(s.precision),
      recall: r4(s.recall),
      f1: r4(s.f1),
      threshold: r4(thresholds.reduce((a, b) => a + b, 0) / thresholds.length),
      ece: r4(expectedCalibrationError(pooledProbs, labels)),
      auc: r4(rocAuc(pooledProbs, labels)),
    },
    folds,
  };
}

export function crossValidate(
  vectors: readonly Float32Array[],
  labels: readonly number[],
  fold: readonly number[],
  members: NetOptions[],
  /** Out-of-fold scores already computed, by JSON of the options: a network shared by several settings of a grid is cross-validated once. */
  memo: Map<string, number[]> = new Map(),
): CrossValidation {
  const each = members.map((o) => {
    const key = JSON.stringify(o);
    let oof = memo.get(key);
    if (!oof) memo.set(key, (oof = outOfFoldLogits(vectors, labels, fold, o)));
    return oof;
  });
  // The ensemble's raw score is the mean of its members', out of fold as in the shipped model.
  const oofLogits = labels.map((_, i) => each.reduce((sum, l) => sum + l[i]!, 0) / each.length);
  return { options: members, ...scoreOutOfFold(oofLogits, labels, fold), oofLogits };
}

export type FittedScorer = { nets: Net[]; platt: Platt; threshold: number };

/** The shipped model: trained on every row, calibrated and thresholded on the chosen setting's out-of-fold scores. */
export function fitFinal(
  vectors: readonly Float32Array[],
  labels: readonly number[],
  cv: CrossValidation,
): FittedScorer {
  const nets = cv.options.map((o) => trainNet(vectors, labels, o));
  const { platt, threshold } = calibrate(cv.oofLogits, labels);
  return { nets, platt, threshold };
}

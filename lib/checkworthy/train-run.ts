import type { NetOptions } from "./classifier";
import type { LabelledSentence } from "./dataset";
import { embedSentences, type SentenceEmbeddings, sentenceVector } from "./encoder-features";
import { debateFolds, namedGroupFolds } from "./folds";
import { type CrossValidation, crossValidate, type FittedScorer, fitFinal } from "./training";

/**
 * One training run of the offline scorer, from labelled sentences to the fitted model: the
 * sentence vectors, a grouped cross-validation of every setting in the grid, the setting with the
 * best pooled out-of-fold F1, and that setting trained on every sentence. scripts/train-checkworthy.ts
 * runs it on the training split; the determinism test runs it on a committed sample.
 */

/** One setting: the networks whose raw scores are averaged (one for a single network), each from BASE_OPTIONS. */
export type GridRow = Partial<NetOptions>[];

export const BASE_OPTIONS: NetOptions = {
  hidden: 0,
  epochs: 10,
  l2: 1e-4,
  learningRate: 1e-3,
  batchSize: 64,
  positiveWeight: 1,
  seed: 7,
};

/** The settings compared, simplest first (ties go to the first). */
export const TRAINING_GRIDS: Record<string, GridRow[]> = {
  full: [
    [{ hidden: 0, epochs: 10, l2: 1e-4 }],
    // The mean of the two: they err on different sentences more than two networks of one kind would.
    [
      { hidden: 0, epochs: 10, l2: 1e-4 },
      { hidden: 16, epochs: 8, l2: 1e-4 },
    ],
    // Networks that differ only by their seed (initial weights and order of the batches) average out
    // part of each one's noise (models/checkworthy/README.md: grouped CV F1 0.705 against 0.703).
    [
      { hidden: 0, epochs: 10, l2: 1e-4 },
      { hidden: 16, epochs: 8, l2: 1e-4, seed: 7 },
      { hidden: 16, epochs: 8, l2: 1e-4, seed: 8 },
      { hidden: 16, epochs: 8, l2: 1e-4, seed: 9 },
    ],
    // Stopped earlier: with the probe the networks read twice the numbers and may fit the
    // training debates sooner.
    [
      { hidden: 0, epochs: 10, l2: 1e-4 },
      { hidden: 16, epochs: 5, l2: 1e-4, seed: 7 },
      { hidden: 16, epochs: 5, l2: 1e-4, seed: 8 },
      { hidden: 16, epochs: 5, l2: 1e-4, seed: 9 },
    ],
  ],
  // For the committed sample (tests/fixtures/checkworthy/): small and quick, the same code path.
  sample: [
    [{ hidden: 0, epochs: 5, l2: 1e-4, batchSize: 16 }],
    [{ hidden: 8, epochs: 5, l2: 1e-4, batchSize: 16 }],
    [
      { hidden: 0, epochs: 5, l2: 1e-4, batchSize: 16 },
      { hidden: 8, epochs: 5, l2: 1e-4, batchSize: 16 },
    ],
  ],
};

export type TrainRun = {
  tried: CrossValidation[];
  chosen: CrossValidation;
  fitted: FittedScorer;
  /** The chosen setting again, one named group of debates held out at a time (only with `groups`; chooses nothing). */
  byGroup?: CrossValidation & { names: string[] };
};

export async function trainFromSentences(
  sentences: readonly LabelledSentence[],
  opts: {
    grid: readonly GridRow[];
    folds: number;
    /** Embeddings in the order of `sentences` (the script passes cached ones); default: the encoder. */
    embeddings?: SentenceEmbeddings;
    onTried?: (cv: CrossValidation) => void;
    /** Named groups of debates (by the id of each one's first sentence) for a second report: lib/checkworthy/folds.ts `namedGroupFolds`. */
    groups?: Readonly<Record<string, readonly string[]>>;
  },
): Promise<TrainRun> {
  if (opts.grid.length === 0) throw new Error("trainFromSentences: the grid is empty");
  const embeddings = opts.embeddings ?? (await embedSentences(sentences.map((s) => s.text)));
  const vectors = sentences.map((s, i) => sentenceVector(s.text, embeddings.vectors[i]!, embeddings.probe[i]!).vector);
  const labels = sentences.map((s) => s.label);
  // Checked before the grid runs, so a mistake in the groups costs seconds, not the whole grid.
  const named = opts.groups
    ? namedGroupFolds(
        sentences.map((s) => s.id),
        opts.groups,
      )
    : undefined;
  const fold = debateFolds(
    sentences.map((s) => s.id),
    opts.folds,
  );
  const tried: CrossValidation[] = [];
  const memo = new Map<string, number[]>();
  for (const row of opts.grid) {
    const cv = crossValidate(
      vectors,
      labels,
      fold,
      row.map((member) => ({ ...BASE_OPTIONS, ...member })),
      memo,
    );
    tried.push(cv);
    opts.onTried?.(cv);
  }
  // The first of equals wins, so the grid's order (simplest first) breaks ties.
  const chosen = tried.reduce((best, cv) => (cv.pooled.f1 > best.pooled.f1 ? cv : best));
  const byGroup = named && {
    ...crossValidate(vectors, labels, named.fold, chosen.options),
    names: named.names,
  };
  return { tried, chosen, fitted: fitFinal(vectors, labels, chosen), ...(byGroup ? { byGroup } : {}) };
}

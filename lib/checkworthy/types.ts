import type { SentenceEmbeddings } from "./encoder-features";
import type { Sentence } from "./split";

/** One sentence with its check-worthiness: a factual claim a reader would want verified scores high. */
export type ScoredSentence = Sentence & {
  /** In [0, 1]. */
  score: number;
  /** At or above the scorer's threshold. */
  checkworthy: boolean;
  /** Why, in a sentence a journalist reads. */
  reason: string;
  /** Which scorer gave this score (the language-model scorer falls back to the offline one for a sentence it skipped). */
  scoredBy: ScorerName;
};

export const SCORER_NAMES = ["offline", "llm"] as const;
export type ScorerName = (typeof SCORER_NAMES)[number];

export type ScorerOptions = {
  signal?: AbortSignal;
  /**
   * The sentences' SENTENCE_ENCODER embeddings and probes (`embedSentences`), in order, when the
   * caller has them already (the live desk embeds a push once for scoring and matching): the
   * offline scorer then skips its encoder call.
   */
  embeddings?: SentenceEmbeddings;
};

/**
 * The most sentences of one text any scorer reads (the offline one): a whole debate transcript at
 * the text limit (100,000 characters) is 1,000-1,700 sentences.
 */
export const MOST_SENTENCES_SCORED = 2_000;

/** Both scorers, one shape: sentences in, the same sentences scored, in the same order. */
export interface CheckworthyScorer {
  readonly name: ScorerName;
  /** Scores at or above it are check-worthy. */
  readonly threshold: number;
  /** The most sentences of one text it scores: the rest are reported as left over, never dropped silently. */
  readonly maxSentences: number;
  score(sentences: readonly Sentence[], opts?: ScorerOptions): Promise<ScoredSentence[]>;
}

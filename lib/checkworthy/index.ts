import { LlmScorer } from "./llm";
import { offlineScorer } from "./offline";
import { splitSentences, type Sentence } from "./split";
import type { CheckworthyScorer, ScoredSentence, ScorerName } from "./types";

export { splitSentences, isTranscript, type Sentence } from "./split";
export { SCORER_NAMES, type ScorerName, type ScoredSentence, type CheckworthyScorer } from "./types";
export { SENTENCE_ENCODER, embedSentences } from "./encoder-features";

/** The scorer by name; the language-model one takes `model` or the `checkworthy` role's model. */
export function scorerFor(name: ScorerName, opts: { model?: string } = {}): CheckworthyScorer {
  return name === "llm" ? new LlmScorer(offlineScorer(), { model: opts.model }) : offlineScorer();
}

export type RankedText = {
  /** Every sentence in reading order, scored. */
  sentences: ScoredSentence[];
  /** Sentences left unscored past the scorer's `maxSentences` (0 when the text fitted). */
  leftOver: number;
  scorer: ScorerName;
  threshold: number;
};

/** Splits a text and scores every sentence, up to the scorer's `maxSentences`. */
export async function rankText(
  text: string,
  scorer: CheckworthyScorer,
  opts: { signal?: AbortSignal } = {},
): Promise<RankedText> {
  const all: Sentence[] = splitSentences(text);
  const sentences = await scorer.score(all.slice(0, scorer.maxSentences), opts);
  return {
    sentences,
    leftOver: Math.max(0, all.length - scorer.maxSentences),
    scorer: scorer.name,
    threshold: scorer.threshold,
  };
}

/** The `n` best-scoring sentences, highest first (ties in reading order). */
export function topSentences(sentences: readonly ScoredSentence[], n: number): ScoredSentence[] {
  return [...sentences].sort((a, b) => b.score - a.score || a.index - b.index).slice(0, n);
}

import nlp from "compromise";
import { applyPlatt } from "./calibration";
import { ensembleLogit } from "./classifier";
import { embedSentences, type SentenceEmbeddings, sentenceVector } from "./encoder-features";
import type { Cue } from "./features";
import { readModel, type LoadedModel } from "./model-file";
import type { Sentence } from "./split";
import { type CheckworthyScorer, MOST_SENTENCES_SCORED, type ScoredSentence, type ScorerOptions } from "./types";

/**
 * The scorer that needs no model provider: a small classifier over the sentence encoder's
 * embedding (all-MiniLM-L6-v2, shipped) and fact-checking cues, trained on debate sentences
 * labelled in CLEF CheckThat! 2024 and chosen by how it ranks debates it was not trained on
 * (models/checkworthy/README.md). Its score is a calibrated probability. Reasons are read from the cues.
 */

const FOR: Array<[Cue, string]> = [
  ["percent", "gives a percentage"],
  ["money", "gives an amount of money"],
  ["year", "names a year"],
  ["number", "gives a number"],
  ["comparative", "makes a comparison"],
  ["superlative", "claims a record (most, least, first)"],
  ["attribution", "reports what someone said"],
  ["past-tense", "states what happened"],
];
const AGAINST: Array<[Cue, string]> = [
  ["question", "it is a question"],
  ["opinion", "it gives an opinion or a wish"],
  ["future", "it is about the future"],
  ["modal", "it says what should or could be"],
  ["short", "it is too short to state a fact"],
];

type Doc = ReturnType<typeof nlp>;

function names(doc: Doc): string[] {
  const found = [
    ...doc.people().out("array"),
    ...doc.places().out("array"),
    ...doc.organizations().out("array"),
  ] as string[];
  return [...new Set(found.map((n) => n.replace(/[.,;:!?]+$/, "").trim()).filter(Boolean))].slice(0, 3);
}

/** `doc`: the sentence parsed by compromise (the scorer parses each sentence once, for the cues and the names). */
export function offlineReason(
  text: string,
  cues: ReadonlySet<Cue>,
  checkworthy: boolean,
  doc: Doc = nlp(text),
): string {
  const pro = FOR.filter(([c]) => cues.has(c)).map(([, w]) => w);
  // "gives a number" says nothing more once a percentage or an amount has been named.
  const said = pro.filter((w) => !(w === "gives a number" && (cues.has("percent") || cues.has("money"))));
  const who = names(doc);
  if (who.length) said.unshift(`names ${who.join(", ")}`);
  const con = AGAINST.filter(([c]) => cues.has(c)).map(([, w]) => w);
  if (checkworthy)
    return said.length
      ? `Check-worthy: ${said.slice(0, 3).join("; ")}.`
      : "Check-worthy: worded like the factual claims fact-checkers chose in past debates.";
  if (con.length) return `Less check-worthy: ${con.slice(0, 2).join("; ")}.`;
  return said.length
    ? `Less check-worthy, though it ${said.slice(0, 2).join(" and ")}: worded like sentences fact-checkers passed over.`
    : "Less check-worthy: no number, name or checkable event in it.";
}

export class OfflineScorer implements CheckworthyScorer {
  readonly name = "offline" as const;
  readonly threshold: number;
  // A whole debate transcript is scored in full (1,879 sentences of a 99,000-character text in 4.7 s on two cores).
  readonly maxSentences = MOST_SENTENCES_SCORED;
  constructor(private readonly model: LoadedModel) {
    this.threshold = model.threshold;
  }

  /**
   * One embedding call for all the sentences (the encoder batches them), then the classifier on
   * each. The sentences are parsed for the cues while the encoder's worker thread embeds them:
   * parsing is a millisecond or two of the main thread's time per sentence, and on a loaded machine
   * it was added to the wait for the embedding instead of overlapping it.
   */
  async score(sentences: readonly Sentence[], opts: ScorerOptions = {}): Promise<ScoredSentence[]> {
    if (sentences.length === 0) return [];
    // Embeddings the caller already has (the live desk embeds a push once for scorer and matcher).
    if (opts.embeddings) return this.scoreEmbedded(sentences, opts.embeddings);
    const embedding = embedSentences(
      sentences.map((s) => s.text),
      opts.signal,
    );
    // Caught here and rethrown by the await below, so a failure while parsing is never unhandled.
    embedding.catch(() => {});
    // One turn of the event loop first, so the texts reach the worker before the parsing starts.
    await new Promise((resolve) => setImmediate(resolve));
    const docs = sentences.map((s) => nlp(s.text));
    return this.scoreEmbedded(sentences, await embedding, docs);
  }

  /**
   * The same scores from embeddings already computed by the product's sentence encoder
   * (`embedSentences`, all-MiniLM-L6-v2: a vector and a probe per sentence, in order): a caller that
   * embeds the sentences for something else too (the live desk's matcher) embeds them once.
   */
  scoreEmbedded(
    sentences: readonly Sentence[],
    embeddings: SentenceEmbeddings,
    docs: readonly Doc[] = sentences.map((s) => nlp(s.text)),
  ): ScoredSentence[] {
    const { vectors, probe } = embeddings;
    if (vectors.length !== sentences.length || probe.length !== sentences.length)
      throw new Error(
        `scoreEmbedded: ${sentences.length} sentences but ${vectors.length} embeddings and ${probe.length} probes; pass one of each per sentence, in order (embedSentences)`,
      );
    return sentences.map((s, i) => {
      const doc = docs[i]!;
      const { vector, cues } = sentenceVector(s.text, vectors[i]!, probe[i]!, doc);
      const score = applyPlatt(this.model.platt, ensembleLogit(this.model.nets, vector));
      const checkworthy = score >= this.threshold;
      return { ...s, score, checkworthy, reason: offlineReason(s.text, cues, checkworthy, doc), scoredBy: "offline" };
    });
  }
}

let shipped: OfflineScorer | null = null;
/** The scorer with the committed model (read once per process). */
export function offlineScorer(): OfflineScorer {
  shipped ??= new OfflineScorer(readModel());
  return shipped;
}

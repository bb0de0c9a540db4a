import nlp from "compromise";
import { PROBE_LAYER, type ProbedVectors } from "@/lib/embeddings/minilm/engines";
import { resolveProbingEmbedder } from "@/lib/embeddings/registry";
import { CLAIM_CUES, claimCuesOf } from "./claim-cues";
import { type Cue, cuesOf } from "./features";

/**
 * What the offline check-worthiness classifier reads from a sentence: its all-MiniLM-L6-v2
 * embedding (the sentence encoder the product ships, lib/embeddings), the same encoder's pooled
 * output after its first PROBE_LAYER layers (the "probe", computed in the same forward pass: the
 * early layers keep more of how a sentence is worded, which the last ones, trained for similarity
 * search, fold into what it is about; grouped CV F1 rose from 0.705 to 0.72-0.73 with it,
 * models/checkworthy/README.md), and the cues a fact-checker
 * looks for (lib/checkworthy/features.ts: numbers, comparisons, names, attribution, tense, and
 * questions, opinions, modals), the finer cues of a claim (claim-cues.ts: amounts with units, changes,
 * statistics, time references, records in office, promises), plus its length. The embedding carries what a sentence is about
 * in a form that does not depend on the exact names and topics of the debates it was trained on,
 * which is what the hashed-n-gram model before it learned (and lost on debates it had not seen).
 *
 * The training script and the scorer call these same functions; `ENCODER_FEATURE_VERSION` is
 * stored in the model file and checked on load.
 */

// 2: the claim cues of claim-cues.ts after the cues of features.ts. 3: the probe after the embedding.
export const ENCODER_FEATURE_VERSION = 3;
/** Always this encoder, whatever EMBEDDING_MODEL says: the classifier was trained on its vectors. */
export const SENTENCE_ENCODER = "local:minilm-l6";
export const ENCODER_DIM = 384;
export { PROBE_LAYER };

/**
 * Sentences' vectors and probes, one of each per sentence, in order: what `embedSentences`
 * returns, or what a caller already has (the live desk, the training script's cache).
 */
export type SentenceEmbeddings = {
  vectors: readonly ArrayLike<number>[];
  probe: readonly ArrayLike<number>[];
};

/** The cues, in the order they enter the vector (the model file depends on it). */
export const CUE_ORDER: readonly Cue[] = [
  "number",
  "percent",
  "money",
  "year",
  "person",
  "place",
  "organization",
  "comparative",
  "superlative",
  "past-tense",
  "attribution",
  "question",
  "opinion",
  "modal",
  "future",
  "short",
  "first-person",
];

export const FEATURE_DIMS = 2 * ENCODER_DIM + CUE_ORDER.length + CLAIM_CUES.length + 1;

export type SentenceVector = { vector: Float32Array; cues: Set<Cue> };

type Doc = ReturnType<typeof nlp>;

/**
 * One sentence's vector from its embedding and probe (already computed) and its text (parsed once:
 * pass `doc` when the caller has it).
 */
export function sentenceVector(
  text: string,
  embedding: ArrayLike<number>,
  probe: ArrayLike<number>,
  doc: Doc = nlp(text),
): SentenceVector {
  for (const [what, v] of [
    ["embedding", embedding],
    ["probe", probe],
  ] as const)
    if (v.length !== ENCODER_DIM)
      throw new Error(`expected a ${ENCODER_DIM}-dimension ${what} from ${SENTENCE_ENCODER}, got ${v.length}`);
  const cues = cuesOf(text, doc);
  const vector = new Float32Array(FEATURE_DIMS);
  vector.set(embedding);
  vector.set(probe, ENCODER_DIM);
  const cuesAt = 2 * ENCODER_DIM;
  CUE_ORDER.forEach((c, i) => {
    if (cues.has(c)) vector[cuesAt + i] = 1;
  });
  const claim = claimCuesOf(text);
  CLAIM_CUES.forEach((c, i) => {
    if (claim.has(c)) vector[cuesAt + CUE_ORDER.length + i] = 1;
  });
  const words = text.trim().split(/\s+/).length;
  // Log length: a 5-word and a 10-word sentence differ more than a 40- and a 45-word one.
  vector[FEATURE_DIMS - 1] = Math.log1p(words);
  return { vector, cues };
}

/**
 * The encoder's embeddings and probes of many sentences, from one forward pass (batched by the
 * engine; see lib/embeddings/registry.ts). `vectors` are the ones search and matching store.
 */
export async function embedSentences(texts: readonly string[], signal?: AbortSignal): Promise<ProbedVectors> {
  return resolveProbingEmbedder(SENTENCE_ENCODER).embedWithProbe([...texts], signal);
}

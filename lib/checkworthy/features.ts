import nlp from "compromise";

type Doc = ReturnType<typeof nlp>;

/**
 * What the offline check-worthiness classifier reads from one sentence. The training script
 * (scripts/train-checkworthy.ts) and the product call this same function, so a model file always
 * sees the features it was trained on; `FEATURE_VERSION` is stored in the model file and checked
 * on load, so a change here that is not followed by retraining is refused instead of scoring badly.
 *
 * Two kinds of feature, hashed into one sparse vector:
 *  - words, word pairs and character n-grams (numbers folded to a shape, so "1.5 million" and
 *    "30 billion" look alike), which carry the bulk of the signal;
 *  - cues a fact-checker looks for (named people, places and organisations, numbers, comparisons,
 *    past tense, attribution) and cues of opinion or rhetoric (questions, "I think", modal verbs),
 *    read with compromise's part-of-speech tagger; these also give the reasons people read.
 */

export const FEATURE_VERSION = 1;

/** The cues, by name: each is a feature of its own and may become a reason. */
export type Cue =
  | "number"
  | "percent"
  | "money"
  | "year"
  | "person"
  | "place"
  | "organization"
  | "comparative"
  | "superlative"
  | "past-tense"
  | "attribution"
  | "question"
  | "opinion"
  | "modal"
  | "future"
  | "short"
  | "first-person";

export type SentenceFeatures = {
  /** Hashed feature index → value, before normalisation. */
  indices: Uint32Array;
  values: Float32Array;
  cues: Set<Cue>;
};

const ATTRIBUTION = /\b(according to|said|says|reported|reports|announced|claimed|stated|told)\b/i;
const OPINION =
  /\b(i think|i believe|i feel|in my (view|opinion)|we (need|must|should|have to)|let me|let's|i want|i hope)\b/i;
const MODAL = /\b(should|could|would|might|must|ought)\b/i;
const FUTURE = /\b(will|going to|gonna|'ll)\b/i;
const FIRST_PERSON = /^\s*(i|we)\b/i;
const MONEY = /[$£€]\s?\d|\b\d[\d,.]*\s*(dollars|cents|billion|million|trillion)\b/i;
const PERCENT = /\d\s?(%|percent\b|per cent\b)/i;
const YEAR = /\b(1[89]\d\d|20\d\d)\b|\b(19|20)\d0s\b/;
const NUMBER_WORDS =
  /\b(one|two|three|four|five|six|seven|eight|nine|ten|hundred|thousand|million|billion|trillion|half|twice|double|triple)\b/i;

/** A word as the model sees it: lower case, every digit run folded to "0". */
function shape(word: string): string {
  return word.toLowerCase().replace(/\d+/g, "0");
}

/** FNV-1a, 32 bits: stable across processes and versions (the model file depends on it). */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The cues of one sentence, from its words and its tags. */
export function cuesOf(text: string, doc: Doc = nlp(text)): Set<Cue> {
  const cues = new Set<Cue>();
  if (/\d/.test(text) || NUMBER_WORDS.test(text)) cues.add("number");
  if (PERCENT.test(text)) cues.add("percent");
  if (MONEY.test(text)) cues.add("money");
  if (YEAR.test(text)) cues.add("year");
  if (doc.people().found) cues.add("person");
  if (doc.places().found) cues.add("place");
  if (doc.organizations().found) cues.add("organization");
  if (doc.match("#Comparative").found || /\b(more|less|fewer) than\b/i.test(text)) cues.add("comparative");
  if (doc.match("#Superlative").found || /\b(most|least) \w+/i.test(text)) cues.add("superlative");
  if (doc.match("#PastTense").found) cues.add("past-tense");
  if (ATTRIBUTION.test(text)) cues.add("attribution");
  if (text.trim().endsWith("?")) cues.add("question");
  if (OPINION.test(text)) cues.add("opinion");
  if (MODAL.test(text)) cues.add("modal");
  if (FUTURE.test(text)) cues.add("future");
  if (text.trim().split(/\s+/).length < 6) cues.add("short");
  if (FIRST_PERSON.test(text)) cues.add("first-person");
  return cues;
}

/** The part-of-speech sequence, coarse: enough for patterns like "Value Noun" or "PastTense Value". */
function tagsOf(doc: Doc): string[] {
  const COARSE = [
    "Value",
    "Person",
    "Place",
    "Organization",
    "Pronoun",
    "PastTense",
    "PresentTense",
    "Modal",
    "Comparative",
    "Superlative",
    "Adjective",
    "Adverb",
    "Noun",
    "Verb",
    "Preposition",
    "Determiner",
    "Conjunction",
  ];
  const json = doc.json({ terms: { tags: true } }) as Array<{ terms: Array<{ tags: string[] }> }>;
  const out: string[] = [];
  for (const s of json)
    for (const t of s.terms) {
      const tags = new Set(t.tags);
      out.push(COARSE.find((c) => tags.has(c)) ?? "X");
    }
  return out;
}

/** Every feature of a sentence, hashed into `dims` buckets (a power of two). */
export function extractFeatures(text: string, dims: number): SentenceFeatures {
  const acc = new Map<number, number>();
  const add = (name: string, v = 1) => {
    const i = hash32(name) & (dims - 1);
    acc.set(i, (acc.get(i) ?? 0) + v);
  };
  const words = (text.match(/[A-Za-z0-9']+|[$%?]/g) ?? []).map(shape);
  for (let i = 0; i < words.length; i++) {
    add(`w:${words[i]}`);
    if (i + 1 < words.length) add(`b:${words[i]} ${words[i + 1]}`);
  }
  add(`b:<s> ${words[0] ?? ""}`);
  const folded = ` ${shape(text).replace(/\s+/g, " ").trim()} `;
  for (let n = 3; n <= 5; n++) for (let i = 0; i + n <= folded.length; i++) add(`c${n}:${folded.slice(i, i + n)}`, 0.5);
  const doc = nlp(text);
  const tags = tagsOf(doc);
  for (let i = 0; i < tags.length; i++) {
    add(`t:${tags[i]}`, 0.5);
    if (i + 1 < tags.length) add(`tt:${tags[i]} ${tags[i + 1]}`, 0.5);
  }
  const cues = cuesOf(text, doc);
  // Cues are strong, rare signals: weighted up so that L2 normalisation does not drown them in n-grams.
  for (const c of cues) add(`cue:${c}`, 3);
  add(`len:${Math.min(8, Math.floor(words.length / 5))}`, 2);
  add("bias", 1);
  // L2-normalised so long sentences do not score high merely for having many features.
  let norm = 0;
  for (const v of acc.values()) norm += v * v;
  norm = Math.sqrt(norm) || 1;
  const indices = new Uint32Array(acc.size);
  const values = new Float32Array(acc.size);
  let k = 0;
  for (const [i, v] of acc) {
    indices[k] = i;
    values[k] = v / norm;
    k++;
  }
  return { indices, values, cues };
}

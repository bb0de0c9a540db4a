import nlp from "compromise";

type Doc = ReturnType<typeof nlp>;

/**
 * The cues a fact-checker looks for in a sentence (named people, places and organisations,
 * numbers, comparisons, past tense, attribution) and cues of opinion or rhetoric (questions,
 * "I think", modal verbs), read with compromise's part-of-speech tagger. They enter the offline
 * classifier's vector (encoder-features.ts) and give the reasons people read (offline.ts).
 */

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

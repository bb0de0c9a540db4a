/**
 * Deterministic generated newsroom data for `bench size`: fact-checks, passages and claims of the
 * length real ones have (claims of 12 to 30 words, passages of 60 to 120 words, in sentences),
 * from a fixed vocabulary of topical words, so lexical and vector neighbourhoods look like real
 * ones (shared topic words, near-duplicates), and two runs store the very same rows.
 */

export function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SUBJECTS = [
  "the governor",
  "the senator",
  "the mayor",
  "the health ministry",
  "the city council",
  "a viral post",
  "the opposition leader",
  "the central bank",
  "the school board",
  "a campaign video",
  "the prime minister",
  "the union",
];
const VERBS = ["said", "claimed", "reported", "announced", "denied", "promised", "suggested", "tweeted"];
const TOPICS = [
  "unemployment",
  "vaccine",
  "inflation",
  "flood",
  "election",
  "budget",
  "crime",
  "immigration",
  "housing",
  "pension",
  "tariff",
  "wildfire",
  "hospital",
  "teacher",
  "refinery",
  "bridge",
  "drought",
  "subsidy",
  "border",
  "tax",
];
const WORDS =
  "rate rose fell doubled tripled percent million billion county state federal record lowest highest since year month week report data study survey official funding program children families workers farmers voters residents prices wages jobs cases deaths arrests permits homes rents loans schools clinics roads water power fuel grain exports imports deficit surplus debt growth".split(
    " ",
  );

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function sentence(r: () => number, topic: string, words: number): string {
  const out = [pick(r, SUBJECTS), pick(r, VERBS), "that", topic];
  while (out.length < words) out.push(r() < 0.15 ? String(Math.floor(r() * 2030)) : pick(r, WORDS));
  const s = out.join(" ");
  return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
}

/** The i-th generated fact-check, in the JSON Lines shape `factchecks import` reads (CheckThat!'s). */
export function factCheck(i: number) {
  const r = rng(1_000_003 + i);
  const topic = pick(r, TOPICS);
  const claim = sentence(r, topic, 12 + Math.floor(r() * 19));
  return { id: `size-${i}`, title: `Fact check ${i}: ${topic}`, claim };
}

/** The i-th generated document: one passage of 60 to 120 words. */
export function passageDocument(i: number) {
  const r = rng(2_000_003 + i);
  const topic = pick(r, TOPICS);
  const target = 60 + Math.floor(r() * 61);
  const sentences: string[] = [];
  let words = 0;
  while (words < target) {
    const n = 10 + Math.floor(r() * 12);
    sentences.push(sentence(r, topic, n));
    words += n;
  }
  return { id: `size-doc-${i}`, title: `Report ${i} on ${topic}`, text: sentences.join(" ") };
}

/** A query about stored text `text`: most of its words, a few replaced, as a reader rewords a claim. */
export function rewording(text: string, seed: number): string {
  const r = rng(3_000_003 + seed);
  return text
    .split(/\s+/)
    .filter(() => r() < 0.8)
    .map((w) => (r() < 0.1 ? pick(r, WORDS) : w))
    .join(" ");
}

/** The i-th claim of the evaluation run, with gold evidence to debate over. */
export function evalClaim(i: number) {
  const f = factCheck(100_000 + i);
  const d = passageDocument(100_000 + i);
  return {
    id: `size-eval-${i}`,
    claim: f.claim,
    label: ["TRUE", "HALF-TRUE", "FALSE"][i % 3]!,
    gold_evidence: [{ text: d.text.split(". ")[0]! }, { text: d.text.split(". ")[1] ?? d.text }],
  };
}

/** What an editor publishes from the i-th debate of `bench size`: its claim, a rating, a short explanation. */
export function benchFactCheck(claim: string, i: number) {
  const r = rng(3_000_003 + i);
  const explanation = Array.from({ length: 4 }, () => sentence(r, pick(r, TOPICS), 14 + Math.floor(r() * 10))).join(
    " ",
  );
  return {
    claim,
    rating: (["TRUE", "HALF-TRUE", "FALSE"] as const)[i % 3]!,
    textualRating: ["Accurate", "Missing context", "Mostly false"][i % 3]!,
    explanation,
    sources: [],
    claimant: `Speaker ${i % 300}`,
    claimantKind: "Person" as const,
    whereSaid: null,
    appearanceUrl: null,
    claimDate: null,
    showDebateLink: false,
    correctionNote: null,
  };
}

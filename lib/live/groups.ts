import { normalisedClaim } from "@/lib/matching/likelihood";

/*
 * Repeats of one claim within a session: the same words once case and punctuation go, or nearly
 * the same content words ("Unemployment fell to 3 percent" and "unemployment has fallen to 3
 * percent, folks"). Claims that matched the same earlier check are grouped too (lib/live/service.ts).
 */

// Words that carry no claim: a repeat that adds or drops them is the same claim.
const FILLER = new Set(
  (
    "a an the and or but so of to in on at for by with from as is are was were be been has have had do does did " +
    "i we you he she it they this that these those there here my our your his her its their " +
    "just really very now well folks look listen again said say says tell told know"
  ).split(" "),
);

/** The claim's content words, sorted and joined: equal keys are one claim. */
export function groupKeyOf(sentence: string): string {
  const words = normalisedClaim(sentence)
    .split(" ")
    .filter((w) => w && !FILLER.has(w));
  return [...new Set(words)].sort().join(" ");
}

/** A group key read once: its words, and its numbers (which must agree for two claims to be one). */
export type ParsedKey = { words: Set<string>; numbers: string };

export function parseKey(key: string): ParsedKey {
  const words = key.split(" ").filter(Boolean);
  return { words: new Set(words), numbers: words.filter((w) => /\d/.test(w)).join(" ") };
}

/** The share of content words two keys have in common (Jaccard). */
function overlap(x: ReadonlySet<string>, y: ReadonlySet<string>): number {
  if (!x.size || !y.size) return 0;
  let both = 0;
  for (const w of x) if (y.has(w)) both++;
  return both / (x.size + y.size - both);
}

/** At least this share of content words in common makes two sentences one claim; numbers must agree. */
const SAME_CLAIM = 0.75;

/** sameGroup on keys already parsed (the live service compares each sentence with many first cards). */
export function sameParsed(a: ParsedKey, b: ParsedKey): boolean {
  return a.numbers === b.numbers && overlap(a.words, b.words) >= SAME_CLAIM;
}

export function sameGroup(a: string, b: string): boolean {
  return a === b || sameParsed(parseKey(a), parseKey(b));
}

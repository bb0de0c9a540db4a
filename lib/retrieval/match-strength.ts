import type { SearchHit } from "./search";

/**
 * Below this cosine a passage that shares no word with the query is only distantly related in
 * meaning: a nonsense query against the demo corpus gives hits around 0, a related one well above.
 * Dense search always returns k passages, so without this mark a reader cannot tell a miss from a hit.
 */
export const WEAK_COSINE = 0.3;

/** No query word in the passage, and its meaning is not close either. */
export function isWeakMatch(hit: Pick<SearchHit, "dense" | "lexical">): boolean {
  return hit.lexical === null && (hit.dense === null || hit.dense.score < WEAK_COSINE);
}

/**
 * The query's words as the user wrote them and in their order, for the searched stems: "xyzzi" is
 * shown as "Xyzzy". A stem no typed word produced (should not happen) is shown as itself, last.
 */
export function wordsForStems(
  stems: readonly string[],
  words: ReadonlyArray<{ word: string; lexemes: readonly string[] }>,
): string[] {
  const wanted = new Set(stems);
  const covered = new Set<string>();
  const out: string[] = [];
  for (const w of words) {
    const fresh = w.lexemes.filter((l) => wanted.has(l) && !covered.has(l));
    if (!fresh.length) continue;
    fresh.forEach((l) => covered.add(l));
    out.push(w.word);
  }
  for (const s of stems) if (!covered.has(s)) out.push(s);
  return out;
}

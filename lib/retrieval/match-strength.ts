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
 * The query's words as the user wrote them, for the searched stems: "xyzzi" is shown as "Xyzzy".
 * A stem that no typed word produced (should not happen) is shown as itself.
 */
export function wordsForStems(stems: readonly string[], words: ReadonlyArray<{ word: string; lexemes: readonly string[] }>): string[] {
  const out: string[] = [];
  for (const stem of stems) {
    const typed = words.find((w) => w.lexemes.includes(stem))?.word ?? stem;
    if (!out.includes(typed)) out.push(typed);
  }
  return out;
}

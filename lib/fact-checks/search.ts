/**
 * What a reader typed in the fact-checks search box, as the words the list filters on
 * (db/queries/fact-checks.ts `listPublished`: every word, anywhere in the claim, the claimant, the
 * rating's words or the explanation, case ignored). Bounded so one request stays one cheap query:
 * at most `SEARCH_LIMITS.words` words of at most `SEARCH_LIMITS.wordChars` characters each.
 */
export const SEARCH_LIMITS = { chars: 200, words: 8, wordChars: 64 } as const;

export function searchWords(q: string | null | undefined): string[] {
  const words = (q ?? "")
    .slice(0, SEARCH_LIMITS.chars)
    .normalize("NFC")
    .split(/\s+/u)
    // Quotes around a phrase or a word are not part of it.
    .map((w) => w.replace(/^["'“”‘’«»]+|["'“”‘’«»]+$/gu, "").slice(0, SEARCH_LIMITS.wordChars))
    .filter((w) => w.length > 0);
  return [...new Set(words.map((w) => w.toLowerCase()))].slice(0, SEARCH_LIMITS.words);
}

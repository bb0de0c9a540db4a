/** The longest article body the ZoFia protocol reads (spec §6); other protocols keep 2,000 characters per claim. */
export const ARTICLE_MAX_CHARS = 20_000;
/** A news page is far below this; more is a file, an archive or a page that never ends. */
export const ARTICLE_MAX_BYTES = 5 * 1024 ** 2;
/** One article, one page: a slow site should fail while the journalist is still looking. */
export const ARTICLE_TIMEOUT_MS = 20_000;

/**
 * Cuts `text` to at most `max` characters at the last paragraph, sentence or word end that keeps
 * at least four fifths of it, so a cut article never ends mid-word.
 */
export function cutText(
  text: string,
  max = ARTICLE_MAX_CHARS,
): { text: string; truncated: boolean; originalChars: number } {
  const originalChars = text.length;
  if (text.length <= max) return { text, truncated: false, originalChars };
  const head = text.slice(0, max);
  const floor = Math.floor(max * 0.8);
  const at = [
    head.lastIndexOf("\n\n"),
    Math.max(head.lastIndexOf(". "), head.lastIndexOf(".\n")) + 1,
    head.lastIndexOf(" "),
  ].find((i) => i >= floor);
  return { text: (at !== undefined ? head.slice(0, at) : head).trimEnd(), truncated: true, originalChars };
}

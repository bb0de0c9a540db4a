/**
 * Corpus names appear in URLs (/corpora/<name>), CLI arguments and file listings, so they are
 * restricted to characters that need no escaping anywhere.
 */
export const CORPUS_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const CORPUS_NAME_RULE = "1 to 64 characters: letters, digits, - and _";

/** The reason a name is refused, or undefined when it is valid. */
export function corpusNameProblem(name: string): string | undefined {
  if (name.length === 0) return "Give the corpus a name.";
  if (name.length > 64) return `That name has ${name.length} characters; use at most 64.`;
  if (!CORPUS_NAME_PATTERN.test(name)) return `Use ${CORPUS_NAME_RULE} (no spaces).`;
  return undefined;
}

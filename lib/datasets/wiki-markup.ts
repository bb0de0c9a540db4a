/**
 * Wikipedia link markup as FEVEROUS ships it inside evidence sentences: `[[Target|shown text]]`
 * (and, for completeness, `[[Target]]`). A reader and an embedder should see the sentence as the
 * page shows it, so links are reduced to their text.
 */
export function stripWikiLinks(text: string): string {
  return text
    .replace(/\[\[([^\]|]*)\|([^\]]*)\]\]/g, "$2")
    .replace(/\[\[([^\]|]*)\]\]/g, (_, target: string) => target.replace(/_/g, " "));
}

import { GUIDELINES, markdownToSafeHtml } from "@/lib/untrusted/markdown";

/*
 * The annotation guidelines are Markdown written by admins, shown to annotators as HTML through the
 * shared renderer (lib/untrusted/markdown.ts, marked + sanitize-html, as the fact-checks' are):
 * headings, paragraphs, lists, bold, italic and inline code only; raw HTML shows as the text typed.
 */
export function guidelinesHtml(markdown: string): string {
  return markdownToSafeHtml(markdown, GUIDELINES);
}

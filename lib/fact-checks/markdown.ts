import { EXPLANATION, markdownToSafeHtml } from "@/lib/untrusted/markdown";

/*
 * An explanation is Markdown an editor wrote; readers get HTML through the shared renderer
 * (lib/untrusted/markdown.ts): only the elements and attributes of plain prose (no scripts, styles,
 * frames, event handlers or images), with links limited to http, https and mailto and marked nofollow.
 */
export function explanationHtml(markdown: string): string {
  return markdownToSafeHtml(markdown, EXPLANATION);
}

import { marked } from "marked";
import { EXPLANATION, markdownToSafeHtml } from "@/lib/untrusted/markdown";

/*
 * An explanation is Markdown an editor wrote; readers get HTML through the shared renderer
 * (lib/untrusted/markdown.ts): only the elements and attributes of plain prose (no scripts, styles,
 * frames, event handlers or images), with links limited to http, https and mailto and marked nofollow.
 */
export function explanationHtml(markdown: string): string {
  return markdownToSafeHtml(markdown, EXPLANATION);
}

type Token = { type: string; raw?: string; text?: string; href?: string; tokens?: Token[]; items?: Token[] };

/**
 * The explanation as plain text (feeds' `content_text`, where readers show it as is): the words the
 * editor wrote without Markdown's marks, paragraphs apart, list items on lines of their own, a link's
 * address after its words. Raw HTML in the Markdown is left out, as the sanitiser drops it from the page.
 */
export function explanationText(markdown: string): string {
  return blocks(marked.lexer(markdown) as Token[])
    .join("\n\n")
    .trim();
}

function blocks(tokens: Token[]): string[] {
  const out: string[] = [];
  for (const t of tokens) {
    if (t.type === "space" || t.type === "html" || t.type === "hr") continue;
    if (t.type === "list") out.push((t.items ?? []).map((i) => `- ${blocks(i.tokens ?? []).join(" ")}`).join("\n"));
    else if (t.type === "code") out.push(t.text ?? "");
    else if (t.type === "blockquote") out.push(blocks(t.tokens ?? []).join("\n\n"));
    else if (t.type === "table") out.push((t.raw ?? "").trim());
    else out.push(t.tokens ? inline(t.tokens) : (t.text ?? ""));
  }
  return out.filter((b) => b.trim() !== "");
}

function inline(tokens: Token[]): string {
  // Text between inline <script>/<style> tags is code, not words (the sanitiser drops it from the page too).
  let hidden = false;
  return tokens
    .map((t) => {
      if (t.type === "html") {
        if (/^<(script|style)\b/i.test(t.raw ?? "")) hidden = true;
        else if (/^<\/(script|style)\b/i.test(t.raw ?? "")) hidden = false;
        return "";
      }
      if (hidden) return "";
      if (t.type === "br") return "\n";
      if (t.type === "link") {
        const words = t.tokens ? inline(t.tokens) : (t.text ?? "");
        return t.href && t.href !== words ? `${words} (${t.href})` : words;
      }
      return t.tokens ? inline(t.tokens) : (t.text ?? "");
    })
    .join("");
}

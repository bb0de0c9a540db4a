import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";

/*
 * An explanation is Markdown an editor wrote; readers get HTML. marked turns it into HTML and
 * sanitize-html keeps only the elements and attributes of plain prose (no scripts, styles, frames,
 * event handlers or images), with links limited to http, https and mailto and marked nofollow.
 * The sanitiser is the control: whatever the Markdown (raw HTML included) the output passes it.
 */

const marked = new Marked({ gfm: true, breaks: false, async: false });

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "br",
    "h2",
    "h3",
    "h4",
    "strong",
    "em",
    "del",
    "code",
    "pre",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
    "hr",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
  ],
  allowedAttributes: { a: ["href", "title"], th: ["align"], td: ["align"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowProtocolRelative: false,
  // The page's own heading is the h1: an explanation's headings start one level below it.
  transformTags: {
    h1: "h2",
    h5: "h4",
    h6: "h4",
    a: sanitizeHtml.simpleTransform("a", { rel: "nofollow noopener", target: "_blank" }),
  },
  disallowedTagsMode: "discard",
};
OPTIONS.allowedAttributes = { ...OPTIONS.allowedAttributes, a: ["href", "title", "rel", "target"] };

export function explanationHtml(markdown: string): string {
  return sanitizeHtml(marked.parse(markdown) as string, OPTIONS);
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

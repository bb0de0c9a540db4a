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

import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";

/*
 * Markdown someone wrote (a fact-check's explanation, the annotation guidelines) turned into HTML a
 * page can show: marked parses it (GitHub-flavoured), sanitize-html keeps only the profile's
 * elements and attributes. The sanitiser is the control: whatever the Markdown (raw HTML
 * included), the output passes it. Each profile is one surface's allow-list.
 */

export type MarkdownProfile = {
  /** Raw HTML in the source: `sanitize` (dropped where not allowed) or `text` (shown as typed). */
  rawHtml: "sanitize" | "text";
  options: sanitizeHtml.IOptions;
};

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const parsers = {
  sanitize: new Marked({ gfm: true, breaks: false, async: false }),
  // Raw HTML becomes its own text: a <script> in the guidelines reads as "<script>", not as nothing.
  text: new Marked({
    gfm: true,
    breaks: false,
    async: false,
    renderer: {
      html: (token) => (token.block ? `<p>${escapeHtml(token.text.trim())}</p>` : escapeHtml(token.text)),
    },
  }),
};

export function markdownToSafeHtml(markdown: string, profile: MarkdownProfile): string {
  return sanitizeHtml(parsers[profile.rawHtml].parse(markdown) as string, profile.options);
}

/** A fact-check's explanation: prose, links (http, https, mailto; nofollow), tables. */
export const EXPLANATION: MarkdownProfile = {
  rawHtml: "sanitize",
  options: {
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
    allowedAttributes: { a: ["href", "title", "rel", "target"], th: ["align"], td: ["align"] },
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
  },
};

/**
 * The annotation guidelines: headings, paragraphs, lists, bold, italic and inline code, no
 * attributes at all (the allow-list of the hand-written parser this replaced). Headings sit below
 * the page's own: # is h3, ## h4, ### and deeper h5. A link keeps its words, not its address.
 */
export const GUIDELINES: MarkdownProfile = {
  rawHtml: "text",
  options: {
    allowedTags: ["p", "h3", "h4", "h5", "strong", "em", "code", "ul", "ol", "li"],
    allowedAttributes: {},
    transformTags: { h1: "h3", h2: "h4", h3: "h5", h4: "h5", h5: "h5", h6: "h5" },
    disallowedTagsMode: "discard",
  },
};

import { convert } from "html-to-text";
import { HTML_IN_PROCESS_MAX, parseInChild } from "@/lib/untrusted/bounded";
import { assertHtmlDepth } from "@/lib/untrusted/html-depth";
import { DOCUMENT_LIMITS, limitMessage, ParseLimitError, type ParseLimits } from "@/lib/untrusted/limits";
import type { DocumentInput } from "../types";

/*
 * Whole-file formats: one document per file. The id is the file's path relative to what the user
 * named, so re-ingesting the same folder matches the same documents.
 */

export class NoTextLayerError extends Error {}

export function readText(id: string, content: string): DocumentInput {
  return { id, text: content.replace(/^\uFEFF/, ""), title: undefined };
}

/** Markdown stays Markdown except for link and image syntax, which would only add noise to search. */
export function readMarkdown(id: string, content: string): DocumentInput {
  let body = content.replace(/^\uFEFF/, "");
  let title: string | undefined;
  const front = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(body);
  if (front) {
    body = body.slice(front[0].length);
    title = /^title:\s*["']?(.+?)["']?\s*$/m.exec(front[1]!)?.[1];
  }
  title ??= /^#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(body)?.[1] ?? /^(.+)\r?\n=+[ \t]*$/m.exec(body)?.[1];
  const text = body
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm, "$1");
  return { id, text, title: title?.trim() || undefined };
}

const HEADINGS = ["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({ selector, options: { uppercase: false } }));

// Plain data, so the same options reach the parsing child. html-to-text cuts input over 16 MiB by
// default without saying so; the document size limit (checked before reading) and the child's
// caps are the limits.
const HTML_OPTIONS = {
  wordwrap: false as const,
  limits: { maxInputLength: Number.MAX_SAFE_INTEGER },
  selectors: [
    { selector: "a", options: { ignoreHref: true } },
    { selector: "img", format: "skip" },
    { selector: "nav", format: "skip" },
    { selector: "script", format: "skip" },
    { selector: "style", format: "skip" },
    { selector: "table", format: "dataTable" },
    ...HEADINGS,
  ],
};

/**
 * The text of an HTML document or fragment. Small ones are read here after a nesting check; larger
 * ones in the bounded parsing child (lib/untrusted), so the server keeps answering while they parse
 * and a page built to exhaust memory is stopped.
 */
export async function htmlToText(html: string, name: string, limits: ParseLimits = DOCUMENT_LIMITS): Promise<string> {
  return (await readHtml(name, html, limits)).text;
}

/** The part of a page that holds its text, and its title. */
function splitHtml(html: string): { titleHtml?: string; bodyHtml: string } {
  const titleHtml = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  const bodyHtml = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html.replace(/<head[^>]*>[\s\S]*?<\/head>/i, "");
  return { titleHtml, bodyHtml };
}

/** One HTML document: its text and title, read under `limits` (see htmlToText). */
export async function readHtml(
  id: string,
  html: string,
  limits: ParseLimits = DOCUMENT_LIMITS,
): Promise<DocumentInput> {
  if (html.length >= HTML_IN_PROCESS_MAX) {
    const r = await parseInChild<{ text: string; title?: string }>(
      "html-text",
      { html, options: HTML_OPTIONS },
      id,
      limits,
    );
    return { id, text: r.text, title: r.title };
  }
  assertHtmlDepth(html, id, limits.maxDepth);
  const { titleHtml, bodyHtml } = splitHtml(html);
  const title = titleHtml ? convert(titleHtml, HTML_OPTIONS).replace(/\s+/g, " ").trim() : undefined;
  const text = convert(bodyHtml, HTML_OPTIONS);
  if (text.length > limits.maxChars) throw new ParseLimitError("chars", limitMessage(id, "chars", limits, text.length));
  return { id, text, title: title || undefined };
}

/**
 * Reads a PDF's text layer in the bounded parsing child (a small PDF can inflate to gigabytes);
 * a scanned PDF has none, and we say so rather than ingest nothing.
 */
export async function readPdf(
  id: string,
  data: Uint8Array,
  limits: ParseLimits = DOCUMENT_LIMITS,
): Promise<DocumentInput> {
  const r = await parseInChild<{ unreadable: string } | { pages: string[]; title?: string; numPages: number }>(
    "pdf",
    data,
    id,
    limits,
  );
  if ("unreadable" in r) throw new Error(`${id}: not a readable PDF (${r.unreadable})`);
  if (r.pages.every((p) => p === "")) {
    throw new NoTextLayerError(
      `${id}: the PDF has no text layer (${r.numPages} page${r.numPages === 1 ? "" : "s"} of images, e.g. a scan); run OCR on it first and ingest the result`,
    );
  }
  return { id, text: r.pages.filter(Boolean).join("\n\n"), title: r.title, metadata: { pages: r.numPages } };
}

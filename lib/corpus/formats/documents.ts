import { convert } from "html-to-text";
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

export function htmlToText(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: "a", options: { ignoreHref: true } },
      { selector: "img", format: "skip" },
      { selector: "nav", format: "skip" },
      { selector: "script", format: "skip" },
      { selector: "style", format: "skip" },
      { selector: "table", format: "dataTable" },
      ...HEADINGS,
    ],
  });
}

export function readHtml(id: string, html: string): DocumentInput {
  const rawTitle = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  const title = rawTitle ? htmlToText(rawTitle).replace(/\s+/g, " ").trim() : undefined;
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html.replace(/<head[^>]*>[\s\S]*?<\/head>/i, "");
  return { id, text: htmlToText(body), title: title || undefined };
}

/** Reads a PDF's text layer; a scanned PDF has none, and we say so rather than ingest nothing. */
export async function readPdf(id: string, data: Uint8Array): Promise<DocumentInput> {
  const { getDocumentProxy, extractText } = await import("unpdf");
  let pdf;
  try {
    pdf = await getDocumentProxy(new Uint8Array(data));
  } catch (e) {
    throw new Error(`${id}: not a readable PDF (${(e as Error).message})`);
  }
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    const pages = text.map((t) => t.trim());
    if (pages.every((p) => p === "")) {
      throw new NoTextLayerError(
        `${id}: the PDF has no text layer (${pdf.numPages} page${pdf.numPages === 1 ? "" : "s"} of images, e.g. a scan); run OCR on it first and ingest the result`,
      );
    }
    let title: string | undefined;
    try {
      const meta = await pdf.getMetadata();
      const t = (meta.info as { Title?: unknown } | undefined)?.Title;
      if (typeof t === "string" && t.trim()) title = t.trim();
    } catch {
      // Metadata is optional; the text is what matters.
    }
    return { id, text: pages.filter(Boolean).join("\n\n"), title, metadata: { pages: pdf.numPages } };
  } finally {
    await pdf.destroy().catch(() => {});
  }
}

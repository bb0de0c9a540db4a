import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
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

// Plain data, so the same options reach a worker thread. html-to-text cuts input over 16 MiB by
// default without saying so; the document size limit (checked before reading) is the only cap.
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

export function htmlToText(html: string): string {
  return convert(html, HTML_OPTIONS);
}

/** The part of a page that holds its text, and its title. Kept free of closures: it also runs in a worker. */
function splitHtml(html: string): { titleHtml?: string; bodyHtml: string } {
  const titleHtml = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  const bodyHtml = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html.replace(/<head[^>]*>[\s\S]*?<\/head>/i, "");
  return { titleHtml, bodyHtml };
}

export function readHtml(id: string, html: string): DocumentInput {
  const { titleHtml, bodyHtml } = splitHtml(html);
  const title = titleHtml ? htmlToText(titleHtml).replace(/\s+/g, " ").trim() : undefined;
  return { id, text: htmlToText(bodyHtml), title: title || undefined };
}

/** Pages above this are parsed in a worker thread: parsing 40 MB took seconds of a blocked event loop. */
export const HTML_WORKER_THRESHOLD = 256 * 1024;

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { convert } = require(workerData.htmlToText);
const split = ${splitHtml.toString()};
parentPort.once("message", (html) => {
  try {
    const { titleHtml, bodyHtml } = split(html);
    const title = titleHtml ? convert(titleHtml, workerData.options).replace(/\\s+/g, " ").trim() : undefined;
    parentPort.postMessage({ text: convert(bodyHtml, workerData.options), title: title || undefined });
  } catch (e) {
    parentPort.postMessage({ error: String(e && e.message || e) });
  }
});
`;

function htmlToTextPath(): string {
  // The package is resolved where the app is installed, not from the bundle Next.js built.
  const root = process.env.COUNTERPOINT_ROOT ?? process.cwd();
  return createRequire(path.join(root, "package.json")).resolve("html-to-text");
}

/** readHtml for any size: large pages off the main thread, so the server keeps answering while they parse. */
export async function readHtmlAsync(id: string, html: string): Promise<DocumentInput> {
  if (html.length < HTML_WORKER_THRESHOLD) return readHtml(id, html);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { htmlToText: htmlToTextPath(), options: HTML_OPTIONS },
  });
  try {
    const result = await new Promise<{ text?: string; title?: string; error?: string }>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`the HTML parser stopped (exit code ${code})`)));
      worker.postMessage(html);
    });
    if (result.error !== undefined) throw new Error(`${id}: the HTML could not be read (${result.error})`);
    return { id, text: result.text ?? "", title: result.title };
  } finally {
    await worker.terminate();
  }
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

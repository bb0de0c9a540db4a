import { ArticleError, fetchArticle, type FetchArticleOptions } from "@/lib/article";
import { decodeText, NotTextError } from "@/lib/corpus/formats/decode";
import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES, uploadTooBigMessage } from "./form";
import { htmlToText, NoTextLayerError, readMarkdown, readPdf } from "@/lib/corpus/formats/documents";
import { PAGE_LIMITS, ParseLimitError } from "@/lib/untrusted/limits";

/**
 * Where a text to rank comes from: pasted, an uploaded file (.txt, .md, .html, .pdf, subtitles; the same
 * readers as corpus ingestion), or a web page fetched through the guarded fetcher (lib/article:
 * address rules, redirects re-checked, size and time limits). All of it is untrusted text.
 */

/** A long speech or debate transcript is 50,000-100,000 characters; more is refused (a file's reading stops there). */
export const TEXT_MAX_CHARS = PAGE_LIMITS.maxChars;
export { UPLOAD_EXTENSIONS };

export class TextInputError extends Error {}

export type TextSource = { text: string; title: string | null; date: string | null; url: string | null };

export async function textFromUpload(name: string, bytes: Uint8Array): Promise<TextSource> {
  const ext = /\.[a-z0-9]+$/i.exec(name)?.[0]?.toLowerCase() ?? "";
  if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(ext))
    throw new TextInputError(
      `${name}: only ${UPLOAD_EXTENSIONS.join(", ")} files can be read. Save the document in one of these, or paste its text.`,
    );
  if (bytes.byteLength > UPLOAD_MAX_BYTES) throw new TextInputError(uploadTooBigMessage(name));
  try {
    if (ext === ".pdf") {
      const doc = await readPdf(name, bytes, PAGE_LIMITS);
      return { text: doc.text, title: doc.title ?? null, date: null, url: null };
    }
    const { text } = decodeText(Buffer.from(bytes), name);
    if (ext === ".html" || ext === ".htm")
      return { text: await htmlToText(text, name, PAGE_LIMITS), title: null, date: null, url: null };
    if (ext === ".md") {
      const doc = readMarkdown(name, text);
      return { text: doc.text, title: doc.title ?? null, date: null, url: null };
    }
    return { text: text.replace(/^\uFEFF/, ""), title: null, date: null, url: null };
  } catch (e) {
    if (e instanceof NotTextError || e instanceof NoTextLayerError || e instanceof ParseLimitError)
      throw new TextInputError(e.message);
    throw new TextInputError(`${name} could not be read (${(e as Error).message}). Paste its text instead.`);
  }
}

export async function textFromUrl(url: string, opts: FetchArticleOptions = {}): Promise<TextSource> {
  try {
    const a = await fetchArticle(url, { maxChars: TEXT_MAX_CHARS, ...opts });
    return { text: a.text, title: a.title || null, date: a.publishedDate, url: a.finalUrl };
  } catch (e) {
    if (e instanceof ArticleError) throw new TextInputError(e.message);
    throw e;
  }
}

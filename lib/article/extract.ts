import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { ARTICLE_MAX_CHARS, cutText } from "./limits";

/** What a journalist gets back from a news page: the readable parts only, ready for the form. */
export type ExtractedArticle = {
  title: string;
  /** Paragraphs separated by blank lines; at most ARTICLE_MAX_CHARS characters. */
  text: string;
  /** YYYY-MM-DD when the page states when it was published, else null. */
  publishedDate: string | null;
  byline: string | null;
  siteName: string | null;
  /** True when the body was longer than the limit and was cut; `originalChars` says how long it was. */
  truncated: boolean;
  originalChars: number;
};

/** A page that holds no article we can read, with what to do instead. */
export class ArticleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArticleError";
  }
}

const BLOCKS = "h1, h2, h3, h4, h5, h6, p, li, blockquote, pre, figcaption, td";
const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

/** Block by block, so paragraphs survive (Readability's textContent runs them together). */
function paragraphs(html: string): string {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const out: string[] = [];
  for (const el of Array.from(document.querySelectorAll(BLOCKS)) as Element[]) {
    // A paragraph inside a list item or quote is read once, as part of the outer block's own children.
    if (el.parentElement?.closest(BLOCKS)) continue;
    const t = clean(el.textContent);
    if (t) out.push(t);
  }
  return out.length ? out.join("\n\n") : clean(document.body?.textContent);
}

/** A date the page states, as YYYY-MM-DD; only dates a calendar has (no 2024-02-31). */
export function isoDay(raw: string | null | undefined): string | null {
  const s = (raw ?? "").trim();
  if (!s) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  const d = m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!)) : new Date(s);
  if (Number.isNaN(d.getTime())) return null;
  const day = m ? `${m[1]}-${m[2]}-${m[3]}` : d.toISOString().slice(0, 10);
  if (m && d.toISOString().slice(0, 10) !== day) return null;
  const year = Number(day.slice(0, 4));
  return year >= 1900 && year <= 2200 ? day : null;
}

/** The publication date from the places news sites put it, most specific first. */
function pageDate(document: Document, readabilityDate: string | null | undefined): string | null {
  const meta = (sel: string) => document.querySelector(sel)?.getAttribute("content");
  const candidates = [
    readabilityDate,
    meta('meta[property="article:published_time"]'),
    meta('meta[name="article:published_time"]'),
    meta('meta[itemprop="datePublished"]'),
    meta('meta[name="date"]'),
    meta('meta[name="pubdate"]'),
    meta('meta[name="dc.date"]'),
    meta('meta[name="DC.date.issued"]'),
    document.querySelector("time[datetime]")?.getAttribute("datetime"),
  ];
  for (const c of candidates) {
    const day = isoDay(c);
    if (day) return day;
  }
  return null;
}

/**
 * The readable article of an HTML page (Mozilla Readability, the library behind Firefox's reader
 * view): headline, body text cut to the ZoFia limit, and the publication date if the page states it.
 * Throws ArticleError when the page holds no article text (a front page, a login wall, a video).
 */
export function extractArticle(html: string, pageUrl: string, max = ARTICLE_MAX_CHARS): ExtractedArticle {
  const { document } = parseHTML(html);
  // Readability changes the document it reads; the date is taken first from the untouched page.
  const fallbackTitle = clean(
    document.querySelector('meta[property="og:title"]')?.getAttribute("content") ??
      document.querySelector("title")?.textContent,
  );
  const fallbackDate = pageDate(document, null);
  let parsed: ReturnType<Readability<string>["parse"]> = null;
  try {
    // linkedom has no base URL of its own; Readability resolves links against documentURI.
    Object.defineProperty(document, "documentURI", { value: pageUrl, configurable: true });
    parsed = new Readability(document as unknown as Document, { charThreshold: 200 }).parse();
  } catch {
    parsed = null;
  }
  const text = parsed?.content ? paragraphs(parsed.content) : "";
  if (!parsed || text.length < 200) {
    throw new ArticleError(
      `${hostOf(pageUrl)}: no article text was found on this page (it may be a front page, a video, or behind a login). Open the article itself, or paste its text into the form`,
    );
  }
  const cut = cutText(text, max);
  return {
    title: clean(parsed.title) || fallbackTitle,
    text: cut.text,
    publishedDate: isoDay(parsed.publishedTime) ?? fallbackDate,
    byline: clean(parsed.byline) || null,
    siteName: clean(parsed.siteName) || null,
    truncated: cut.truncated,
    originalChars: cut.originalChars,
  };
}

function hostOf(url: string) {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

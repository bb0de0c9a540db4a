import { parseInChild } from "@/lib/untrusted/bounded";
import { PAGE_LIMITS, ParseLimitError } from "@/lib/untrusted/limits";
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

const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

/** What the parsing child (lib/untrusted/parse-child.mjs, kind "article-dom") reads from a page. */
type ArticleDom = {
  found: boolean;
  title: string;
  text: string;
  publishedTime: string | null;
  byline: string | null;
  siteName: string | null;
  fallbackTitle: string;
  /** Dates the page states in its meta tags and <time>, most specific first. */
  dates: Array<string | null>;
};

/** A page is parsed in a child with these caps: a 5 MiB page nested or bloated to exhaust the server stops there. */
const ARTICLE_PARSE_LIMITS = { ...PAGE_LIMITS, maxChars: Number.MAX_SAFE_INTEGER, maxMemoryMb: 512 };

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

/**
 * The readable article of an HTML page (Mozilla Readability, the library behind Firefox's reader
 * view): headline, body text cut to the ZoFia limit, and the publication date if the page states it.
 * Throws ArticleError when the page holds no article text (a front page, a login wall, a video).
 */
export async function extractArticle(
  html: string,
  pageUrl: string,
  max = ARTICLE_MAX_CHARS,
): Promise<ExtractedArticle> {
  let dom: ArticleDom;
  try {
    dom = await parseInChild<ArticleDom>("article-dom", { html, pageUrl }, hostOf(pageUrl), ARTICLE_PARSE_LIMITS);
  } catch (e) {
    if (e instanceof ParseLimitError) throw new ArticleError(`${e.message.replace(/\.$/, "")}`);
    throw e;
  }
  if (!dom.found || dom.text.length < 200) {
    throw new ArticleError(
      `${hostOf(pageUrl)}: no article text was found on this page (it may be a front page, a video, or behind a login). Open the article itself, or paste its text into the form`,
    );
  }
  const cut = cutText(dom.text, max);
  return {
    title: dom.title || dom.fallbackTitle,
    text: cut.text,
    publishedDate: [dom.publishedTime, ...dom.dates].map(isoDay).find((d) => d !== null) ?? null,
    byline: dom.byline,
    siteName: dom.siteName,
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

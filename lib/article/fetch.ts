import { decodeText, htmlDeclaredCharset, NotTextError } from "@/lib/corpus/formats/decode";
import { getConfig } from "@/lib/config";
import type { AllowList } from "@/lib/net/address-policy";
import { FetchError, safeFetch, type Resolver } from "@/lib/net/safe-fetch";
import { ArticleError, extractArticle, type ExtractedArticle } from "./extract";
import { ARTICLE_MAX_BYTES, ARTICLE_MAX_CHARS, ARTICLE_TIMEOUT_MS } from "./limits";

export type FetchArticleOptions = {
  /** Default: FETCH_ALLOW_HOSTS, the same allow-list URL ingestion uses. */
  allow?: AllowList;
  /** DNS, replaceable in tests so they never leave loopback. */
  resolve?: Resolver;
  maxBytes?: number;
  timeoutMs?: number;
  maxChars?: number;
  signal?: AbortSignal;
};

export type FetchedArticle = ExtractedArticle & { url: string; finalUrl: string };

/**
 * Fetches a news page through the guarded fetcher (lib/net/safe-fetch: the SSRF rules of URL
 * ingestion, every redirect re-checked) and extracts its article. Every refusal is an
 * ArticleError in words a journalist can act on; nothing is stored.
 */
export async function fetchArticle(url: string, opts: FetchArticleOptions = {}): Promise<FetchedArticle> {
  const maxBytes = opts.maxBytes ?? ARTICLE_MAX_BYTES;
  let finalUrl = url;
  let html: string;
  try {
    const res = await safeFetch(url.trim(), {
      allow: opts.allow ?? getConfig().fetch.allow,
      resolve: opts.resolve,
      timeoutMs: opts.timeoutMs ?? ARTICLE_TIMEOUT_MS,
      maxBytes,
      signal: opts.signal,
      headers: { accept: "text/html, application/xhtml+xml;q=0.9, */*;q=0.1" },
    });
    finalUrl = res.url;
    const host = new URL(res.url).host;
    if (res.status < 200 || res.status > 299) {
      res.cancel();
      const why =
        res.status === 404
          ? " (no such page)"
          : res.status === 401 || res.status === 403
            ? " (the page is not public, or the site refuses automated readers)"
            : res.status >= 500
              ? " (the site has a problem; try again later)"
              : "";
      throw new ArticleError(
        `${host}: the site answered ${res.status}${res.statusText ? ` ${res.statusText}` : ""}${why}. Paste the article's text instead`,
      );
    }
    const type = (res.headers["content-type"] ?? "").toLowerCase();
    if (type && !/^(text\/html|application\/xhtml\+xml)/.test(type)) {
      res.cancel();
      throw new ArticleError(
        `${host}: this address is not a web page but ${type.split(";")[0]}; only news pages (HTML) can be read. For a PDF, copy its text into the form`,
      );
    }
    const data = await res.body();
    const declared = /charset\s*=\s*"?([\w.:-]+)/i.exec(type)?.[1] ?? htmlDeclaredCharset(data);
    html = decodeText(data, host, declared).text;
  } catch (e) {
    if (e instanceof ArticleError) throw e;
    if (e instanceof FetchError) {
      if (e.detail) console.warn(`[article] ${url}: ${e.reason} (${e.detail})`);
      if (e.reason === "too-large")
        throw new ArticleError(
          `${safeHost(url)}: the page is larger than ${sizeText(maxBytes)}, far more than a news article; paste the article's text instead`,
        );
      throw new ArticleError(e.message);
    }
    if (e instanceof NotTextError)
      throw new ArticleError(`${safeHost(url)}: the page is not readable text; paste the article's text instead`);
    throw e;
  }
  return { ...(await extractArticle(html, finalUrl, opts.maxChars ?? ARTICLE_MAX_CHARS)), url, finalUrl };
}

function sizeText(bytes: number) {
  return bytes >= 1024 ** 2 ? `${Math.round((bytes / 1024 ** 2) * 10) / 10} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

function safeHost(url: string) {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

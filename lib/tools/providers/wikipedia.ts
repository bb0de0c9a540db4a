import { z } from "zod";
import { finish } from "../filter";
import { allowConfiguredHost, joinUrl, plainText, requestJson, webUrl, type HttpDeps } from "../http";
import { PROVIDER_LABELS, type SearchProvider } from "../types";

export const WIKIPEDIA_DEFAULT_BASE_URL = "https://en.wikipedia.org";

/** MediaWiki REST search (GET /w/rest.php/v1/search/page). */
export const searchAnswer = z.object({
  pages: z.array(
    z.object({
      id: z.number().int(),
      key: z.string().min(1),
      title: z.string(),
      excerpt: z.string().nullish(),
      description: z.string().nullish(),
    }),
  ),
});

/** Wikimedia REST summary (GET /api/rest_v1/page/summary/{title}). */
export const summaryAnswer = z.object({
  title: z.string(),
  extract: z.string().default(""),
  revision: z.union([z.string(), z.number()]).nullish(),
  timestamp: z.string().nullish(),
  content_urls: z.object({ desktop: z.object({ page: webUrl }) }).optional(),
});

/**
 * Search, then each hit's summary (its lead paragraph) as the text. An article is its current
 * revision, not something published on a date: the revision and its time are recorded, and the
 * claim date cannot bound it (dateBound "not-supported").
 */
export function wikipediaProvider(cfg: { baseURL?: string }, deps: HttpDeps = {}): SearchProvider {
  const base = cfg.baseURL ?? WIKIPEDIA_DEFAULT_BASE_URL;
  const allow = allowConfiguredHost(deps.allow, cfg.baseURL);
  const http = { ...deps, allow };
  return {
    id: "wikipedia",
    live: true,
    label: PROVIDER_LABELS.wikipedia,
    async search(request, opts = {}) {
      const params = new URLSearchParams({ q: request.query, limit: String(request.k) });
      const found = await requestJson(
        "wikipedia",
        { url: `${joinUrl(base, "/w/rest.php/v1/search/page")}?${params}`, signal: opts.signal },
        searchAnswer,
        http,
      );
      const results = [];
      for (const page of found.pages.slice(0, request.k)) {
        const summary = await requestJson(
          "wikipedia",
          { url: joinUrl(base, `/api/rest_v1/page/summary/${encodeURIComponent(page.key)}`), signal: opts.signal },
          summaryAnswer,
          http,
        );
        results.push({
          title: summary.title,
          url: summary.content_urls?.desktop.page ?? joinUrl(base, `/wiki/${encodeURIComponent(page.key)}`),
          text: plainText(summary.extract) || plainText(page.excerpt ?? ""),
          publishedAt: null,
          source: {
            kind: "wikipedia" as const,
            pageId: page.id,
            revision: summary.revision == null ? null : String(summary.revision),
            lastEdited: summary.timestamp ?? null,
          },
        });
      }
      const out = finish({ ...request, before: undefined }, results, false);
      return { ...out, dateBound: request.before ? "not-supported" : "none-requested" };
    },
  };
}

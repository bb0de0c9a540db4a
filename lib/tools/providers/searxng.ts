import { z } from "zod";
import { finish } from "../filter";
import { allowConfiguredHost, joinUrl, plainText, requestJson, webUrl, type HttpDeps } from "../http";
import { PROVIDER_LABELS, type SearchProvider } from "../types";

/** GET /search?format=json (docs.searxng.org/dev/search_api). `content` and `publishedDate` are often missing or null. */
const searxAnswer = z.object({
  query: z.string().optional(),
  results: z.array(
    z.object({
      title: z.string().default(""),
      url: webUrl,
      content: z.string().nullish(),
      publishedDate: z.string().nullish(),
    }),
  ),
});

/** Self-hosted, no key; it has no absolute date bound, so results dated after the claim are dropped here. */
export function searxngProvider(cfg: { baseURL: string }, deps: HttpDeps = {}): SearchProvider {
  const allow = allowConfiguredHost(deps.allow, cfg.baseURL);
  return {
    id: "searxng",
    live: true,
    label: PROVIDER_LABELS.searxng,
    async search(request, opts = {}) {
      const params = new URLSearchParams({ q: request.query, format: "json", safesearch: "0" });
      const answer = await requestJson(
        "searxng",
        { url: `${joinUrl(cfg.baseURL, "/search")}?${params}`, signal: opts.signal },
        searxAnswer,
        { ...deps, allow },
      );
      const seen = new Set<string>();
      const unique = answer.results.filter((r) => !seen.has(r.url) && seen.add(r.url));
      return finish(
        request,
        unique.map((r) => ({
          title: plainText(r.title) || r.url,
          url: r.url,
          text: plainText(r.content ?? ""),
          publishedAt: r.publishedDate ?? null,
          source: { kind: "web" as const },
        })),
        false,
      );
    },
  };
}

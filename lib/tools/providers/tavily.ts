import { z } from "zod";
import { finish, ymd } from "../filter";
import { allowConfiguredHost, joinUrl, plainText, requestJson, webUrl, type HttpDeps } from "../http";
import { PROVIDER_LABELS, type SearchProvider } from "../types";

export const TAVILY_DEFAULT_BASE_URL = "https://api.tavily.com";

/** POST /search (docs.tavily.com): only the fields we read are required; extra fields are ignored. */
const tavilyAnswer = z.object({
  query: z.string().optional(),
  results: z.array(
    z.object({
      title: z.string(),
      url: webUrl,
      content: z.string(),
      score: z.number().optional(),
      published_date: z.string().nullish(),
    }),
  ),
});

export function tavilyProvider(cfg: { apiKey: string; baseURL?: string }, deps: HttpDeps = {}): SearchProvider {
  const base = cfg.baseURL ?? TAVILY_DEFAULT_BASE_URL;
  const allow = allowConfiguredHost(deps.allow, cfg.baseURL);
  return {
    id: "tavily",
    live: true,
    label: PROVIDER_LABELS.tavily,
    async search(request, opts = {}) {
      const answer = await requestJson(
        "tavily",
        {
          url: joinUrl(base, "/search"),
          method: "POST",
          headers: { authorization: `Bearer ${cfg.apiKey}` },
          body: {
            query: request.query,
            max_results: request.k,
            search_depth: "basic",
            include_answer: false,
            include_raw_content: false,
            ...(request.before ? { end_date: ymd(request.before) } : {}),
            ...(request.excludeDomains.length ? { exclude_domains: request.excludeDomains } : {}),
          },
          signal: opts.signal,
        },
        tavilyAnswer,
        { ...deps, allow },
      );
      return finish(
        request,
        answer.results.map((r) => ({
          title: plainText(r.title),
          url: r.url,
          text: plainText(r.content),
          publishedAt: r.published_date ?? null,
          source: { kind: "web" as const },
        })),
        true,
      );
    },
  };
}

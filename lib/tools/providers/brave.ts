import { z } from "zod";
import { finish, ymd } from "../filter";
import { allowConfiguredHost, joinUrl, plainText, requestJson, webUrl, type HttpDeps } from "../http";
import { PROVIDER_LABELS, type SearchProvider } from "../types";

export const BRAVE_DEFAULT_BASE_URL = "https://api.search.brave.com";
/** Brave's freshness range needs a start; this is before any page it indexes. */
const FRESHNESS_FROM = "1990-01-01";

/** GET /res/v1/web/search: `web` is absent when nothing matched, which is an empty answer, not an error. */
const braveAnswer = z.object({
  type: z.literal("search").optional(),
  web: z
    .object({
      results: z.array(
        z.object({
          title: z.string(),
          url: webUrl,
          description: z.string().default(""),
          /** ISO date of the page when Brave knows it; `age` is the same for humans ("2 days ago"). */
          page_age: z.string().nullish(),
        }),
      ),
    })
    .optional(),
});

export function braveProvider(cfg: { apiKey: string; baseURL?: string }, deps: HttpDeps = {}): SearchProvider {
  const base = cfg.baseURL ?? BRAVE_DEFAULT_BASE_URL;
  const allow = allowConfiguredHost(deps.allow, cfg.baseURL);
  return {
    id: "brave",
    live: true,
    label: PROVIDER_LABELS.brave,
    async search(request, opts = {}) {
      const params = new URLSearchParams({
        q: request.query,
        count: String(request.excludeDomains.length ? 20 : request.k),
        result_filter: "web",
        text_decorations: "false",
      });
      if (request.before) params.set("freshness", `${FRESHNESS_FROM}to${ymd(request.before)}`);
      const answer = await requestJson(
        "brave",
        {
          url: `${joinUrl(base, "/res/v1/web/search")}?${params}`,
          headers: { "x-subscription-token": cfg.apiKey },
          signal: opts.signal,
        },
        braveAnswer,
        { ...deps, allow },
      );
      return finish(
        request,
        (answer.web?.results ?? []).map((r) => ({
          title: plainText(r.title),
          url: r.url,
          text: plainText(r.description),
          publishedAt: r.page_age ?? null,
          source: { kind: "web" as const },
        })),
        true,
      );
    },
  };
}

import { allowConfiguredHost, joinUrl, plainText, requestJson, type HttpDeps } from "@/lib/tools/http";
// The answers are read with the search tool's own schemas: one description of the Wikipedia API.
import { searchAnswer, summaryAnswer, WIKIPEDIA_DEFAULT_BASE_URL } from "@/lib/tools/providers/wikipedia";
import type { WikiProvider } from "./types";

/**
 * The same endpoints as the Wikipedia search tool (lib/tools/providers/wikipedia.ts), split in
 * two so the protocol can embed the senses before fetching one summary. The paper sets no date
 * bound on Wikipedia: the revision read is recorded instead.
 */
export function wikipediaRestWiki(cfg: { baseURL?: string }, deps: HttpDeps = {}): WikiProvider {
  const base = cfg.baseURL ?? WIKIPEDIA_DEFAULT_BASE_URL;
  const http = { ...deps, allow: allowConfiguredHost(deps.allow, cfg.baseURL) };
  return {
    id: "wikipedia-rest",
    live: true,
    label: "Wikipedia (current revision)",
    async candidates(keyword, opts = {}) {
      const params = new URLSearchParams({ q: keyword, limit: String(opts.limit ?? 5) });
      const found = await requestJson(
        "wikipedia",
        { url: `${joinUrl(base, "/w/rest.php/v1/search/page")}?${params}`, signal: opts.signal },
        searchAnswer,
        http,
      );
      return found.pages.map((p) => ({
        title: p.title,
        key: p.key,
        description: plainText(p.description ?? "") || plainText(p.excerpt ?? ""),
      }));
    },
    async summary(candidate, opts = {}) {
      const s = await requestJson(
        "wikipedia",
        { url: joinUrl(base, `/api/rest_v1/page/summary/${encodeURIComponent(candidate.key)}`), signal: opts.signal },
        summaryAnswer,
        http,
      );
      return {
        title: s.title,
        extract: plainText(s.extract),
        url: s.content_urls?.desktop.page ?? joinUrl(base, `/wiki/${encodeURIComponent(candidate.key)}`),
        revision: s.revision == null ? null : String(s.revision),
        lastEdited: s.timestamp ?? null,
      };
    },
  };
}

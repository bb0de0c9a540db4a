import type { Database } from "@/db/client";
import { search, SearchError, type SearchMode } from "@/lib/retrieval/search";
import { SearchToolError } from "../errors";
import { finish } from "../filter";
import { STAND_IN_LABEL, MAX_K, type SearchProvider } from "../types";

/**
 * The offline default: the newsroom's own corpus searched through the product's one retrieval
 * function, answered in the web providers' shape but always `live: false` and labelled, so no
 * page, record or report can pass corpus passages off as a web search.
 */
export function corpusStandInProvider(db: Database, cfg: { corpus?: string; mode?: SearchMode }): SearchProvider {
  const mode = cfg.mode ?? "lexical";
  return {
    id: "corpus-standin",
    live: false,
    label: STAND_IN_LABEL,
    async search(request) {
      let hits;
      try {
        // Over-fetch so excluded domains still leave k results when the corpus has them.
        const k = request.excludeDomains.length ? Math.min(MAX_K * 5, request.k * 5) : request.k;
        ({ hits } = await search(db, { text: request.query, corpus: cfg.corpus, before: request.before, k, mode, highlight: false }));
      } catch (e) {
        if (e instanceof SearchError) throw new SearchToolError("corpus-standin", "request", `The corpus stand-in could not search: ${e.message}`);
        throw e;
      }
      return finish(
        request,
        hits.map((h) => ({
          title: h.document.title ?? h.document.externalId,
          url: h.document.url,
          text: h.text,
          publishedAt: h.document.publishedAt,
          source: { kind: "corpus" as const, corpus: h.corpus.name, passageId: h.passageId, passageExternalId: h.passageExternalId, documentId: h.document.id },
        })),
        true,
      );
    },
  };
}

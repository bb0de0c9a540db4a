import type { Database } from "@/db/client";
import type { Embedder } from "@/lib/embeddings/registry";
import { search, SearchError, type SearchMode } from "@/lib/retrieval/search";
import { SearchToolError } from "../errors";
import { finish } from "../filter";
import { MAX_K, PROVIDER_LABELS, type SearchProvider } from "../types";

/**
 * The offline default: the newsroom's own corpus searched through the product's one retrieval
 * function, answered in the web providers' shape but always `live: false` and labelled, so no
 * page, record or report can pass corpus passages off as a web search.
 */
export function corpusStandInProvider(
  db: Database,
  cfg: { corpus?: string; mode?: SearchMode; embedder?: Embedder },
): SearchProvider {
  return corpusSearch(db, "corpus-standin", { ...cfg, mode: cfg.mode ?? "lexical" });
}

/**
 * The debate's corpus as a tool in its own right (Tool-MAD's RAG agent: dense by default). Not
 * live either, but not a stand-in: it is the evidence the protocol means that agent to read.
 */
export function corpusProvider(
  db: Database,
  cfg: { corpus?: string; mode?: SearchMode; embedder?: Embedder },
): SearchProvider {
  return corpusSearch(db, "corpus", { ...cfg, mode: cfg.mode ?? "dense" });
}

function corpusSearch(
  db: Database,
  id: "corpus" | "corpus-standin",
  cfg: { corpus?: string; mode: SearchMode; embedder?: Embedder },
): SearchProvider {
  const { mode } = cfg;
  return {
    id,
    live: false,
    label: PROVIDER_LABELS[id],
    async search(request) {
      let hits;
      try {
        // Over-fetch so excluded domains still leave k results when the corpus has them.
        const k = request.excludeDomains.length ? Math.min(MAX_K * 5, request.k * 5) : request.k;
        ({ hits } = await search(db, {
          text: request.query,
          corpus: cfg.corpus,
          before: request.before,
          k,
          mode,
          embedder: cfg.embedder,
          highlight: false,
        }));
      } catch (e) {
        if (e instanceof SearchError)
          throw new SearchToolError(
            id,
            "request",
            `${id === "corpus" ? "The corpus search" : "The corpus stand-in"} could not search: ${e.message}`,
          );
        throw e;
      }
      return finish(
        request,
        hits.map((h) => ({
          title: h.document.title ?? h.document.externalId,
          url: h.document.url,
          text: h.text,
          publishedAt: h.document.publishedAt,
          source: {
            kind: "corpus" as const,
            corpus: h.corpus.name,
            passageId: h.passageId,
            passageExternalId: h.passageExternalId,
            documentId: h.document.id,
          },
        })),
        true,
      );
    },
  };
}

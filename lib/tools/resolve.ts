import { z } from "zod";
import type { Database } from "@/db/client";
import type { AppConfig, SearchConfig } from "@/lib/config";
import type { SearchMode } from "@/lib/retrieval/search";
import { PROVIDER_NAMES } from "./errors";
import type { HttpDeps } from "./http";
import { braveProvider } from "./providers/brave";
import type { Embedder } from "@/lib/embeddings/registry";
import { corpusProvider, corpusStandInProvider } from "./providers/corpus";
import { searxngProvider } from "./providers/searxng";
import { tavilyProvider } from "./providers/tavily";
import { wikipediaProvider } from "./providers/wikipedia";
import {
  PROVIDER_LABELS,
  SEARCH_PROVIDER_IDS,
  STAND_IN_LABEL,
  type SearchProvider,
  type SearchProviderName,
} from "./types";

/**
 * Configuration → the provider a debate searches with. The choice is frozen into the debate's
 * config (`searchToolSnapshot`) when it is created, so a resumed debate searches with what it
 * started with, or says plainly why it cannot; it never drifts to another source.
 */

export const searchToolSnapshotSchema = z.object({
  provider: z.enum(SEARCH_PROVIDER_IDS),
  live: z.boolean(),
  label: z.string(),
  /** The corpus the stand-in searches (null: every corpus); absent for web providers. */
  corpus: z.string().nullable().optional(),
});
/** Serialisable and free of keys: safe to store in `debates.config.tools.search`. */
export type SearchToolSnapshot = z.infer<typeof searchToolSnapshotSchema>;

const PROVIDER_ID: Record<SearchConfig["provider"], SearchProviderName> = {
  corpus: "corpus-standin",
  tavily: "tavily",
  brave: "brave",
  searxng: "searxng",
  wikipedia: "wikipedia",
};

/** The debate's corpus as the RAG agent's tool (not a stand-in for anything). */
export function corpusToolSnapshot(corpus: string | null): SearchToolSnapshot {
  return { provider: "corpus", live: false, label: PROVIDER_LABELS.corpus, corpus };
}

/** What a new debate will search with; `debateCorpus` is the stand-in's corpus when SEARCH_CORPUS is unset. */
export function searchToolSnapshot(cfg: SearchConfig, debateCorpus?: string | null): SearchToolSnapshot {
  const id = PROVIDER_ID[cfg.provider];
  if (id === "corpus-standin")
    return { provider: id, live: false, label: STAND_IN_LABEL, corpus: cfg.corpus ?? debateCorpus ?? null };
  return { provider: id, live: true, label: PROVIDER_LABELS[id] };
}

export type ResolveDeps = HttpDeps & {
  /** Needed by the corpus stand-in only; web providers never touch the database. */
  db?: Database;
  /** The stand-in's retrieval mode: lexical by default, so it differs from a dense RAG agent on the same corpus. */
  corpusMode?: SearchMode;
  /** The query encoder for dense corpus search; default the corpus's own model. */
  embedder?: Embedder;
};

export class SearchConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SearchConfigError";
  }
}

/**
 * Builds the provider for a snapshot. A web provider is built only from what the operator set
 * (its key, its address): nothing here contacts a provider that was not configured.
 */
export function providerFor(snapshot: SearchToolSnapshot, cfg: SearchConfig, deps: ResolveDeps = {}): SearchProvider {
  const http: HttpDeps = {
    allow: deps.allow,
    timeoutMs: deps.timeoutMs ?? cfg.timeoutMs,
    sleep: deps.sleep,
    resolve: deps.resolve,
  };
  const missing = (what: string) =>
    new SearchConfigError(
      `This debate searches with ${PROVIDER_NAMES[snapshot.provider]}, but ${what} is not set on this server; set it again to continue, or start a new debate (WEB_SEARCH_PROVIDER=corpus searches the offline stand-in).`,
    );
  switch (snapshot.provider) {
    case "corpus-standin":
    case "corpus": {
      if (!deps.db) throw new SearchConfigError("corpus search needs the database handle");
      const corpusCfg = { corpus: snapshot.corpus ?? undefined, mode: deps.corpusMode, embedder: deps.embedder };
      return snapshot.provider === "corpus"
        ? corpusProvider(deps.db, corpusCfg)
        : corpusStandInProvider(deps.db, corpusCfg);
    }
    case "tavily":
      if (!cfg.tavily.apiKey) throw missing("TAVILY_API_KEY");
      return tavilyProvider({ apiKey: cfg.tavily.apiKey, baseURL: cfg.tavily.baseURL }, http);
    case "brave":
      if (!cfg.brave.apiKey) throw missing("BRAVE_API_KEY");
      return braveProvider({ apiKey: cfg.brave.apiKey, baseURL: cfg.brave.baseURL }, http);
    case "searxng":
      if (!cfg.searxng.baseURL) throw missing("SEARXNG_BASE_URL");
      return searxngProvider({ baseURL: cfg.searxng.baseURL }, http);
    case "wikipedia":
      return wikipediaProvider({ baseURL: cfg.wikipedia.baseURL }, http);
  }
}

/** The configured provider, for callers that have no frozen snapshot (the CLI, a new debate). */
export function resolveSearchProvider(
  config: Pick<AppConfig, "search" | "fetch">,
  deps: ResolveDeps & { debateCorpus?: string | null } = {},
): SearchProvider {
  return providerFor(searchToolSnapshot(config.search, deps.debateCorpus), config.search, {
    ...deps,
    allow: deps.allow ?? config.fetch.allow,
  });
}

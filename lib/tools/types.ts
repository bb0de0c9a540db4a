import { z } from "zod";

/**
 * The search side of the engine's tools. Every provider, the live web ones and the offline corpus
 * stand-in, answers in this one shape, so a protocol never branches on where evidence came from
 * and the page, the database and reports can always say whether it was live.
 */

/** `corpus`: the debate's own corpus as a tool (Tool-MAD's RAG agent); `corpus-standin`: the same search standing in for the web. */
export const SEARCH_PROVIDER_IDS = ["tavily", "brave", "searxng", "wikipedia", "corpus", "corpus-standin"] as const;
export type SearchProviderName = (typeof SEARCH_PROVIDER_IDS)[number];

/** Web APIs cap a page of results at 20 (Tavily, Brave); asking for more is refused, not silently cut. */
export const MAX_K = 20;
/** Brave refuses queries over 400 characters; the others accept it. */
export const MAX_QUERY_CHARS = 400;

/** A query the search tools accept: at most MAX_QUERY_CHARS, cut at a word boundary. */
export function clipQuery(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  if (t.length <= MAX_QUERY_CHARS) return t;
  const cut = t.slice(0, MAX_QUERY_CHARS);
  const space = cut.lastIndexOf(" ");
  return space > MAX_QUERY_CHARS / 2 ? cut.slice(0, space) : cut;
}

const isoDate = z.union([z.date(), z.string()]).transform((v, ctx) => {
  const d = v instanceof Date ? v : new Date(v);
  if (Number.isNaN(d.getTime())) {
    ctx.addIssue({ code: "custom", message: `not a date: ${String(v)}; use YYYY-MM-DD` });
    return z.NEVER;
  }
  return d.toISOString();
});

export const searchRequestSchema = z.object({
  query: z
    .string()
    .transform((q) => q.trim())
    .pipe(
      z
        .string()
        .min(1, "the search query is empty")
        .max(MAX_QUERY_CHARS, `the search query is over ${MAX_QUERY_CHARS} characters; shorten it`),
    ),
  k: z
    .number()
    .int("k must be a whole number")
    .min(1, "k must be at least 1")
    .max(MAX_K, `k must be at most ${MAX_K}`)
    .default(5),
  /** The claim's date: results published after it are dropped (undated ones are kept). ISO 8601 once parsed. */
  before: isoDate.optional(),
  /** Host names whose results are dropped, subdomains included (e.g. politifact.com, the claim's own fact-check). */
  excludeDomains: z.array(z.string().trim().toLowerCase().min(1)).default([]),
});
export type SearchRequestInput = z.input<typeof searchRequestSchema>;
export type SearchRequest = z.output<typeof searchRequestSchema>;

export const searchResultSchema = z.object({
  /** 1-based, after filtering; protocols cite it. */
  rank: z.number().int().positive(),
  title: z.string(),
  /** The page's address; null for a corpus passage whose document has none. */
  url: z.string().nullable(),
  /** Plain text (tags stripped): the snippet, extract or passage the agent reads. */
  text: z.string(),
  /** ISO 8601 when the provider knows it. */
  publishedAt: z.string().nullable(),
  /** Where it came from, for the evidence pool and the provider badge. */
  source: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("web") }),
    z.object({
      kind: z.literal("wikipedia"),
      pageId: z.number().int(),
      revision: z.string().nullable(),
      lastEdited: z.string().nullable(),
    }),
    z.object({
      kind: z.literal("corpus"),
      corpus: z.string(),
      passageId: z.number().int(),
      passageExternalId: z.string(),
      documentId: z.number().int(),
    }),
  ]),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

/**
 * How the claim date was applied: by the provider's own filter, by dropping dated results after
 * it here, both, or not at all (Wikipedia: an article is its current revision, recorded instead).
 */
export const DATE_BOUNDS = ["none-requested", "provider", "provider+filtered", "filtered", "not-supported"] as const;
export type DateBound = (typeof DATE_BOUNDS)[number];

export type SearchOutcome = {
  results: SearchResult[];
  dateBound: DateBound;
  /** Results the provider returned that were dropped here: after the claim date or from an excluded domain. */
  dropped: { afterCutoff: number; excludedDomain: number };
};

export type ProviderIdentity = {
  id: SearchProviderName;
  /** False for the offline stand-in: its results are the newsroom's corpus, not the web. */
  live: boolean;
  /** What the page and reports show beside the results. */
  label: string;
};

export type SearchOptions = { signal?: AbortSignal };

export interface SearchProvider extends ProviderIdentity {
  /** Throws SearchToolError on every failure: never an empty list standing in for an error. */
  search(request: SearchRequest, opts?: SearchOptions): Promise<SearchOutcome>;
}

export const STAND_IN_LABEL = "offline stand-in for web search";

export const PROVIDER_LABELS: Record<SearchProviderName, string> = {
  tavily: "Tavily web search",
  brave: "Brave web search",
  searxng: "SearXNG web search",
  wikipedia: "Wikipedia (current revision)",
  corpus: "newsroom corpus",
  "corpus-standin": STAND_IN_LABEL,
};

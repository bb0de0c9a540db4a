import type { SearchProviderName } from "./types";

export type SearchFailure =
  /** The request itself was wrong (empty query, k out of range): fixing it is the caller's job. */
  | "request"
  /** The provider refused us for good (bad key, 400, 404): retrying would not help. */
  | "rejected"
  /** It kept failing (429, 5xx, network) through every retry. */
  | "unavailable"
  /** It answered, but not in its documented format. */
  | "invalid-response"
  /** Our own safety rules stopped the request (address checks). */
  | "refused"
  | "aborted";

export const PROVIDER_NAMES: Record<SearchProviderName, string> = {
  tavily: "Tavily",
  brave: "Brave Search",
  searxng: "SearXNG",
  wikipedia: "Wikipedia",
  corpus: "the corpus search",
  "corpus-standin": "the corpus stand-in",
};

/**
 * A search that produced no results to show, always naming the provider, so a failing tool fails
 * the turn visibly instead of handing the agent an empty list it would read as "nothing found".
 */
export class SearchToolError extends Error {
  constructor(
    readonly provider: SearchProviderName,
    readonly failure: SearchFailure,
    message: string,
    readonly details: { status?: number; attempts?: number } = {},
  ) {
    super(message);
    this.name = "SearchToolError";
  }
}

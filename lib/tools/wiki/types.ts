/**
 * Encyclopedia lookups for ZoFia's expert and debaters. A provider lists candidate senses for a
 * keyword (title and one-line description, what the paper disambiguates on) and gives the chosen
 * sense's summary; the choice between senses is the protocol's (lib/debate/zofia/disambiguation.ts).
 */
export const WIKI_PROVIDER_IDS = ["none", "wikipedia-rest", "corpus"] as const;
export type WikiProviderId = (typeof WIKI_PROVIDER_IDS)[number];

export type WikiCandidate = { title: string; description: string; key: string };
export type WikiSummary = {
  title: string;
  extract: string;
  url: string | null;
  revision: string | null;
  lastEdited: string | null;
};

export interface WikiProvider {
  id: WikiProviderId;
  live: boolean;
  label: string;
  candidates(keyword: string, opts?: { signal?: AbortSignal; limit?: number }): Promise<WikiCandidate[]>;
  summary(candidate: WikiCandidate, opts?: { signal?: AbortSignal }): Promise<WikiSummary>;
}

export const WIKI_UNAVAILABLE = "encyclopedia lookup unavailable";

import type { DateBound, SearchOutcome, SearchRequest, SearchResult } from "./types";

export type Candidate = Omit<SearchResult, "rank">;

function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return null;
  }
}

export function excludedBy(url: string | null, domains: string[]): boolean {
  // Most searches exclude no domain: no URL is parsed for nothing (every result of every search).
  if (domains.length === 0) return false;
  const host = hostOf(url);
  if (!host) return false;
  return domains.some((d) => {
    const bare = d.replace(/^www\./, "").replace(/^\./, "");
    return host === bare || host.endsWith(`.${bare}`);
  });
}

/** A result dated after the claim (strictly later instant) would leak the answer into the debate. */
export function afterCutoff(publishedAt: string | null, before: string | undefined): boolean {
  if (!before || !publishedAt) return false;
  const t = Date.parse(publishedAt);
  return !Number.isNaN(t) && t > Date.parse(before);
}

/**
 * The same last step for every provider: providers that cannot filter by date or domain (and
 * those that claim to but might not) are filtered here, then cut to k and ranked from 1.
 */
export function finish(request: SearchRequest, candidates: Candidate[], providerBound: boolean): SearchOutcome {
  const dropped = { afterCutoff: 0, excludedDomain: 0 };
  const kept: Candidate[] = [];
  for (const c of candidates) {
    if (excludedBy(c.url, request.excludeDomains)) dropped.excludedDomain++;
    else if (afterCutoff(c.publishedAt, request.before)) dropped.afterCutoff++;
    else kept.push(c);
  }
  let dateBound: DateBound = "none-requested";
  if (request.before)
    dateBound = providerBound ? (dropped.afterCutoff > 0 ? "provider+filtered" : "provider") : "filtered";
  return { results: kept.slice(0, request.k).map((c, i) => ({ ...c, rank: i + 1 })), dateBound, dropped };
}

export function ymd(iso: string): string {
  return iso.slice(0, 10);
}

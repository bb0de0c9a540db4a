import type { SearchResult } from "@/lib/tools";
import { NEWS_DOMAINS } from "./news-domains";

/**
 * Q_web = k_1 ∧ … ∧ k_N: every keyword, quoted so a web engine keeps each name whole. Brave reads
 * `-site:` itself (the paper's engine); for every provider the same exclusions also go in the
 * request's `excludeDomains`, which the tool layer applies to whatever comes back.
 */
export function webQuery(keywords: string[], provider: string): string {
  const quoted = keywords.map((k) => `"${k.replace(/"/g, "")}"`).join(" ");
  return provider === "brave" ? `${quoted} -site:wikipedia.org` : quoted;
}

export function excludedDomains(): string[] {
  return [...NEWS_DOMAINS];
}

/** The day before publication (UTC), as the search tool's `before`; null without a date. */
export function cutoffBefore(date: string | undefined): string | null {
  if (!date) return null;
  const d = new Date(date);
  if (Number.isNaN(d.getTime())) return null;
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - 86_400_000;
  return new Date(day).toISOString().slice(0, 10);
}

/**
 * The offline stand-in searches lexically and ranks partial matches too; the spec asks for every
 * keyword, so a result counts only when each keyword's words all occur in its title or text.
 */
export function hasEveryKeyword(result: Pick<SearchResult, "title" | "text">, keywords: string[]): boolean {
  const hay = `${result.title} ${result.text}`.toLowerCase();
  return keywords.every((k) => (k.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).every((w) => hay.includes(w)));
}

/** The keyword the next relaxation drops: the least salient one left. */
export function leastSalient(keywords: string[], salience: Map<string, number>): string {
  return keywords.reduce((low, k) => ((salience.get(k) ?? 0) < (salience.get(low) ?? 0) ? k : low), keywords[0]!);
}

import type { PublishedFactCheck } from "@/db/queries/fact-checks";
import { factCheckClaimReview, factCheckUrl } from "./json-ld";

/*
 * Published fact-checks for other systems: a JSON Feed 1.1 for feed readers and aggregators, and a
 * schema.org DataFeed of ClaimReview items (the shape Google's fact-check feeds use) that another
 * Counterpoint imports with `factchecks import`.
 */

type Publisher = { name: string; url?: string };

export function jsonFeed(items: PublishedFactCheck[], base: string, publisher: Publisher) {
  const root = base.replace(/\/+$/, "");
  return {
    version: "https://jsonfeed.org/version/1.1",
    title: `${publisher.name}: fact-checks`,
    home_page_url: `${root}/fact-checks`,
    feed_url: `${root}/fact-checks/feed.json`,
    language: "en",
    items: items.map((fc) => ({
      id: factCheckUrl(base, fc.slug),
      url: factCheckUrl(base, fc.slug),
      title: `${fc.version.textualRating}: ${fc.version.claim}`,
      content_text: fc.version.explanation,
      summary: claimWithClaimant(fc.version.claimant, fc.version.claim),
      date_published: fc.publishedAt.toISOString(),
      date_modified: fc.version.createdAt.toISOString(),
      tags: [fc.version.textualRating],
    })),
  };
}

/** "Marsh said: …", unless the claim already names the claimant ("Elena Marsh, the governor, …"). */
export function claimWithClaimant(claimant: string | null | undefined, claim: string): string {
  if (!claimant?.trim()) return claim;
  if (claim.toLowerCase().includes(claimant.trim().toLowerCase())) return claim;
  return `${claimant.trim()} said: ${claim}`;
}

export function dataFeed(items: PublishedFactCheck[], base: string, publisher: Publisher) {
  const newest = items.reduce<Date | null>(
    (m, fc) => (!m || fc.version.createdAt > m ? fc.version.createdAt : m),
    null,
  );
  return {
    "@context": "https://schema.org",
    "@type": "DataFeed",
    name: `${publisher.name}: fact-checks`,
    url: `${base.replace(/\/+$/, "")}/fact-checks/datafeed.json`,
    ...(newest ? { dateModified: newest.toISOString() } : {}),
    dataFeedElement: items.map((fc) => {
      const { "@context": _c, ...review } = factCheckClaimReview(fc, base, publisher);
      return {
        "@type": "DataFeedItem",
        dateCreated: fc.publishedAt.toISOString(),
        dateModified: fc.version.createdAt.toISOString(),
        item: review,
      };
    }),
  };
}

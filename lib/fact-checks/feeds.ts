import type { PublishedFactCheck } from "@/db/queries/fact-checks";
import { factCheckClaimReview, factCheckUrl } from "./json-ld";
import { explanationHtml, explanationText } from "./markdown";

/*
 * Published fact-checks for other systems: a JSON Feed 1.1 for feed readers and aggregators, and a
 * schema.org DataFeed of ClaimReview items (the shape Google's fact-check feeds use) that another
 * Counterpoint imports with `factchecks import`.
 */

export type Publisher = { name: string; url?: string };

/**
 * When the public version last changed. The version is saved before it is published (by milliseconds
 * or by days), so its own time can be earlier than the publication: the later of the two, so that a
 * feed never says a check was modified before it was published.
 */
function modifiedAt(fc: PublishedFactCheck): Date {
  return fc.version.createdAt > fc.publishedAt ? fc.version.createdAt : fc.publishedAt;
}

export function jsonFeed(items: PublishedFactCheck[], base: string, publisher: Publisher) {
  const root = base.replace(/\/+$/, "");
  // The publisher writes every check (ClaimReview's author is the publisher too); items inherit it,
  // and carry it as well for readers that look only at the item.
  const authors = [{ name: publisher.name, ...(publisher.url ? { url: publisher.url } : {}) }];
  return {
    version: "https://jsonfeed.org/version/1.1",
    title: `${publisher.name}: fact-checks`,
    description: `Claims checked and published by ${publisher.name}: each with its rating and the explanation.`,
    home_page_url: `${root}/fact-checks`,
    feed_url: `${root}/fact-checks/feed.json`,
    language: "en",
    authors,
    items: items.map((fc) => ({
      id: factCheckUrl(base, fc.slug),
      url: factCheckUrl(base, fc.slug),
      title: `${fc.version.textualRating}: ${fc.version.claim}`,
      // The explanation is the editor's Markdown: sanitised HTML as the page shows it, and the words alone.
      content_html: explanationHtml(fc.version.explanation),
      content_text: explanationText(fc.version.explanation),
      summary: claimWithClaimant(fc.version.claimant, fc.version.claim),
      date_published: fc.publishedAt.toISOString(),
      date_modified: modifiedAt(fc).toISOString(),
      authors,
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
  const newest = items.reduce<Date | null>((m, fc) => (!m || modifiedAt(fc) > m ? modifiedAt(fc) : m), null);
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
        dateModified: modifiedAt(fc).toISOString(),
        item: review,
      };
    }),
  };
}

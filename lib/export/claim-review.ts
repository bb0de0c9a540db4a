import type { ProductLabel } from "@/lib/debate/types";
import { PRODUCT_WORDS } from "@/lib/debate/methods";

/*
 * schema.org ClaimReview, as Google's fact-check guidelines ask for it: the one mapping used by the
 * debate exports (lib/export/formats.ts) and by published fact-checks (lib/fact-checks/json-ld.ts).
 */

/**
 * TRUE / HALF-TRUE / FALSE on a 1-3 scale; alternateName carries the rating in words. A rating
 * with no place on the scale (not enough information, inconclusive) is a textual rating only.
 */
export const RATINGS: Record<ProductLabel, { value: number; name: string }> = {
  FALSE: { value: 1, name: PRODUCT_WORDS.FALSE },
  "HALF-TRUE": { value: 2, name: PRODUCT_WORDS["HALF-TRUE"] },
  TRUE: { value: 3, name: PRODUCT_WORDS.TRUE },
};

export type ClaimReviewInput = {
  identifier: string;
  /** The absolute address of the page holding the review (required by search engines). */
  url: string;
  /** yyyy-mm-dd */
  datePublished: string;
  dateModified?: string;
  claimReviewed: string;
  publisher: { name: string; url?: string };
  rating: {
    product: ProductLabel | null;
    /** The rating in words readers see; defaults to the scale's words. */
    alternateName?: string;
    name?: string;
    explanation?: string | null;
  };
  claim: {
    /** yyyy-mm-dd */
    date?: string | null;
    author?: { kind: "Person" | "Organization"; name: string } | null;
    appearance?: { url: string; name?: string | null } | null;
  };
};

export function claimReviewLd(r: ClaimReviewInput) {
  const scale = r.rating.product ? RATINGS[r.rating.product] : null;
  const alternateName = r.rating.alternateName ?? scale?.name ?? "Unrated";
  const appearance = r.claim.appearance
    ? {
        "@type": "CreativeWork",
        url: r.claim.appearance.url,
        ...(r.claim.appearance.name ? { name: r.claim.appearance.name } : {}),
      }
    : undefined;
  return {
    "@context": "https://schema.org",
    "@type": "ClaimReview",
    identifier: r.identifier,
    url: r.url,
    datePublished: r.datePublished,
    ...(r.dateModified ? { dateModified: r.dateModified } : {}),
    claimReviewed: r.claimReviewed,
    author: {
      "@type": "Organization",
      name: r.publisher.name,
      ...(r.publisher.url ? { url: r.publisher.url } : {}),
    },
    reviewRating: {
      "@type": "Rating",
      ...(scale ? { ratingValue: scale.value, bestRating: 3, worstRating: 1 } : {}),
      alternateName,
      ...(r.rating.name ? { name: r.rating.name } : {}),
      ...(r.rating.explanation ? { ratingExplanation: r.rating.explanation } : {}),
    },
    itemReviewed: {
      "@type": "Claim",
      ...(r.claim.date ? { datePublished: r.claim.date } : {}),
      ...(r.claim.author ? { author: { "@type": r.claim.author.kind, name: r.claim.author.name } } : {}),
      ...(appearance ? { appearance, firstAppearance: appearance } : {}),
    },
  };
}

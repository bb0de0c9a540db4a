import type { PublishedFactCheck } from "@/db/queries/fact-checks";
import { claimReviewLd } from "@/lib/export/claim-review";
import type { ProductLabel } from "@/lib/debate/types";

/** The public address of a fact-check, under the site's public base (PUBLIC_URL or the request's own). */
export function factCheckUrl(base: string, slug: string) {
  return `${base.replace(/\/+$/, "")}/fact-checks/${encodeURIComponent(slug)}`;
}

/** Markdown marks read as text for `ratingExplanation`: search engines show it as plain words. */
function plainSummary(markdown: string, max = 300): string {
  const flat = markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/[#*_`>~]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), max / 2))}…`;
}

/** The published version as schema.org ClaimReview (the mapping is lib/export/claim-review.ts's). */
export function factCheckClaimReview(fc: PublishedFactCheck, base: string, publisher: { name: string; url?: string }) {
  const v = fc.version;
  const modified = fc.state === "corrected" ? v.createdAt.toISOString().slice(0, 10) : undefined;
  return claimReviewLd({
    identifier: fc.id,
    url: factCheckUrl(base, fc.slug),
    datePublished: fc.publishedAt.toISOString().slice(0, 10),
    dateModified: modified,
    claimReviewed: v.claim,
    publisher,
    rating: {
      product: v.rating as ProductLabel,
      alternateName: v.textualRating,
      explanation: plainSummary(v.explanation),
    },
    claim: {
      date: v.claimDate,
      author: v.claimant
        ? { kind: v.claimantKind === "Organization" ? "Organization" : "Person", name: v.claimant }
        : null,
      appearance: v.appearanceUrl ? { url: v.appearanceUrl, name: v.whereSaid } : null,
    },
  });
}

/** JSON for a <script type="application/ld+json">: `<` escaped so no text in it can close the script element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
}

import type { ReactNode } from "react";
import type { ClaimMatch } from "@/lib/matching/types";
import { safeCheckHref } from "@/lib/matching/keys";
import { scaleWordsBeside } from "@/lib/matching/scale";
import { datesCompared } from "@/lib/matching/dates";
import { sameClaimWords, thresholdWords } from "@/lib/matching/likelihood";

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : null);

const SOURCE_WORDS: Record<ClaimMatch["source"], string> = {
  debate: "a debate on this server",
  published: "a fact-check published here",
  imported: "an imported fact-check",
  "factcheck-tools": "Google Fact Check Tools",
};

/**
 * One earlier check, verdict first: its rating, who checked it and when, the claim as it was worded,
 * both claims' dates (and whether they are too far apart to be the same event), how similar the two
 * claims are against the threshold, and why they matched. Everything in it is someone else's text,
 * rendered as text. `ratingHidden`: a viewer who may not see verdicts yet (lib/auth/visibility.ts).
 */
export function MatchCard({
  match: m,
  threshold,
  yourDate,
  ratingHidden = false,
  newTab = false,
  children,
}: {
  match: ClaimMatch;
  threshold?: number;
  yourDate: string | null;
  ratingHidden?: boolean;
  /** In a form: the earlier check opens beside it, so what was typed stays on this page. */
  newTab?: boolean;
  children?: ReactNode;
}) {
  const link = safeCheckHref(m.url);
  return (
    <article className="min-w-0 space-y-2 rounded-md border border-black/15 bg-white p-3 text-sm" data-testid="match">
      <p className="text-base">
        {ratingHidden ? (
          <span className="text-black/70">Rating hidden until you have labelled this debate</span>
        ) : m.rating ? (
          <>
            Rated <strong data-testid="match-rating">{m.rating}</strong>
            {scaleWordsBeside(m) ? <span className="text-black/70"> ({scaleWordsBeside(m)} on our scale)</span> : null}
          </>
        ) : (
          <span className="text-black/70">No rating given</span>
        )}
      </p>
      <p className="break-words text-black/70">
        By {m.publisher ?? SOURCE_WORDS[m.source]}
        {day(m.reviewDate) ? `, checked ${day(m.reviewDate)}` : ""}
      </p>
      <blockquote className="whitespace-pre-wrap break-words border-l-2 border-black/20 pl-2">{m.claim}</blockquote>
      <p className="text-black/70">{datesCompared(m, yourDate)}</p>
      {m.outsideDateWindow ? (
        <p className="rounded bg-amber-100 px-2 py-1 text-amber-950" data-testid="match-date-warning">
          The two dates are far apart: this may be about a different event.
        </p>
      ) : null}
      <p data-testid="match-likelihood">
        <strong>{sameClaimWords(m)}</strong>
        {threshold !== undefined ? <span className="text-black/70">; {thresholdWords(threshold)}</span> : null}.
      </p>
      {m.reasons.length ? (
        <p className="break-words text-black/70" data-testid="match-shared">
          Shared: {m.reasons.join("; ")}.
        </p>
      ) : null}
      {m.differences?.length ? (
        <p className="break-words text-black/70" data-testid="match-differences">
          Different: {m.differences.join("; ")}.
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        {link ? (
          <a
            href={link.href}
            className="font-medium underline"
            {...(link.external || newTab ? { target: "_blank", rel: "noopener noreferrer nofollow" } : {})}
          >
            Open the earlier check
            {link.external || newTab ? <span className="sr-only"> (opens in a new tab)</span> : null}
          </a>
        ) : null}
        {children}
      </div>
    </article>
  );
}

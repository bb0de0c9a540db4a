import { z } from "zod";
import type { DebateEvidence } from "@/lib/debate/types";
import type { ClaimMatch, MatchDecision } from "./types";
import { matchKey } from "./keys";
import { PRODUCT_LABELS } from "@/lib/debate/methods";
import { scaleWordsBeside } from "./scale";

/*
 * A stored match decision (debates.match_decision) as the pages read it, and the words of an
 * attached earlier check. No database, no model: used by the debate view and the visibility rules.
 */

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : null);

/**
 * An earlier check as a passage of the debate's evidence pool, labelled as an earlier fact-check.
 * Its words (the other claim, the rating, the publisher) are someone else's: the pool is fenced in
 * every prompt like any passage (lib/debate/evidence.ts) and rendered as text on the page.
 * `rating: false` leaves the rating out (a viewer who may not see verdicts yet).
 */
export function earlierCheckText(m: ClaimMatch, opts: { rating?: boolean } = {}): string {
  const by = m.publisher ? ` by ${m.publisher}` : "";
  const published = day(m.reviewDate) ? `, published ${day(m.reviewDate)}` : "";
  const made = day(m.claimDate) ? ` (made ${day(m.claimDate)})` : "";
  const rating =
    opts.rating === false
      ? "Its rating is hidden until you have labelled this debate."
      : m.rating
        ? `It rated it: ${m.rating}${scaleWordsBeside(m) ? ` (${scaleWordsBeside(m)} on this product's scale)` : ""}.`
        : "It gives no rating.";
  return `Earlier fact-check${by}${published}. It checked the claim “${m.claim}”${made}. ${rating}`;
}

/** The attached checks as the pool's passages, ranked from `firstRank` (after what was retrieved or pasted). */
export function earlierCheckEvidence(attached: readonly ClaimMatch[], firstRank: number): DebateEvidence[] {
  return attached.map((m, i) => ({
    rank: firstRank + i,
    text: earlierCheckText(m),
    source: "earlier-check" as const,
    title: `Earlier fact-check${m.publisher ? `: ${m.publisher}` : ""}`,
    url: m.url ?? undefined,
    publishedAt: m.reviewDate ?? undefined,
    externalId: matchKey(m),
    score: m.similarity,
    metadata: { match: m },
  }));
}

/** The decision without what would reveal a verdict (the matches' ratings), for a viewer who may not see verdicts. */
export function decisionWithoutVerdicts(d: MatchDecision): MatchDecision {
  const strip = (m: ClaimMatch): ClaimMatch => ({ ...m, rating: null, scale: null });
  if (d.choice === "no-match") return d;
  if (d.choice === "debate-anyway") return { ...d, matches: d.matches.map(strip) };
  return { ...d, matches: d.matches.map(strip), attached: d.attached.map(strip) };
}

/** One earlier check as stored and as the v1 API returns it (lib/api/v1/match-claim.ts names it for the OpenAPI document). */
export const claimMatchShape = z.object({
  source: z.enum(["debate", "published", "imported", "factcheck-tools"]),
  ref: z.string(),
  claim: z.string(),
  rating: z.string().nullable(),
  scale: z.enum(PRODUCT_LABELS).nullable(),
  publisher: z.string().nullable(),
  url: z.string().nullable(),
  claimDate: z.string().nullable(),
  reviewDate: z.string().nullable(),
  similarity: z.number(),
  reasons: z.array(z.string()),
  differences: z.array(z.string()).optional(),
  sameText: z.boolean().optional(),
  outsideDateWindow: z.boolean(),
});

/** The decision read back from storage (jsonb): what does not fit the contract is dropped, not shown. */
export const matchDecisionSchema: z.ZodType<MatchDecision> = z.discriminatedUnion("choice", [
  z.object({ choice: z.literal("no-match") }),
  z.object({ choice: z.literal("debate-anyway"), matches: z.array(claimMatchShape) }),
  z.object({
    choice: z.literal("attach-as-evidence"),
    matches: z.array(claimMatchShape),
    attached: z.array(claimMatchShape),
  }),
]);

/** One earlier check in a line of text: who, their rating, how close (for a spreadsheet cell). */
function matchWords(m: ClaimMatch): string {
  const who = m.publisher ?? "an earlier check";
  const rated = m.rating ? ` rated ${m.rating}` : "";
  return `${who}${rated} (similarity ${m.similarity.toFixed(2)}${m.url ? `, ${m.url}` : ""})`;
}

/**
 * The decision in one line of words, as an export's CSV cell: what matched and what the person
 * chose. Null when matching was not asked for.
 */
export function decisionWords(d: MatchDecision | null): string | null {
  if (!d) return null;
  if (d.choice === "no-match") return "no earlier check matched";
  const n = d.matches.length;
  const matched = `${n} earlier check${n === 1 ? "" : "s"} matched`;
  if (d.choice === "debate-anyway") return `debated anyway; ${matched}: ${d.matches.map(matchWords).join("; ")}`;
  return `attached ${d.attached.length} as evidence; ${matched}: ${d.attached.map(matchWords).join("; ")}`;
}

import { z } from "zod";
import { matchClaimReport, type MatchDeps } from "./match";
import type { ClaimMatch, MatchDecision } from "./types";
import { matchKey } from "./keys";
export { earlierCheckEvidence } from "./decision";

/*
 * Claim matching in the submission flow: every claim is matched against earlier checks before a
 * debate is stored or a token spent. When something matches, the person sees it and chooses (open
 * the earlier check, attach it as evidence, or debate anyway); the choice is stored with the debate.
 * Shared by the debate form, the compare form, the CLI and evaluation runs, so the rule is in one place.
 *
 * The matches are never taken from the browser: the choice names them by key, and they are found
 * again here, so nobody can slip a made-up "earlier fact-check" into a debate's evidence.
 */

/** What the form shows between "submit" and the choice: nothing is stored yet. */
export type MatchStep = {
  matches: ClaimMatch[];
  /** The similarity a match had to reach, shown next to each match's own. */
  threshold: number;
  /** The claim (and date) the matches were found for; a choice made for another claim shows the step again. */
  matchedFor: string;
};

export type MatchOutcome = { kind: "show"; step: MatchStep } | { kind: "go"; decision: MatchDecision };

export { matchKey };

/** The claim as matched: a choice holds only for the claim and date it was made for. */
export const matchedForKey = (claim: string, claimDate?: string | null) =>
  `${claim.replace(/\s+/g, " ").trim()}|${claimDate?.trim() ?? ""}`;

const choiceSchema = z.object({
  matchChoice: z
    .enum(["debate-anyway", "attach"], { message: "Choose to attach the earlier check or to debate anyway." })
    .optional(),
  attach: z.array(z.string().max(2_100)).max(50).default([]),
  matchedFor: z.string().max(20_000).optional(),
});
export type MatchChoice = z.output<typeof choiceSchema>;

/** The choice as the form sends it: `matchChoice` (the button pressed), `attach` (ticked matches), `matchedFor`. */
export function choiceFromForm(form: FormData): MatchChoice {
  const str = (k: string) => {
    const v = form.get(k);
    return typeof v === "string" && v ? v : undefined;
  };
  const parsed = choiceSchema.safeParse({
    matchChoice: str("matchChoice"),
    attach: form.getAll("attach").filter((v): v is string => typeof v === "string"),
    matchedFor: str("matchedFor"),
  });
  // A tampered choice is no choice: the matches are shown again.
  return parsed.success ? parsed.data : { attach: [] };
}

/** A choice that cannot be carried out as sent (nothing ticked to attach); the step is shown again with this message. */
export class MatchChoiceError extends Error {
  constructor(
    message: string,
    public readonly step: MatchStep,
  ) {
    super(message);
    this.name = "MatchChoiceError";
  }
}

/**
 * Matches the claim, and either says what to show (matches, no choice yet, or a choice made for a
 * different claim) or gives the decision to store with the debate. No match: `no-match`, at once.
 */
export async function matchBeforeStart(
  deps: MatchDeps,
  input: { claim: string; claimDate?: string | null; choice?: MatchChoice; threshold?: number },
): Promise<MatchOutcome> {
  const date = input.claimDate ? new Date(`${input.claimDate}T00:00:00Z`) : null;
  // The threshold is the instance's setting (match_threshold) unless the caller names one.
  const report = await matchClaimReport(deps, input.claim, {
    threshold: input.threshold,
    claimDate: date && !Number.isNaN(date.getTime()) ? date : null,
  });
  const { matches, threshold } = report;
  if (!matches.length) return { kind: "go", decision: { choice: "no-match" } };
  const step: MatchStep = { matches, threshold, matchedFor: matchedForKey(input.claim, input.claimDate) };
  const choice = input.choice;
  if (!choice?.matchChoice || choice.matchedFor !== step.matchedFor) return { kind: "show", step };
  if (choice.matchChoice === "debate-anyway") return { kind: "go", decision: { choice: "debate-anyway", matches } };
  const wanted = new Set(choice.attach);
  const attached = matches.filter((m) => wanted.has(matchKey(m)));
  if (!attached.length)
    throw new MatchChoiceError(
      "Tick the earlier checks to attach as evidence, or choose “Debate anyway”.",
      // A ticked check that is no longer found (deleted meanwhile) is not attached; the list is as it is now.
      step,
    );
  return { kind: "go", decision: { choice: "attach-as-evidence", matches, attached } };
}

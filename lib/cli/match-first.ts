import { sameClaimWords, thresholdWords } from "@/lib/matching/likelihood";
import type { MatchStep } from "@/lib/matching/before-start";
import type { ClaimMatch } from "@/lib/matching/types";
import { bold, dim, yellow } from "./output";
import { scaleWordsBeside } from "@/lib/matching/scale";
import { datesCompared } from "@/lib/matching/dates";

/*
 * `counterpoint debate` matches the claim against earlier checks first, as the forms do. When
 * something matches, nothing is started unless the person said what to do with it:
 * --attach-matches (attach them all as evidence) or --debate-anyway; --no-match skips matching.
 */

/** Exit code when earlier checks matched and neither --attach-matches nor --debate-anyway was given. */
export const MATCHED_EXIT_CODE = 3;

export type MatchFlags = { match?: boolean; debateAnyway?: boolean; attachMatches?: boolean; matchThreshold?: string };

export const MATCH_FLAGS_HELP = {
  noMatch: "do not look for earlier checks of the claim before starting",
  attachMatches: "when earlier checks match, attach them to the debate's evidence and start",
  debateAnyway: "when earlier checks match, start without them (the choice is stored with the debate)",
  matchThreshold: "similarity (0-1) an earlier check must reach to be shown",
};

/** Stops the command with MATCHED_EXIT_CODE; the matches were already printed. */
export class MatchedBeforeStart extends Error {
  readonly exitCode = MATCHED_EXIT_CODE;
  constructor(count: number) {
    super(
      `${count === 1 ? "An earlier check" : `${count} earlier checks`} of this claim matched; nothing was started. Run again with --attach-matches to attach ${count === 1 ? "it" : "them"} as evidence, --debate-anyway to debate without ${count === 1 ? "it" : "them"}, or --no-match to skip matching.`,
    );
    this.name = "MatchedBeforeStart";
  }
}

function describe(m: ClaimMatch, threshold: number, yourDate?: string): string {
  const lines = [
    `${bold(m.rating ?? "no rating")}${scaleWordsBeside(m) ? ` (${scaleWordsBeside(m)} on our scale)` : ""} · by ${m.publisher ?? m.source}${m.reviewDate ? `, checked ${m.reviewDate.slice(0, 10)}` : ""}`,
    `  “${m.claim.replace(/\s+/g, " ")}”`,
    `  ${datesCompared(m, yourDate)}${m.outsideDateWindow ? yellow(" The dates are far apart: maybe a different event.") : ""}`,
    `  ${sameClaimWords(m)}; ${thresholdWords(threshold)}.`,
    ...(m.reasons.length ? [`  Shared: ${m.reasons.join("; ")}.`] : []),
    ...(m.differences?.length ? [`  Different: ${m.differences.join("; ")}.`] : []),
  ];
  if (m.url) lines.push(dim(`  ${m.url}`));
  return lines.join("\n");
}

/**
 * The flags as the start service's options (lib/debate/start-service.ts): --no-match skips
 * matching, --attach-matches and --debate-anyway go ahead with the matches, neither asks.
 */
export function matchOptions(flags: MatchFlags): {
  onMatch: "ask" | "attach" | "debate-anyway" | "skip";
  matchThreshold?: number;
} {
  if (flags.match === false) {
    if (flags.attachMatches || flags.debateAnyway)
      throw new Error("--no-match skips matching: it does not go with --attach-matches or --debate-anyway.");
    return { onMatch: "skip" };
  }
  if (flags.attachMatches && flags.debateAnyway) throw new Error("Choose one: --attach-matches or --debate-anyway.");
  let matchThreshold: number | undefined;
  if (flags.matchThreshold !== undefined) {
    matchThreshold = Number(flags.matchThreshold);
    if (!Number.isFinite(matchThreshold) || matchThreshold < 0 || matchThreshold > 1)
      throw new Error(`--match-threshold takes a number from 0 to 1, e.g. 0.8; got "${flags.matchThreshold}".`);
  }
  return {
    onMatch: flags.attachMatches ? "attach" : flags.debateAnyway ? "debate-anyway" : "ask",
    matchThreshold,
  };
}

/** Prints the earlier checks that matched (a `matches` JSON line with --json). */
export function printMatches(step: MatchStep, claimDate: string | undefined, json: boolean): void {
  const { matches } = step;
  if (json) process.stdout.write(`${JSON.stringify({ type: "matches", threshold: step.threshold, matches })}\n`);
  else
    process.stdout.write(
      `${bold(matches.length === 1 ? "This claim was checked before:" : `This claim was checked ${matches.length} times before:`)}\n${matches.map((m) => describe(m, step.threshold, claimDate)).join("\n")}\n`,
    );
}

import type { ClaimMatch } from "./types";

/*
 * How likely two texts state the same claim, in words a fact-checker decides on. Client-safe: the
 * match card and the CLI say it the same way.
 *
 * Calibration: the similarity is the re-scorer's output (lib/matching/rescore.ts), a logistic
 * regression fitted by maximum likelihood (log loss) on labelled pairs (CheckThat! 2022 Task 2A dev:
 * a tweet and a fact-check, relevant or not; scripts/fit-match-rescorer.ts). A model fitted that way
 * is calibrated on the data it was fitted on, so the value is read as the chance that both state the
 * same claim, with no further mapping. It is an estimate from one kind of pair (tweets against
 * Snopes), so it is shown in bands of words first, and never as certain: a sigmoid reaches 1.00
 * when rounded long before the texts are the same, which is how a reworded claim was called
 * "100% similar". 100% is kept for texts that are the same once case, spacing and punctuation go.
 */

/** Case, spacing and punctuation do not make two claims different. */
export function normalisedClaim(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

export function sameText(a: string, b: string): boolean {
  return normalisedClaim(a) === normalisedClaim(b);
}

const BANDS: ReadonlyArray<readonly [number, string]> = [
  [0.9, "Very likely the same claim"],
  [0.7, "Likely the same claim"],
  [0.4, "Possibly the same claim"],
  [0.15, "Probably a different claim"],
  [0, "Very likely a different claim"],
];

/** The chance as a whole percentage: 1 to 99 unless the texts are the same (100). */
export function sameClaimPercent(m: Pick<ClaimMatch, "similarity" | "sameText">): number {
  if (m.sameText) return 100;
  return Math.min(99, Math.max(1, Math.round(m.similarity * 100)));
}

/** "Very likely the same claim (an estimated 97% chance)"; "The same text" when it is. */
export function sameClaimWords(m: Pick<ClaimMatch, "similarity" | "sameText">): string {
  if (m.sameText) return "The same claim, word for word";
  const words = BANDS.find(([from]) => m.similarity >= from)![1];
  return `${words} (an estimated ${sameClaimPercent(m)}% chance)`;
}

/** The threshold in the same terms: "shown from a 40% chance". */
export function thresholdWords(threshold: number): string {
  return `shown from a ${Math.round(threshold * 100)}% chance`;
}

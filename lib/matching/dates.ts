import type { ClaimMatch } from "./types";

const day = (iso: string) => iso.slice(0, 10);

/**
 * The two dates as they were found: a check without the claim's date shows the day it was checked
 * (never compared: the date window needs the claim's own date), and a claim given no date the one
 * year its text names.
 * Said the same on pages and in the CLI, so a "far apart" warning never follows "no date".
 */
export function datesCompared(m: Pick<ClaimMatch, "claimDate" | "reviewDate" | "queryDate">, yourDate?: string | null) {
  const theirs = m.claimDate
    ? `Their claim was made ${day(m.claimDate)}`
    : m.reviewDate
      ? `Their claim's date is unknown (checked ${day(m.reviewDate)})`
      : "Their claim's date is unknown";
  const yours = yourDate
    ? `yours on ${day(yourDate)}`
    : m.queryDate
      ? `yours has no date but names the year ${m.queryDate.slice(0, 4)}`
      : "yours has no date";
  return `${theirs}; ${yours}.`;
}

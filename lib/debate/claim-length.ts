/**
 * The claim's length limit and the words for going over it, shared by the form (live, as the user
 * types or pastes) and the server action (which refuses), so both say the same thing. Nothing cuts
 * a claim short: an over-long claim stays in the field for the user to shorten.
 */
export const CLAIM_LIMIT = 2000;

const n = (x: number) => x.toLocaleString("en-GB");

/** Browsers submit a textarea's line breaks as CRLF; counting them as one keeps form and server in step. */
export function normaliseClaim(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** `limit`: the protocol's own (lib/debate/protocols.ts); RADAR's is CLAIM_LIMIT. */
export function claimLengthError(text: string, limit = CLAIM_LIMIT): string | null {
  const length = normaliseClaim(text).length;
  if (length <= limit) return null;
  return `The claim is ${n(length)} characters; the limit is ${n(limit)}. Shorten it by ${n(length - limit)}: quote only the part to check.`;
}

export function claimCount(text: string): string {
  return `${n(normaliseClaim(text).length)} / ${n(CLAIM_LIMIT)} characters`;
}

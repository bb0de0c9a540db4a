/**
 * Who decided a verdict and why the debate stopped where it did, in words: the values a protocol
 * returns as its verdict's `decidedBy` and `stopReason` (lib/debate/types.ts), the budget's own
 * reasons included. Shared by every method's page.
 */
export const STOP_REASON_WORDS: Record<string, string> = {
  consensus: "the agents agreed and their answers passed the checks",
  rounds: "the agents did not agree within the rounds allowed",
  "budget:tokens": "the token budget ran out before the agents agreed",
  "budget:calls": "the model-call budget ran out before the agents agreed",
  "early-stop": "the judge was confident enough to stop early",
};

export function stopReasonWords(reason: string | undefined | null): string | null {
  if (!reason) return null;
  return STOP_REASON_WORDS[reason] ?? reason.replace(/[-:]/g, " ");
}

export function decidedByWords(decidedBy: string | undefined | null): string | null {
  if (decidedBy === "consensus") return "Decided by consensus: the agents agreed and their answers passed the checks";
  if (decidedBy === "judge") return "Decided by the judge";
  if (decidedBy === "panel") return "Decided by a panel of judges";
  return decidedBy ? `Decided by ${decidedBy}` : null;
}

import type { SearchResult } from "@/lib/tools";
import type { DebateContext, DebateEvidence, TurnResult } from "./types";

/**
 * What every protocol does the same way: stop before a model call once the budget is spent, read
 * an answer and ask for one repair when it cannot be read, and turn search results into evidence.
 */

/** Thrown before a model call once the debate's budget is spent; the protocol then goes to its judge. */
export class BudgetStop extends Error {
  constructor(public readonly which: "tokens" | "calls") {
    super(`budget:${which}`);
  }
}

/** A guard to call before each model call: throws BudgetStop once the budget is spent. */
export function budgetGuard(ctx: Pick<DebateContext<unknown>, "budget">): () => void {
  return () => {
    const spent = ctx.budget().exhausted;
    if (spent) throw new BudgetStop(spent);
  };
}

/** `budget:tokens` / `budget:calls` once the budget is spent (a stop reason), else null. */
export function budgetSpent(ctx: Pick<DebateContext<unknown>, "budget">): string | null {
  const spent = ctx.budget().exhausted;
  return spent ? `budget:${spent}` : null;
}

/** Anything answered in words: a stored turn, or a single model call inside one (the runner's JSON repair). */
type Answer = { text: string };

export type Repaired<T, R extends Answer, Q extends Answer = TurnResult> = {
  /** What was read: from the answer, else from its repair; null when neither could be read. */
  value: T | null;
  /** The text the value was read from; when neither was readable, the first answer's or the repair's (`onFailure`). */
  text: string;
  /** The first answer's turn (scored, for a scored turn). */
  turn: R;
  /** The repair's turn, when one was asked. */
  repair: Q | null;
};

/**
 * The answer-then-repair-once pattern: `ask` the question, `read` the answer, and when it cannot be
 * read ask once more with `repair` (which sees the first answer; it returns null when no repair
 * may be asked, e.g. the budget is spent). Nothing stands in for an answer nobody could read.
 */
export async function answerWithRepair<T, R extends Answer, Q extends Answer = TurnResult>(opts: {
  ask: () => Promise<R>;
  read: (text: string) => T | null;
  repair: (first: R) => Promise<Q> | null;
  /** Which text to keep when the repair could not be read either: the first answer's (default) or the repair's. */
  onFailure?: "first" | "repair";
}): Promise<Repaired<T, R, Q>> {
  const turn = await opts.ask();
  const value = opts.read(turn.text);
  if (value !== null) return { value, text: turn.text, turn, repair: null };
  const asked = opts.repair(turn);
  if (asked === null) return { value: null, text: turn.text, turn, repair: null };
  const repair = await asked;
  const again = opts.read(repair.text);
  if (again !== null) return { value: again, text: repair.text, turn, repair };
  return { value: null, text: opts.onFailure === "repair" ? repair.text : turn.text, turn, repair };
}

/** A search result as a passage for the debate's pool (`ctx.addEvidence` items), with the caller's metadata. */
export function resultAsEvidence(
  r: SearchResult,
  metadata: Record<string, unknown>,
): Omit<DebateEvidence, "rank" | "origin" | "addedSeq" | "visibleTo"> {
  return {
    text: r.text,
    source: "tool",
    title: r.title || undefined,
    url: r.url ?? undefined,
    publishedAt: r.publishedAt ?? undefined,
    ...(r.source.kind === "corpus" ? { passageId: r.source.passageId, externalId: r.source.passageExternalId } : {}),
    metadata,
  };
}

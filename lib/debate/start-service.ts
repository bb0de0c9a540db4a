import type { DbHandle } from "@/db/client";
import { admit } from "@/db/queries/rate-limits";
import { assertWebModels } from "@/lib/ai/web-models";
import { demand, type Principal } from "@/lib/auth/policy";
import { getConfig } from "@/lib/config";
import { matchBeforeStart, type MatchChoice, type MatchStep } from "@/lib/matching/before-start";
import { claimLengthError } from "./claim-length";
import { claimLimitFor } from "./protocols";
import { startOrEnqueue } from "./queue";
import { checkDebateRequest, createDebate, DebateRequestError, type StartDebateInput } from "./start";

/*
 * Starting one debate, the same steps in the same order for every entry point that starts one
 * (the debate form, POST /api/v1/debates): who may, the claim's length, the models, the request's
 * own checks, claim matching against earlier checks, the rate limit, storage, then the queue.
 * Each step runs before anything is counted, stored or spent that a later refusal would waste.
 * Callers only translate their input to StartDebateInput and the outcome or refusal to theirs.
 */

/** DEBATE_RATE_LIMIT refused the start; nothing was stored. */
export class StartRateLimited extends Error {
  constructor(
    public readonly limit: number,
    public readonly retryAfterSeconds: number,
  ) {
    super(
      `This account has started ${limit} debates in this period; try again in ${Math.ceil(retryAfterSeconds / 60)} minutes (DEBATE_RATE_LIMIT sets the limit).`,
    );
    this.name = "StartRateLimited";
  }
}

export type StartOptions = {
  handle: DbHandle;
  /** The person's choice on the match step (the form). */
  choice?: MatchChoice;
  /**
   * What to do when earlier checks match and no choice was made: `ask` returns them (the form
   * shows them; the API refuses), `attach` attaches them all as evidence, `debate-anyway` starts
   * without them (the choice is stored with the debate either way).
   */
  onMatch?: "ask" | "attach" | "debate-anyway";
  /** Told the limit's use after it is counted (for the API's RateLimit headers). */
  onRate?: (u: { limit: number; remaining: number; resetSeconds: number }) => void;
};

export type StartOutcome = { kind: "started"; id: string } | { kind: "matched"; step: MatchStep };

/**
 * Refusals are thrown: AuthError (permission), DebateRequestError (the request; `field` says
 * where), ModelNotAllowedError, MatchChoiceError (a choice that cannot be carried out),
 * StartRateLimited.
 */
export async function startDebate(
  principal: Principal | null,
  input: StartDebateInput,
  options: StartOptions,
): Promise<StartOutcome> {
  const user = demand(principal, "debate:start");
  const tooLong = claimLengthError(input.claim ?? "", claimLimitFor(input.protocol));
  if (tooLong) throw new DebateRequestError(tooLong, "claim");
  assertWebModels(input.models ?? {});
  // The request's own problems first, so a claim is not matched (and a choice not asked for) that cannot start.
  checkDebateRequest(input);
  const { handle } = options;
  const { db } = handle;
  // Matched before anything is counted, stored or spent (lib/matching/before-start.ts).
  const outcome = await matchBeforeStart(
    { db },
    { claim: input.claim, claimDate: input.claimDate, choice: options.choice },
  );
  let decision;
  if (outcome.kind === "go") decision = outcome.decision;
  else if (options.onMatch === "attach")
    decision = {
      choice: "attach-as-evidence" as const,
      matches: outcome.step.matches,
      attached: outcome.step.matches,
    };
  else if (options.onMatch === "debate-anyway")
    decision = { choice: "debate-anyway" as const, matches: outcome.step.matches };
  else return { kind: "matched", step: outcome.step };
  const { limit, windowSeconds } = getConfig().rateLimits.debateStarts;
  const rate = await admit(db, `debate-start:user:${user.id}`, 1, limit, windowSeconds);
  options.onRate?.({ limit, remaining: Math.max(0, limit - rate.count), resetSeconds: rate.retryAfterSeconds });
  if (!rate.allowed) throw new StartRateLimited(limit, rate.retryAfterSeconds);
  const id = await createDebate(db, input, { createdBy: user.id, matchDecision: decision });
  // PostgreSQL: queued for a worker (any process); PGlite: run here, as always.
  await startOrEnqueue(handle, id);
  return { kind: "started", id };
}

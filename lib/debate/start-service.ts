import type { Database, DbHandle } from "@/db/client";
import { admit, forgive } from "@/db/queries/rate-limits";
import { assertWebModels } from "@/lib/ai/web-models";
import { demand, type Principal } from "@/lib/auth/policy";
import { getConfig } from "@/lib/config";
import { matchBeforeStart, type MatchChoice, type MatchStep } from "@/lib/matching/before-start";
import type { MatchDecision } from "@/lib/matching/types";
import { claimLengthError } from "./claim-length";
import { claimLimitFor } from "./protocols";
import { startOrEnqueue } from "./queue";
import { checkDebateRequest, createDebate, DebateRequestError, type StartDebateInput } from "./start";

/*
 * Starting debates, the same steps in the same order for every entry point that starts one (the
 * debate form, POST /api/v1/debates, `counterpoint debate`; comparisons through startComparison
 * in lib/compare/start-service.ts and /check-text's batch through lib/checkworthy/start.ts use the
 * steps below too):
 *
 *   1. who may (demand "debate:start")      2. the claim's length, for the method
 *   3. the models a web user may name       4. the request's own checks (fields, method, presets)
 *   5. claim matching against earlier checks 6. the rate limit (DEBATE_RATE_LIMIT), all or none
 *   7. storage (a refusal here is not counted) 8. the queue (PGlite: run in this process)
 *
 * Each step runs before anything is counted, stored or spent that a later refusal would waste.
 * Callers only translate their input to the request and the outcome or refusal to theirs.
 */

/**
 * The command line's principal: whoever can run `counterpoint` already holds the database, so it
 * may start anything; its debates belong to nobody (created_by null), it may name any model (a
 * file, a download), and DEBATE_RATE_LIMIT, a per-account guard for web accounts, does not count
 * its debates. Every other step applies, in the same order.
 */
export const OPERATOR: Principal = Object.freeze({
  id: "operator",
  email: "operator@localhost",
  name: "Command line",
  roles: ["admin"],
}) as Principal;

/** DEBATE_RATE_LIMIT refused the start; nothing was stored or counted. */
export class StartRateLimited extends Error {
  constructor(
    public readonly limit: number,
    public readonly retryAfterSeconds: number,
    /** Debates the request would start, and how many the period had left, when it starts several. */
    public readonly wanted = 1,
    public readonly left = 0,
  ) {
    super(
      wanted > 1
        ? `This starts ${wanted} debates, and this account has ${left} of ${limit} left in this period; start fewer or try again in ${Math.ceil(retryAfterSeconds / 60)} minutes (DEBATE_RATE_LIMIT sets the limit).`
        : `This account has started ${limit} debates in this period; try again in ${Math.ceil(retryAfterSeconds / 60)} minutes (DEBATE_RATE_LIMIT sets the limit).`,
    );
    this.name = "StartRateLimited";
  }
}

export type StartOptions = {
  handle: DbHandle;
  /** The person's choice on the match step (the form). */
  choice?: MatchChoice;
  /**
   * What to do when earlier checks match and no choice was made: `ask` (the default) returns them
   * (the form shows them; the API refuses; the CLI prints them and exits 3), `attach` attaches
   * them all as evidence, `debate-anyway` starts without them (the choice is stored with the
   * debate either way). `skip` does not look (the CLI's --no-match; the stored decision is null).
   */
  onMatch?: "ask" | "attach" | "debate-anyway" | "skip";
  /** The similarity an earlier check must reach; the instance's setting when left out. */
  matchThreshold?: number;
  /** Told the limit's use after it is counted (for the API's RateLimit headers). */
  onRate?: (u: { limit: number; remaining: number; resetSeconds: number }) => void;
  /**
   * How a stored debate starts; by default the queue on PostgreSQL, this process on PGlite
   * (startOrEnqueue). The CLI passes its own to run the debate in the foreground.
   */
  start?: (debateId: string) => Promise<void>;
};

export type StartOutcome =
  /** `matched`: the earlier checks that matched, when `onMatch` went ahead with them (the CLI prints them). */
  | { kind: "started"; id: string; matchDecision: MatchDecision | null; matched?: MatchStep }
  | { kind: "matched"; step: MatchStep };

/**
 * Step 3: a web request may name only the models the server offers; the command line may name
 * any (a model file, a download), as lib/ai/web-models.ts explains.
 */
export function checkModels(principal: Principal, models: Record<string, string | undefined> | undefined): void {
  if (principal !== OPERATOR) assertWebModels(models ?? {});
}

/** Steps 2-4 for one debate's request: throws DebateRequestError (with `field`) or ModelNotAllowedError. */
export function checkStart(principal: Principal, input: StartDebateInput): void {
  const tooLong = claimLengthError(input.claim ?? "", claimLimitFor(input.protocol));
  if (tooLong) throw new DebateRequestError(tooLong, "claim");
  checkModels(principal, input.models);
  // The request's own problems first, so a claim is not matched (and a choice not asked for) that cannot start.
  checkDebateRequest(input);
}

/** Step 5: the decision to store, or the matches to show when no choice covers them. */
export async function matchStep(
  handle: DbHandle,
  claim: { claim: string; claimDate?: string | null },
  options: Pick<StartOptions, "choice" | "onMatch" | "matchThreshold">,
): Promise<{ kind: "go"; decision: MatchDecision | null; matched?: MatchStep } | { kind: "matched"; step: MatchStep }> {
  if (options.onMatch === "skip") return { kind: "go", decision: null };
  // Matched before anything is counted, stored or spent (lib/matching/before-start.ts).
  const outcome = await matchBeforeStart(
    { db: handle.db },
    { claim: claim.claim, claimDate: claim.claimDate, choice: options.choice, threshold: options.matchThreshold },
  );
  if (outcome.kind === "go") return outcome;
  const { matches } = outcome.step;
  if (options.onMatch === "attach")
    return {
      kind: "go",
      decision: { choice: "attach-as-evidence", matches, attached: matches },
      matched: outcome.step,
    };
  if (options.onMatch === "debate-anyway")
    return { kind: "go", decision: { choice: "debate-anyway", matches }, matched: outcome.step };
  return { kind: "matched", step: outcome.step };
}

/**
 * Where admitted debates are stored and how each starts: the debate queue through the handle, or
 * (an evaluation run, whose items are its queue) the database and the entry's own start.
 * `limit`: the entry's own start limit in place of DEBATE_RATE_LIMIT (a web evaluation run's size
 * and rate, lib/eval/web-run.ts); it throws to refuse, before anything is stored.
 */
export type AdmitOptions = Pick<StartOptions, "onRate"> & {
  limit?: (n: number) => Promise<void>;
} & (Pick<StartOptions, "handle" | "start"> | { db: Database; start: (debateId: string) => Promise<void> });

/**
 * Steps 6-8 for `n` debates: admits them all or none, stores them with `create` (a throw there
 * takes the count back), then starts each. `createdBy` is what to store as the debates' owner.
 * Returns what `create` made. `notStarted` on the result says how many of the `n` were not
 * created after all (a batch's matched or failed claims): they are taken back too.
 */
export async function admitStoreStart<T>(
  principal: Principal,
  n: number,
  options: AdmitOptions,
  create: (createdBy: string | null) => Promise<T & { debateIds: string[]; notStarted?: number }>,
): Promise<T & { debateIds: string[] }> {
  const db = "handle" in options ? options.handle.db : options.db;
  const operator = principal === OPERATOR;
  const { limit, windowSeconds } = getConfig().rateLimits.debateStarts;
  const key = `debate-start:user:${principal.id}`;
  const now = new Date();
  // An entry with a limit of its own (a web evaluation run) is admitted by it instead, all or none.
  if (!operator && options.limit) await options.limit(n);
  else if (!operator) {
    // Every debate admitted (and counted) at once, or none: one statement, so starts made in
    // parallel cannot pass the limit between a check and a count.
    const rate = await admit(db, key, n, limit, windowSeconds, now);
    options.onRate?.({ limit, remaining: Math.max(0, limit - rate.count), resetSeconds: rate.retryAfterSeconds });
    if (!rate.allowed) throw new StartRateLimited(limit, rate.retryAfterSeconds, n, Math.max(0, limit - rate.used));
  }
  let created;
  try {
    created = await create(operator ? null : principal.id);
  } catch (e) {
    if (!operator) await forgive(db, key, windowSeconds, now, n);
    throw e;
  }
  if (!operator && !options.limit && created.notStarted) await forgive(db, key, windowSeconds, now, created.notStarted);
  // PostgreSQL: queued for a worker (any process); PGlite: run here, as always.
  const start =
    "handle" in options ? (options.start ?? ((id: string) => startOrEnqueue(options.handle, id))) : options.start;
  for (const id of created.debateIds) await start(id);
  return created;
}

/**
 * Starts one debate for `principal` (OPERATOR on the command line). Returns its id, or the
 * earlier checks that matched when the options say to ask. Refusals are thrown: AuthError
 * (permission), DebateRequestError (the request; `field` says where), ModelNotAllowedError,
 * MatchChoiceError (a choice that cannot be carried out), StartRateLimited.
 */
export async function startDebate(
  principal: Principal | null,
  input: StartDebateInput,
  options: StartOptions,
): Promise<StartOutcome> {
  const user = demand(principal, "debate:start");
  checkStart(user, input);
  const match = await matchStep(options.handle, { claim: input.claim, claimDate: input.claimDate }, options);
  if (match.kind === "matched") return match;
  const matchDecision = match.decision;
  const { debateIds } = await admitStoreStart(user, 1, options, async (createdBy) => ({
    debateIds: [await createDebate(options.handle.db, input, { createdBy, matchDecision })],
  }));
  return { kind: "started", id: debateIds[0]!, matchDecision, matched: match.matched };
}

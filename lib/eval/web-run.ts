import type { Database } from "@/db/client";
import { admit } from "@/db/queries/rate-limits";
import { getConfig } from "@/lib/config";

/**
 * The policy for runs started from the web, where anyone allowed to start a debate can start one:
 * a run is many debates at once, so the debate rate limit alone would let one form submission
 * start 13,500 of them. A web run may create at most EVAL_WEB_MAX_CLAIMS debates, and one person
 * may start EVAL_WEB_RUN_LIMIT runs per period (counted like the debate limit, per account), so the
 * debates one person can start from the web per period stay bounded. Operators run anything
 * larger with the CLI, which needs database access rather than an account.
 */

export class WebRunLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebRunLimitError";
  }
}

/**
 * Checks the size first (free), then admits the start; throws WebRunLimitError with what to do.
 * A matrix is `runs` runs admitted together in one statement: all of them or none.
 */
export async function admitWebRun(db: Database, userId: string, claims: number, runs = 1): Promise<void> {
  const limits = getConfig().evalWeb;
  if (claims > limits.maxClaims) {
    throw new WebRunLimitError(
      `This run would start ${claims.toLocaleString("en")} debates; a run started from the web may have at most ${limits.maxClaims.toLocaleString("en")} claims. Set "Limit (claims)" to ${limits.maxClaims.toLocaleString("en")} or fewer, or run the file with npx counterpoint eval. An admin can raise the limit with EVAL_WEB_MAX_CLAIMS.`,
    );
  }
  const rate = await admit(db, `eval-run-start:user:${userId}`, runs, limits.runs.limit, limits.runs.windowSeconds);
  if (!rate.allowed) {
    if (runs > 1 && rate.used + runs > limits.runs.limit && rate.used < limits.runs.limit) {
      throw new WebRunLimitError(
        `This matrix starts ${runs} evaluation runs and you have ${limits.runs.limit - rate.used} of ${limits.runs.limit} left in this period (limit ${limits.runs.spec}). Choose fewer methods or try again later; an admin can raise the limit with EVAL_WEB_RUN_LIMIT.`,
      );
    }
    const wait =
      rate.retryAfterSeconds >= 5400
        ? `${Math.ceil(rate.retryAfterSeconds / 3600)} hours`
        : `${Math.max(1, Math.ceil(rate.retryAfterSeconds / 60))} minutes`;
    throw new WebRunLimitError(
      `You have started ${limits.runs.limit} evaluation runs in this period (limit ${limits.runs.spec}). Try again in ${wait}; an admin can raise the limit with EVAL_WEB_RUN_LIMIT.`,
    );
  }
}

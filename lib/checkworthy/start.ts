import type { DbHandle } from "@/db/client";
import { normaliseClaim } from "@/lib/debate/claim-length";
import { parseDebateForm } from "@/lib/debate/form";
import { createDebate, DebateRequestError, startDebateSchema, type StartDebateInput } from "@/lib/debate/start";
import { admitStoreStart, checkModels, matchStep } from "@/lib/debate/start-service";
import { demand, type Principal } from "@/lib/auth/policy";
import type { Embedder } from "@/lib/embeddings/registry";
import type { ClaimMatch, MatchDecision } from "@/lib/matching/types";

/**
 * Starting debates for several claims picked from one text, all at once: the one way a batch from
 * the check-worthy page (and any later caller) starts. Each claim is matched against earlier checks
 * before it starts (lib/matching/before-start.ts), here, between "every claim is valid" and "create
 * the debates", so that no caller can skip it: a claim checked before is not started but handed
 * back with its matches, for the person to open, attach or debate anyway on the debate form.
 *
 * Every claim is checked before anything is stored, so a refusal names the claim to fix and
 * nothing half-starts. Past that, a claim that still fails (its corpus has no passage for it) is
 * reported by number while the others go ahead: their debates exist and run.
 */

export const MAX_CHECKED_CLAIMS = 10;

export type CheckedClaim = {
  /** The stand-alone claim the user wrote from the sentence. */
  claim: string;
  /** YYYY-MM-DD: when it was said (the text's date, unless the user changed it). */
  claimDate?: string;
};

export type CheckedClaimsRequest = {
  claims: readonly CheckedClaim[];
  /** The debate form's fields shared by every claim: method (`protocol`), corpus, evidence, models, budget. */
  settings: Record<string, string>;
};

export type CheckedClaimsResult = {
  started: Array<{ index: number; debateId: string; claim: string }>;
  failed: Array<{ index: number; claim: string; error: string }>;
  /** Checked before: not started, nothing spent; the person decides on the debate form. */
  matched: Array<{ index: number; claim: string; claimDate: string | null; matches: ClaimMatch[] }>;
};

/** A refusal of the whole batch before anything was stored; `index` is the claim's position (from 0) when it concerns one. */
export class CheckedClaimsError extends Error {
  constructor(
    message: string,
    public readonly index?: number,
    public readonly field?: string,
  ) {
    super(message);
    this.name = "CheckedClaimsError";
  }
}

/** The request each claim becomes, validated; throws CheckedClaimsError naming the first claim that is refused. */
export function checkedClaimRequests(req: CheckedClaimsRequest): StartDebateInput[] {
  if (req.claims.length === 0) throw new CheckedClaimsError("Pick at least one sentence to check.");
  if (req.claims.length > MAX_CHECKED_CLAIMS)
    throw new CheckedClaimsError(
      `You picked ${req.claims.length} sentences; at most ${MAX_CHECKED_CLAIMS} debates start at once. Untick some and start the rest afterwards.`,
    );
  return req.claims.map((c, i) => {
    const input = parseDebateForm({
      ...req.settings,
      claim: normaliseClaim(c.claim),
      claimDate: c.claimDate ?? "",
    });
    const parsed = startDebateSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.join(".");
      // A problem with the shared settings (no corpus, unknown method) is the same for every claim: say it once.
      if (field !== "claim" && field !== "claimDate") throw new CheckedClaimsError(issue.message, undefined, field);
      throw new CheckedClaimsError(`Claim ${i + 1}: ${issue.message}`, i, field);
    }
    return input;
  });
}

/**
 * Starts the batch for `principal` in the order every start follows (lib/debate/start-service.ts):
 * who may, each claim's request check (claim length included), the models, claim matching for
 * each claim, the rate limit for the claims that go ahead (all of them or none), storage, the
 * queue. Throws AuthError, CheckedClaimsError, ModelNotAllowedError or StartRateLimited (with
 * `wanted` and `left`); nothing is stored or counted then.
 */
export async function startCheckedClaims(
  principal: Principal | null,
  handle: DbHandle,
  req: CheckedClaimsRequest,
  opts: {
    embedder?: Embedder;
    /** How a created debate starts; default: the queue on PostgreSQL, this process on PGlite. */
    start?: (debateId: string) => Promise<void>;
  } = {},
): Promise<CheckedClaimsResult> {
  const user = demand(principal, "debate:start");
  const inputs = checkedClaimRequests(req);
  for (const input of inputs) checkModels(user, input.models);
  const result: CheckedClaimsResult = { started: [], failed: [], matched: [] };
  // Each claim matched before anything is counted or stored: a claim checked before is handed back, not started.
  const going: Array<{ index: number; input: StartDebateInput; decision: MatchDecision | null }> = [];
  for (const [i, input] of inputs.entries()) {
    const claimDate = input.claimDate || null;
    const outcome = await matchStep(handle, { claim: input.claim, claimDate }, {});
    if (outcome.kind === "matched") {
      result.matched.push({ index: i, claim: input.claim, claimDate, matches: outcome.step.matches });
      continue;
    }
    going.push({ index: i, input, decision: outcome.decision });
  }
  if (going.length === 0) return result;
  await admitStoreStart(user, going.length, { handle, start: opts.start }, async (createdBy) => {
    for (const { index: i, input, decision } of going) {
      try {
        const debateId = await createDebate(handle.db, input, {
          createdBy,
          embedder: opts.embedder,
          matchDecision: decision,
        });
        result.started.push({ index: i, debateId, claim: input.claim });
      } catch (e) {
        // The first claim refused for a shared reason (a model not configured) would refuse them all: nothing is started.
        if (e instanceof DebateRequestError && result.started.length === 0 && e.field !== "corpus")
          throw new CheckedClaimsError(e.message, undefined, e.field);
        if (!(e instanceof DebateRequestError)) throw e;
        result.failed.push({ index: i, claim: input.claim, error: e.message });
      }
    }
    // A claim that failed here was counted with the others: it is taken back.
    return { debateIds: result.started.map((st) => st.debateId), notStarted: result.failed.length };
  });
  return result;
}

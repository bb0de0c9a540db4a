import type { DbHandle } from "@/db/client";
import { normaliseClaim } from "@/lib/debate/claim-length";
import { parseDebateForm } from "@/lib/debate/form";
import { startOrEnqueue } from "@/lib/debate/queue";
import { createDebate, DebateRequestError, startDebateSchema, type StartDebateInput } from "@/lib/debate/start";
import type { Embedder } from "@/lib/embeddings/registry";
import { matchBeforeStart } from "@/lib/matching/before-start";
import type { ClaimMatch } from "@/lib/matching/types";

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

export async function startCheckedClaims(
  handle: DbHandle,
  req: CheckedClaimsRequest,
  opts: {
    createdBy?: string | null;
    embedder?: Embedder;
    /** How a created debate starts; default: the queue on PostgreSQL, this process on PGlite. */
    start?: (debateId: string) => Promise<void>;
  } = {},
): Promise<CheckedClaimsResult> {
  const inputs = checkedClaimRequests(req);
  const result: CheckedClaimsResult = { started: [], failed: [], matched: [] };
  for (const [i, input] of inputs.entries()) {
    const claimDate = input.claimDate || null;
    const outcome = await matchBeforeStart({ db: handle.db }, { claim: input.claim, claimDate });
    if (outcome.kind === "show") {
      result.matched.push({ index: i, claim: input.claim, claimDate, matches: outcome.step.matches });
      continue;
    }
    try {
      const debateId = await createDebate(handle.db, input, {
        createdBy: opts.createdBy ?? null,
        embedder: opts.embedder,
        matchDecision: outcome.decision,
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
  const start = opts.start ?? ((id: string) => startOrEnqueue(handle, id));
  for (const s of result.started) await start(s.debateId);
  return result;
}

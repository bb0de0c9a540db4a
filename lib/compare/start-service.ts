import { demand, type Principal } from "@/lib/auth/policy";
import { admitStoreStart, checkModels, matchStep, type StartOptions } from "@/lib/debate/start-service";
import type { MatchStep } from "@/lib/matching/before-start";
import type { MatchDecision } from "@/lib/matching/types";
import { checkCompareRequest, createComparison, type CompareRequest } from "./start";

export type ComparisonOutcome =
  | {
      kind: "started";
      id: string;
      debateIds: string[];
      /** The methods as checked, in the order of debateIds. */
      methods: Array<{ protocol: string; preset?: string }>;
      matchDecision: MatchDecision | null;
      /** The earlier checks that matched, when `onMatch` went ahead with them. */
      matched?: MatchStep;
    }
  | { kind: "matched"; step: MatchStep };

/**
 * Starts a comparison (one claim, one debate per method) for `principal` (OPERATOR on the command
 * line), in the order every start follows (lib/debate/start-service.ts): who may, each method's
 * request check (claim length included), the models, claim matching once for all the methods,
 * the rate limit for all the debates at once or none, storage, the queue. Used by the form
 * (app/compare/actions.ts), POST /api/v1/comparisons and `counterpoint debate --protocols`.
 * Refusals are thrown as startDebate's are; StartRateLimited carries `wanted` and `left`.
 */
export async function startComparison(
  principal: Principal | null,
  request: CompareRequest,
  options: StartOptions,
): Promise<ComparisonOutcome> {
  const user = demand(principal, "debate:start");
  const checked = checkCompareRequest(request);
  checkModels(user, request.models);
  const match = await matchStep(options.handle, { claim: checked.claim, claimDate: checked.claimDate }, options);
  if (match.kind === "matched") return match;
  const matchDecision = match.decision;
  const created = await admitStoreStart(user, checked.methods.length, options, (createdBy) =>
    createComparison(options.handle.db, request, { createdBy, matchDecision }),
  );
  return {
    kind: "started",
    id: created.id,
    debateIds: created.debateIds,
    methods: checked.methods,
    matchDecision,
    matched: match.matched,
  };
}

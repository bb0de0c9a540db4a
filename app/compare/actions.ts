"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { getComparison, revokeComparisonShare } from "@/db/queries/comparisons";
import { createComparisonShare } from "@/lib/compare/shares";
import { estimateComparison, parseCompareForm, type CompareEstimate } from "@/lib/compare/form";
import { startComparison } from "@/lib/compare/start-service";
import { StartRateLimited } from "@/lib/debate/start-service";
import { DebateRequestError } from "@/lib/debate/start";
import { normaliseClaim } from "@/lib/debate/claim-length";
import { ModelNotAllowedError } from "@/lib/ai/web-models";
import { requirePermission } from "@/lib/auth/server";
import { AuthError } from "@/lib/auth/policy";
import { REVOKE_REFUSAL } from "@/lib/auth/access";
import { refusalsAsStatus } from "@/lib/auth/action-refusal";
import { announceRevoked } from "@/lib/auth/revocations";
import { choiceFromForm, MatchChoiceError, type MatchStep } from "@/lib/matching/before-start";

/** `match`: earlier checks of this claim were found; nothing is stored until the person chooses. */
export type CompareState = {
  error?: string;
  field?: string;
  values?: Record<string, string>;
  methods?: string[];
  match?: MatchStep;
};

/**
 * "Compare methods" on /debates/new posts here: the claim is stored once, then every chosen
 * method's debate is created on it and started the normal way (PostgreSQL: queued for the workers;
 * PGlite: run in this process, all at once). Each debate counts against the start limit.
 */
export async function startComparisonAction(_prev: CompareState, form: FormData): Promise<CompareState> {
  const values = Object.fromEntries(
    [...form.entries()].filter(([k, v]) => typeof v === "string" && k !== "method"),
  ) as Record<string, string>;
  const methods = form.getAll("method").filter((m): m is string => typeof m === "string");
  let id: string;
  try {
    const user = await requirePermission("debate:start");
    const request = parseCompareForm({ ...values, claim: normaliseClaim(values.claim ?? "") }, methods);
    // Checks, claim matching (once for all the methods), the limit, storage and the queue, as every entry point does them.
    const outcome = await startComparison(user, request, { handle: await getDb(), choice: choiceFromForm(form) });
    if (outcome.kind === "matched") return { values, methods, match: outcome.step };
    id = outcome.id;
  } catch (e) {
    if (e instanceof MatchChoiceError)
      return { error: e.message, field: "matchChoice", values, methods, match: e.step };
    if (e instanceof DebateRequestError) return { error: e.message, field: e.field, values, methods };
    if (e instanceof ModelNotAllowedError) return { error: e.message, field: `models.${e.role}`, values, methods };
    if (e instanceof StartRateLimited)
      return {
        error: `Comparing ${e.wanted} methods starts ${e.wanted} debates, and you have ${e.left} of ${e.limit} left in this period. Choose fewer methods or try again later (DEBATE_RATE_LIMIT sets the limit).`,
        values,
        methods,
      };
    if (e instanceof AuthError) return { error: e.message, values, methods };
    console.error("[compare] could not start:", e);
    return { error: `Could not start the comparison: ${(e as Error).message}`, values, methods };
  }
  redirect(`/compare/${id}`);
}

/** The combined cost preview: each chosen method's own estimate, added up. Nothing is stored. */
export async function estimateComparisonAction(
  values: Record<string, string>,
  methods: string[],
): Promise<CompareEstimate> {
  try {
    await requirePermission("debate:start");
    const clean = Object.fromEntries(Object.entries(values ?? {}).filter(([, v]) => typeof v === "string"));
    return estimateComparison(
      clean,
      (methods ?? []).filter((m) => typeof m === "string"),
    );
  } catch (e) {
    if (e instanceof AuthError) return { ok: false, message: e.message };
    return { ok: false, message: `No estimate: ${(e as Error).message}` };
  }
}

/** A read-only link to a comparison (form field `comparisonId`); /share/compare/<token> opens it. */
export async function createComparisonShareAction(form: FormData) {
  return refusalsAsStatus(async () => {
    const user = await requirePermission("debate:share");
    const comparisonId = String(form.get("comparisonId") ?? "");
    if (!/^[0-9a-f-]{36}$/i.test(comparisonId)) return;
    const { db } = await getDb();
    if (!(await getComparison(db, comparisonId))) return;
    await createComparisonShare(db, comparisonId, user.id, { transcripts: form.get("transcripts") === "on" });
    revalidatePath(`/compare/${comparisonId}`);
  });
}

/** Only the link's maker or an admin, and only for the comparison it opens; every stream opened with it ends. */
export async function revokeComparisonShareAction(form: FormData) {
  return refusalsAsStatus(async () => {
    const user = await requirePermission("debate:share");
    const token = String(form.get("token") ?? "");
    const comparisonId = String(form.get("comparisonId") ?? "");
    const { db } = await getDb();
    if (!(await revokeComparisonShare(db, token, comparisonId, { id: user.id, admin: user.roles.includes("admin") })))
      throw new AuthError(REVOKE_REFUSAL, 403);
    announceRevoked(token);
    revalidatePath(`/compare/${comparisonId}`);
  });
}

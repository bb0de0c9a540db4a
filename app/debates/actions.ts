"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { startOrEnqueue } from "@/lib/debate/queue";
import { checkDebateRequest, createDebate, DebateRequestError } from "@/lib/debate/start";
import { estimateFromForm, parseDebateForm, type FormEstimate } from "@/lib/debate/form";
import { claimLimitFor } from "@/lib/debate/protocols";
import { admit } from "@/db/queries/rate-limits";
import { getConfig } from "@/lib/config";
import { assertWebModels, ModelNotAllowedError } from "@/lib/ai/web-models";
import { claimLengthError, normaliseClaim } from "@/lib/debate/claim-length";
import { requirePermission } from "@/lib/auth/server";
import { AuthError } from "@/lib/auth/policy";
import { choiceFromForm, MatchChoiceError, matchBeforeStart, type MatchStep } from "@/lib/matching/before-start";

/** `match`: earlier checks of this claim were found; the form shows them and nothing is stored until the person chooses. */
export type StartState = { error?: string; field?: string; values?: Record<string, string>; match?: MatchStep };

/**
 * The submission form posts here. The debate is stored, started on the server (or, on
 * PostgreSQL, queued for a worker) and the browser is sent to its page; from then on it runs whether or not anyone is watching.
 */
export async function startDebateAction(_prev: StartState, form: FormData): Promise<StartState> {
  const values = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string")) as Record<
    string,
    string
  >;
  let id: string;
  try {
    const user = await requirePermission("debate:start");
    // Checked before the rate limit, so a refused request does not use up one of the user's debates.
    const tooLong = claimLengthError(values.claim ?? "", claimLimitFor(values.protocol));
    if (tooLong) return { error: tooLong, field: "claim", values };
    const input = parseDebateForm({ ...values, claim: normaliseClaim(values.claim ?? "") });
    assertWebModels(input.models ?? {});
    // The request's own problems first, so a claim is not matched (and a choice not asked for) that cannot start.
    checkDebateRequest(input);
    const handle = await getDb();
    const { db } = handle;
    // Matched before anything is counted, stored or spent (lib/matching/before-start.ts).
    const outcome = await matchBeforeStart(
      { db },
      {
        claim: input.claim,
        claimDate: input.claimDate,
        choice: choiceFromForm(form),
      },
    );
    if (outcome.kind === "show") return { values, match: outcome.step };
    const { limit, windowSeconds } = getConfig().rateLimits.debateStarts;
    const rate = await admit(db, `debate-start:user:${user.id}`, 1, limit, windowSeconds);
    if (!rate.allowed) {
      return {
        error: `You have started ${limit} debates in this period. Try again in ${Math.ceil(rate.retryAfterSeconds / 60)} minutes (DEBATE_RATE_LIMIT sets the limit).`,
        values,
      };
    }
    id = await createDebate(db, input, { createdBy: user.id, matchDecision: outcome.decision });
    // PostgreSQL: queued for a worker (any process); PGlite: run here, as always.
    await startOrEnqueue(handle, id);
  } catch (e) {
    if (e instanceof MatchChoiceError) return { error: e.message, field: "matchChoice", values, match: e.step };
    if (e instanceof DebateRequestError) return { error: e.message, field: e.field, values };
    if (e instanceof ModelNotAllowedError) return { error: e.message, field: `models.${e.role}`, values };
    if (e instanceof AuthError) return { error: e.message, values };
    console.error("[debates] could not start:", e);
    return { error: `Could not start the debate: ${(e as Error).message}`, values };
  }
  redirect(`/debates/${id}`);
}

/**
 * The form's cost preview, recomputed as the settings change. Reads only the configuration and
 * the price table; nothing is stored and no model is called.
 */
export async function estimateDebateAction(values: Record<string, string>): Promise<FormEstimate> {
  try {
    await requirePermission("debate:start");
    const clean = Object.fromEntries(Object.entries(values ?? {}).filter(([, v]) => typeof v === "string"));
    return estimateFromForm(clean);
  } catch (e) {
    if (e instanceof AuthError) return { ok: false, message: e.message };
    return { ok: false, message: `No estimate: ${(e as Error).message}` };
  }
}

"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { DebateRequestError } from "@/lib/debate/start";
import { startDebate, StartRateLimited } from "@/lib/debate/start-service";
import { estimateFromForm, parseDebateForm, type FormEstimate } from "@/lib/debate/form";
import { ModelNotAllowedError } from "@/lib/ai/web-models";
import { normaliseClaim } from "@/lib/debate/claim-length";
import { requirePermission } from "@/lib/auth/server";
import { AuthError } from "@/lib/auth/policy";
import { choiceFromForm, MatchChoiceError, type MatchStep } from "@/lib/matching/before-start";

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
    const input = parseDebateForm({ ...values, claim: normaliseClaim(values.claim ?? "") });
    // Checks, claim matching, the limit, storage and the queue, as every entry point does them.
    const outcome = await startDebate(user, input, { handle: await getDb(), choice: choiceFromForm(form) });
    if (outcome.kind === "matched") return { values, match: outcome.step };
    id = outcome.id;
  } catch (e) {
    if (e instanceof MatchChoiceError) return { error: e.message, field: "matchChoice", values, match: e.step };
    if (e instanceof DebateRequestError) return { error: e.message, field: e.field, values };
    if (e instanceof ModelNotAllowedError) return { error: e.message, field: `models.${e.role}`, values };
    if (e instanceof StartRateLimited) return { error: e.message, values };
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

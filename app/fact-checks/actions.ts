"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { AuthError } from "@/lib/auth/policy";
import { requirePermission } from "@/lib/auth/server";
import { refuse, type FormState } from "@/lib/forms/state";
import { startFactCheck, saveFactCheck } from "@/lib/fact-checks/edit";
import { contentValuesOf } from "@/lib/fact-checks/input";
import type { SourceRef } from "@/lib/fact-checks/source";
import { FactCheckError, publish, submitForReview } from "@/lib/fact-checks/workflow";

/*
 * The editor's actions. Each checks the permission on the server first (demand, through
 * requirePermission) and answers a refusal in the form, with everything the editor wrote kept.
 */

const GROUPS = ["source"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Refusals of the permission or of the workflow become the form's message; anything else is a real failure. */
function refusal(form: FormData, e: unknown): FormState {
  if (e instanceof AuthError) return refuse(form, e.message, undefined, GROUPS);
  if (e instanceof FactCheckError) return refuse(form, e.message, e.field, GROUPS);
  throw e;
}

function refOf(form: FormData): SourceRef | null {
  const debateId = String(form.get("debateId") ?? "");
  const comparisonId = String(form.get("comparisonId") ?? "");
  if (UUID.test(debateId)) return { debateId: debateId.toLowerCase() };
  if (UUID.test(comparisonId)) return { comparisonId: comparisonId.toLowerCase() };
  return null;
}

const seen = (form: FormData) => {
  const n = Number(form.get("seenVersion"));
  return Number.isInteger(n) && n > 0 ? n : null;
};

export async function createFactCheckAction(_prev: FormState, form: FormData): Promise<FormState> {
  let slug: string;
  try {
    const me = await requirePermission("fact-check:write");
    const ref = refOf(form);
    if (!ref)
      return refuse(form, "Open a finished debate or comparison and choose “Write a fact-check”.", undefined, GROUPS);
    const { db } = await getDb();
    slug = (await startFactCheck(db, me, ref, contentValuesOf(form))).slug;
  } catch (e) {
    return refusal(form, e);
  }
  revalidatePath("/fact-checks", "layout");
  redirect(`/fact-checks/${slug}/edit?saved=1`);
}

/** Saves the editor's form: a new draft version, or (on a published fact-check) a correction with its note. */
export async function saveFactCheckAction(_prev: FormState, form: FormData): Promise<FormState> {
  try {
    const me = await requirePermission("fact-check:write");
    const id = String(form.get("id") ?? "");
    const seenVersion = seen(form);
    if (!UUID.test(id) || !seenVersion) return refuse(form, "Reload the fact-check and try again.", undefined, GROUPS);
    const { db } = await getDb();
    const saved = await saveFactCheck(db, me, id, seenVersion, {
      ...contentValuesOf(form),
      correctionNote: String(form.get("correctionNote") ?? ""),
    });
    revalidatePath("/fact-checks", "layout");
    if (saved.kind === "correction")
      return {
        message: saved.pending
          ? `Correction saved as version ${saved.version}: readers see it once another editor approves it on the editors' desk.`
          : `Correction published as version ${saved.version}; readers see its note.`,
      };
    return { message: `Saved as version ${saved.version}.` };
  } catch (e) {
    return refusal(form, e);
  }
}

/** Moves a fact-check on: `submit` sends a draft for review; `publish` publishes it (or approves it, in review). */
export async function moveFactCheckAction(_prev: FormState, form: FormData): Promise<FormState> {
  try {
    const me = await requirePermission("fact-check:write");
    const id = String(form.get("id") ?? "");
    const seenVersion = seen(form);
    const move = String(form.get("move") ?? "");
    if (!UUID.test(id) || !seenVersion) return refuse(form, "Reload the fact-check and try again.");
    const { db } = await getDb();
    if (move === "submit") {
      await submitForReview(db, me, id, seenVersion);
      revalidatePath("/fact-checks", "layout");
      return { message: "Sent for review: another editor approves it from the editors' desk." };
    }
    if (move === "publish") {
      const { slug } = await publish(db, me, id, seenVersion);
      revalidatePath("/fact-checks", "layout");
      return { message: `Published at /fact-checks/${slug}.` };
    }
    return refuse(form, "Choose what to do: send for review or publish.");
  } catch (e) {
    if (e instanceof AuthError || e instanceof FactCheckError) return refuse(form, e.message);
    throw e;
  }
}

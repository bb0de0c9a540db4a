"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { getFactCheck } from "@/db/queries/fact-checks";
import { AuthError } from "@/lib/auth/policy";
import { requirePermission } from "@/lib/auth/server";
import { refuse, type FormState } from "@/lib/forms/state";
import { parseContent, parseCorrectionNote } from "@/lib/fact-checks/input";
import { loadSource, type SourceRef } from "@/lib/fact-checks/source";
import {
  correct,
  createFactCheck,
  FactCheckError,
  publish,
  saveDraft,
  submitForReview,
} from "@/lib/fact-checks/workflow";

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
    const source = await loadSource(db, ref);
    if (!source) return refuse(form, "That debate or comparison no longer exists.", undefined, GROUPS);
    const parsed = parseContent(form, source.evidence);
    if (!parsed.ok) return refuse(form, parsed.message, parsed.field, GROUPS);
    slug = (await createFactCheck(db, me, ref, parsed.content)).slug;
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
    const fc = await getFactCheck(db, id);
    if (!fc) return refuse(form, "That fact-check no longer exists.", undefined, GROUPS);
    const source = await loadSource(db, fc.debateId ? { debateId: fc.debateId } : { comparisonId: fc.comparisonId! });
    const parsed = parseContent(form, source?.evidence ?? []);
    if (!parsed.ok) return refuse(form, parsed.message, parsed.field, GROUPS);
    if (fc.state === "published" || fc.state === "corrected") {
      const note = parseCorrectionNote(form);
      if (!note.ok) return refuse(form, note.message, "correctionNote", GROUPS);
      const { version, pending } = await correct(db, me, id, seenVersion, parsed.content, note.note);
      revalidatePath("/fact-checks", "layout");
      return {
        message: pending
          ? `Correction saved as version ${version}: readers see it once another editor approves it on the editors' desk.`
          : `Correction published as version ${version}; readers see its note.`,
      };
    }
    const version = await saveDraft(db, me, id, seenVersion, parsed.content);
    revalidatePath("/fact-checks", "layout");
    return { message: `Saved as version ${version}.` };
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

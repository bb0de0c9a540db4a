"use server";

import { redirect } from "next/navigation";
import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { cancelDebate } from "@/lib/debate/runner";
import { resumeDebate } from "@/lib/debate/queue";
import { requirePermission } from "@/lib/auth/server";
import { AuthError } from "@/lib/auth/policy";

export type ControlState = { error?: string };

const UUID = /^[0-9a-f-]{36}$/i;

/** The debate a control form names, once its sender may control debates; otherwise what to tell them. */
async function controlledDebate(form: FormData): Promise<{ id: string } | { error: string }> {
  try {
    await requirePermission("debate:control");
  } catch (e) {
    if (e instanceof AuthError) return { error: e.message };
    throw e;
  }
  const id = String(form.get("id") ?? "");
  if (!UUID.test(id)) return { error: "This is not a debate id; reload the page." };
  return { id };
}

export async function cancelDebateAction(_prev: ControlState, form: FormData): Promise<ControlState> {
  const target = await controlledDebate(form);
  if ("error" in target) return target;
  const { id } = target;
  const { db } = await getDb();
  if (!(await cancelDebate(db, id)))
    return { error: "This debate is not running any more; reload the page to see where it ended." };
  revalidatePath(`/debates/${id}`);
  return {};
}

/**
 * Stopped, interrupted or failed debates continue from their last finished turn. The claim is
 * made here, before answering: if another run holds the debate (a worker, or someone who pressed
 * Resume first), the person is told so instead of a second run starting.
 */
export async function resumeDebateAction(_prev: ControlState, form: FormData): Promise<ControlState> {
  const target = await controlledDebate(form);
  if ("error" in target) return target;
  const { id } = target;
  // PostgreSQL: back to the queue for whichever worker is free; PGlite: claimed and run here.
  const claim = await resumeDebate(await getDb(), id);
  if (!claim.ok) return { error: claim.error };
  revalidatePath(`/debates/${id}`);
  redirect(`/debates/${id}`);
}

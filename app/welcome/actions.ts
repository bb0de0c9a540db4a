"use server";
import { getDb } from "@/db/client";
import { requirePermission } from "@/lib/auth/server";
import { AuthError } from "@/lib/auth/policy";
import { type LocalSetupState, localSetupState, startLocalModelSetup } from "@/lib/ai/local-model-setup";

export type LocalSetupAnswer = { state?: LocalSetupState; error?: string };

async function refusal(): Promise<string | undefined> {
  try {
    await requirePermission("admin");
    return undefined;
  } catch (e) {
    if (e instanceof AuthError) return e.message;
    throw e;
  }
}

/** "Use a small model on this server": starts (or joins) the download of the default local preset. */
export async function startLocalModelAction(): Promise<LocalSetupAnswer> {
  const error = await refusal();
  if (error) return { error };
  const { db } = await getDb();
  return { state: await startLocalModelSetup(db) };
}

/** The download's progress, polled by the page while it runs. */
export async function localModelProgressAction(): Promise<LocalSetupAnswer> {
  const error = await refusal();
  if (error) return { error };
  const { db } = await getDb();
  return { state: await localSetupState(db) };
}

import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";

/**
 * The progress of the local model download started from /welcome: one settings row, so a poll that
 * reaches any app server sees it, not only the process that runs the download. Its shape is
 * lib/ai/local-model-setup.ts's (db/ knows no lib types).
 */
const KEY = "local_model_setup";

export async function readLocalModelSetup(db: Database): Promise<{ value: unknown; updatedAt: Date } | undefined> {
  const [row] = await db
    .select({ value: s.settings.value, updatedAt: s.settings.updatedAt })
    .from(s.settings)
    .where(eq(s.settings.key, KEY));
  return row;
}

export async function writeLocalModelSetup(db: Database, value: unknown) {
  const updatedAt = new Date();
  await db
    .insert(s.settings)
    .values({ key: KEY, value, updatedAt })
    .onConflictDoUpdate({ target: s.settings.key, set: { value, updatedAt } });
}

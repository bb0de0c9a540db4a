import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";

/**
 * The model settings saved on /admin: one settings row, its shape checked by
 * lib/ai/model-settings.ts (db/ knows no lib types). Keys in it are sealed, never plain.
 */
const KEY = "model_settings";

export async function readModelSettings(db: Database): Promise<unknown> {
  const [row] = await db.select({ value: s.settings.value }).from(s.settings).where(eq(s.settings.key, KEY));
  return row?.value;
}

export async function writeModelSettings(db: Database, value: unknown) {
  await db
    .insert(s.settings)
    .values({ key: KEY, value, updatedAt: new Date() })
    .onConflictDoUpdate({ target: s.settings.key, set: { value, updatedAt: new Date() } });
}

import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";

const KEY = "fence_secret";

/**
 * The install's fence secret (lib/prompts/fence.ts `debateFence`), made on first use. Kept in the
 * database, not in DATA_DIR, because every process that may resume a debate (app servers and
 * workers on other machines) must derive the same fence for it; of two processes making it at
 * once, the first insert wins and both read that one.
 */
export async function ensureFenceSecret(db: Database): Promise<string> {
  await db
    .insert(s.settings)
    .values({ key: KEY, value: { secret: randomBytes(32).toString("hex") } })
    .onConflictDoNothing({ target: s.settings.key });
  const [row] = await db.select().from(s.settings).where(eq(s.settings.key, KEY));
  const secret = (row?.value as { secret?: unknown } | undefined)?.secret;
  if (typeof secret !== "string" || secret.length < 32)
    throw new Error(`the settings row "${KEY}" holds no usable secret; delete it and a new one is made`);
  return secret;
}

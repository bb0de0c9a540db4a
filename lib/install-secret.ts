import type { Database } from "@/db/client";
import { ensureFenceSecret } from "@/db/queries/fence-secret";
import { getConfig } from "@/lib/config";

/**
 * The install's own secret, the same in every process: FENCE_SECRET when set, else the one kept in
 * the database (made on first use). Each use derives its own key from it (debate fences, webhook
 * secret encryption), so one secret serves all without one use's key revealing another's.
 */
const kept = new WeakMap<Database, Promise<string>>();

export async function installSecret(db: Database): Promise<string> {
  const configured = getConfig().fenceSecret;
  if (configured) return configured;
  let secret = kept.get(db);
  if (!secret) {
    secret = ensureFenceSecret(db);
    // A failed read is not remembered: the next use tries again.
    secret.catch(() => kept.delete(db));
    kept.set(db, secret);
  }
  return secret;
}

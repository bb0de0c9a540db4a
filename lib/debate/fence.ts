import type { Database } from "@/db/client";
import { ensureFenceSecret } from "@/db/queries/fence-secret";
import { getConfig } from "@/lib/config";
import { debateFence, type Fence } from "@/lib/prompts/fence";

/**
 * The fence a debate's prompts use, the same in every run of it: derived from the debate's id and
 * the install's secret (FENCE_SECRET, else one kept in the database), so resuming a debate, on
 * this process or another, prompts with the fence it started with.
 */
const secrets = new WeakMap<Database, Promise<string>>();

export async function fenceForDebate(db: Database, debateId: string): Promise<Fence> {
  const configured = getConfig().fenceSecret;
  if (configured) return debateFence(debateId, configured);
  let secret = secrets.get(db);
  if (!secret) {
    secret = ensureFenceSecret(db);
    // A failed read is not remembered: the next debate tries again.
    secret.catch(() => secrets.delete(db));
    secrets.set(db, secret);
  }
  return debateFence(debateId, await secret);
}

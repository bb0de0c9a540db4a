import type { Database } from "@/db/client";
import * as q from "@/db/queries/webhooks";
import { isSealed, seal, SecretUnreadable, unseal } from "@/lib/secret-box";

/*
 * Signing secrets at rest, sealed by lib/secret-box.ts with the webhooks' own key, bound to the
 * subscription's id, so a copied value does not open in
 * another row. Stored as `v1.` + base64url(iv | tag | ciphertext). A row written before secrets
 * were encrypted still holds `whsec_…`: it is read as is and sealed by the delivery worker
 * (`sealPlainSecrets` when it starts, and on a delivery's first read).
 */

const INFO = "counterpoint webhook signing secrets v1";
const scope = (subscriptionId: string) => ({ purpose: INFO, boundTo: subscriptionId });

export { isSealed, SecretUnreadable };

export function sealSecret(db: Database, subscriptionId: string, secret: string): Promise<string> {
  return seal(db, scope(subscriptionId), secret);
}

/** The secret to sign with: decrypted, or a not yet sealed `whsec_` value as it is. */
export async function openSecret(db: Database, subscriptionId: string, stored: string): Promise<string> {
  if (!isSealed(stored)) return stored;
  return unseal(
    db,
    scope(subscriptionId),
    stored,
    "the signing secret could not be decrypted with this server's key (was FENCE_SECRET changed, or set or unset, since it was made?). Restore FENCE_SECRET, or replace the secret on this subscription's page and give the receiver the new one.",
  );
}

/**
 * Seals every secret still stored as written before encryption; returns how many. Safe to run from
 * several processes at once: a row is replaced only while it still holds the plain value.
 */
export async function sealPlainSecrets(db: Database): Promise<number> {
  const rows = await q.plainSecrets(db);
  for (const r of rows) await q.replaceStoredSecret(db, r.id, r.secret, await sealSecret(db, r.id, r.secret));
  return rows.length;
}

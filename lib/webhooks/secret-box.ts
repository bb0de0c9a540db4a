import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { Database } from "@/db/client";
import * as q from "@/db/queries/webhooks";
import { installSecret } from "@/lib/install-secret";

/*
 * Signing secrets at rest: AES-256-GCM with a key derived (HKDF-SHA256) from the install's secret
 * (lib/install-secret.ts), bound to the subscription's id, so a copied value does not open in
 * another row. Stored as `v1.` + base64url(iv | tag | ciphertext). A row written before secrets
 * were encrypted still holds `whsec_…`: it is read as is and sealed by the delivery worker
 * (`sealPlainSecrets` when it starts, and on a delivery's first read).
 */

const PREFIX = "v1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const INFO = "counterpoint webhook signing secrets v1";

/** The stored secret cannot be opened with this server's key. */
export class SecretUnreadable extends Error {}

async function keyFor(db: Database): Promise<Buffer> {
  return Buffer.from(hkdfSync("sha256", await installSecret(db), Buffer.alloc(0), INFO, 32));
}

export const isSealed = (stored: string) => stored.startsWith(PREFIX);

export async function sealSecret(db: Database, subscriptionId: string, secret: string): Promise<string> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", await keyFor(db), iv);
  cipher.setAAD(Buffer.from(subscriptionId, "utf8"));
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** The secret to sign with: decrypted, or a not yet sealed `whsec_` value as it is. */
export async function openSecret(db: Database, subscriptionId: string, stored: string): Promise<string> {
  if (!isSealed(stored)) return stored;
  const raw = Buffer.from(stored.slice(PREFIX.length), "base64url");
  try {
    const decipher = createDecipheriv("aes-256-gcm", await keyFor(db), raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(subscriptionId, "utf8"));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretUnreadable(
      "the signing secret could not be decrypted with this server's key (was FENCE_SECRET changed, or set or unset, since it was made?). Restore FENCE_SECRET, or replace the secret on this subscription's page and give the receiver the new one.",
    );
  }
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

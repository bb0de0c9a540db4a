import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { Database } from "@/db/client";
import { installSecret } from "@/lib/install-secret";

/*
 * Secrets at rest (webhook signing secrets, model provider keys): AES-256-GCM with a key derived
 * (HKDF-SHA256) from the install's secret (lib/install-secret.ts) for one purpose, and bound (as
 * associated data) to the record it belongs to, so a copied value does not open in another row or
 * for another use. Stored as `v1.` + base64url(iv | tag | ciphertext).
 */

const PREFIX = "v1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a sealed value is for: `purpose` picks the key (HKDF info), `boundTo` the record it opens in. */
export type SealScope = { purpose: string; boundTo: string };

/** The stored value cannot be opened with this server's key. */
export class SecretUnreadable extends Error {}

async function keyFor(db: Database, purpose: string): Promise<Buffer> {
  return Buffer.from(hkdfSync("sha256", await installSecret(db), Buffer.alloc(0), purpose, 32));
}

export const isSealed = (stored: string) => stored.startsWith(PREFIX);

export async function seal(db: Database, scope: SealScope, secret: string): Promise<string> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", await keyFor(db, scope.purpose), iv);
  cipher.setAAD(Buffer.from(scope.boundTo, "utf8"));
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** Decrypts a sealed value; `unreadable` is the message (what to do) when this server's key does not open it. */
export async function unseal(db: Database, scope: SealScope, stored: string, unreadable: string): Promise<string> {
  const raw = Buffer.from(stored.slice(PREFIX.length), "base64url");
  try {
    const decipher = createDecipheriv("aes-256-gcm", await keyFor(db, scope.purpose), raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(scope.boundTo, "utf8"));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretUnreadable(unreadable);
  }
}

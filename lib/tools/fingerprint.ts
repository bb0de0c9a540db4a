import { createHash } from "node:crypto";

/**
 * A setting's fingerprint: enough to tell that an address changed since a debate froze it,
 * without putting an internal address on the debate's page (its configuration reaches it).
 */
export function sourceFingerprint(value: string | undefined | null): string | null {
  return value ? createHash("sha256").update(value).digest("hex").slice(0, 16) : null;
}

import { createHash } from "node:crypto";
import type { Database } from "@/db/client";
import { claimKey, completeKey, releaseKey, type KeyClaim } from "@/db/queries/idempotency";
import { ApiError } from "./endpoint";

/*
 * `Idempotency-Key` on the POSTs that start (and pay for) work: the first request with a key does
 * the work and its answer is kept for 24 hours; a retry with the same key and the same body gets
 * that answer again without the work being done again; the same key with another body is a 409.
 * Keys belong to the account that sent them, so two clients cannot see each other's answers.
 */

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
/** Printable ASCII, as Stripe's and the IETF draft's keys are (a UUID fits). */
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;
/** How long a duplicate waits for the first request with its key to finish before it is told to retry. */
const WAIT_MS = 10_000;
const POLL_MS = 100;

export type IdempotentRun =
  | { kind: "replay"; status: number; body: unknown; location: string | null }
  | {
      kind: "run";
      done(status: number, body: unknown, location: string | null): Promise<void>;
      release(): Promise<void>;
    };

/** The key a request sends, or null; a malformed one is a 400 that says what a key looks like. */
export function idempotencyKeyOf(request: Request): string | null {
  const key = request.headers.get("idempotency-key");
  if (key === null) return null;
  if (!KEY_SHAPE.test(key))
    throw new ApiError(
      400,
      "invalid_request",
      "Idempotency-Key must be 1 to 255 printable ASCII characters without spaces; a UUID made for each new request is best.",
      "Idempotency-Key",
    );
  return key;
}

/**
 * Claims the key for this request, or gives the first request's answer. A duplicate that arrives
 * while the first is still running waits for it (up to 10 s), then is refused with a 409 to retry.
 */
export async function idempotent(
  db: Database,
  userId: string,
  key: string,
  operation: string,
  body: string,
): Promise<IdempotentRun> {
  const hash = createHash("sha256").update(`${operation}\n${body}`).digest("hex");
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const claim: KeyClaim = await claimKey(db, userId, key, hash, IDEMPOTENCY_TTL_SECONDS);
    if (claim.state === "claimed")
      return {
        kind: "run",
        done: (status, response, location) => completeKey(db, userId, key, { status, response, location }),
        release: () => releaseKey(db, userId, key),
      };
    if (claim.requestHash !== hash)
      throw new ApiError(
        409,
        "idempotency_conflict",
        "This Idempotency-Key was already used with another request (another body or operation) in the last 24 hours; use a new key for a new request.",
        "Idempotency-Key",
      );
    if (claim.status !== null)
      return { kind: "replay", status: claim.status, body: claim.response, location: claim.location };
    if (Date.now() >= deadline)
      throw new ApiError(
        409,
        "idempotency_conflict",
        "A request with this Idempotency-Key is still being processed; retry in a moment with the same key to get its answer.",
        "Idempotency-Key",
        { "retry-after": "1" },
      );
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

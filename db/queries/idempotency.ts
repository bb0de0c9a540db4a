import { and, eq, isNull, lte, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";

/** Expired keys removed per claim: a bounded delete (at most this many rows per statement). */
const PRUNE_BATCH = 100;

export type KeyClaim =
  /** This request holds the key: do the work, then `completeKey` or `releaseKey`. */
  | { state: "claimed" }
  /** Another request holds it, finished or not. */
  | {
      state: "held";
      requestHash: string;
      status: number | null;
      response: unknown;
      location: string | null;
    };

/**
 * Claims `key` for this user in one statement: a new row, or a row whose 24 hours are over taken
 * over. Two concurrent requests with one key cannot both claim it (the primary key; PostgreSQL
 * re-checks the update's condition on the row it locked), so the work runs once.
 */
export async function claimKey(
  db: Database,
  userId: string,
  key: string,
  requestHash: string,
  ttlSeconds: number,
  now = new Date(),
): Promise<KeyClaim> {
  const t = s.idempotencyKeys;
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  const claimed = await db
    .insert(t)
    .values({ userId, key, requestHash, createdAt: now, expiresAt })
    .onConflictDoUpdate({
      target: [t.userId, t.key],
      set: { requestHash, status: null, response: null, location: null, createdAt: now, expiresAt },
      setWhere: lte(t.expiresAt, now),
    })
    .returning({ key: t.key });
  if (claimed.length) {
    await pruneExpired(db, now);
    return { state: "claimed" };
  }
  const [row] = await db
    .select()
    .from(t)
    .where(and(eq(t.userId, userId), eq(t.key, key)));
  // Released between the two statements: claim again.
  if (!row) return claimKey(db, userId, key, requestHash, ttlSeconds, now);
  return {
    state: "held",
    requestHash: row.requestHash,
    status: row.status,
    response: row.response,
    location: row.location,
  };
}

/** Keeps the first answer for retries with the same key. */
export async function completeKey(
  db: Database,
  userId: string,
  key: string,
  answer: { status: number; response: unknown; location: string | null },
) {
  const t = s.idempotencyKeys;
  await db
    .update(t)
    .set({ status: answer.status, response: answer.response, location: answer.location })
    .where(and(eq(t.userId, userId), eq(t.key, key), isNull(t.status)));
}

/** Gives the key back when the request did nothing (refused or failed), so a retry runs it. */
export async function releaseKey(db: Database, userId: string, key: string) {
  const t = s.idempotencyKeys;
  await db.delete(t).where(and(eq(t.userId, userId), eq(t.key, key), isNull(t.status)));
}

async function pruneExpired(db: Database, now: Date) {
  const t = s.idempotencyKeys;
  await db.execute(sql`
    delete from ${t} where (user_id, key) in (
      select user_id, key from ${t} where expires_at <= ${now.toISOString()}::timestamptz limit ${PRUNE_BATCH})`);
}

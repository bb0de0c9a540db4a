import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";

export type RateDecision = { allowed: boolean; count: number; limit: number; retryAfterSeconds: number };

/**
 * The longest window any limit may use. Rows older than twice this can belong to no current
 * window of any key, which is what lets one key's hit clear other keys' dead rows safely.
 */
export const MAX_WINDOW_SECONDS = 60 * 86_400;

function windowOf(windowSeconds: number, now: Date) {
  if (!(windowSeconds > 0 && windowSeconds <= MAX_WINDOW_SECONDS)) throw new Error(`Rate-limit window must be 1 s to ${MAX_WINDOW_SECONDS} s, got ${windowSeconds}.`);
  const windowMs = windowSeconds * 1000;
  return { windowMs, windowStart: new Date(Math.floor(now.getTime() / windowMs) * windowMs) };
}

/**
 * Counts one hit for `key` in the current fixed window and says whether it is within `limit`.
 * One upsert statement, so concurrent requests in several processes count exactly.
 */
export async function hit(db: Database, key: string, limit: number, windowSeconds: number, now = new Date()): Promise<RateDecision> {
  const { windowMs, windowStart } = windowOf(windowSeconds, now);
  const [row] = await db
    .insert(s.rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({ target: [s.rateLimits.key, s.rateLimits.windowStart], set: { count: sql`${s.rateLimits.count} + 1` } })
    .returning({ count: s.rateLimits.count });
  const count = row!.count;
  if (count === 1) {
    // Only this key's own old windows: each key has its own window length, so another key's
    // "old" is not ours (a 60-second sign-in window once wiped hour-long debate limits).
    await db.delete(s.rateLimits).where(and(eq(s.rateLimits.key, key), lt(s.rateLimits.windowStart, windowStart)));
    await db.delete(s.rateLimits).where(lt(s.rateLimits.windowStart, new Date(now.getTime() - 2 * MAX_WINDOW_SECONDS * 1000)));
  }
  return { allowed: count <= limit, count, limit, retryAfterSeconds: Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000) };
}

/** The count so far in the current window, without counting. */
export async function peek(db: Database, key: string, windowSeconds: number, now = new Date()): Promise<number> {
  const { windowStart } = windowOf(windowSeconds, now);
  const [row] = await db.select({ count: s.rateLimits.count }).from(s.rateLimits).where(and(eq(s.rateLimits.key, key), eq(s.rateLimits.windowStart, windowStart)));
  return row?.count ?? 0;
}

/** Takes back one hit counted in the current window (an attempt that turned out fine). */
export async function forgive(db: Database, key: string, windowSeconds: number, now = new Date()) {
  const { windowStart } = windowOf(windowSeconds, now);
  await db
    .update(s.rateLimits)
    .set({ count: sql`greatest(${s.rateLimits.count} - 1, 0)` })
    .where(and(eq(s.rateLimits.key, key), eq(s.rateLimits.windowStart, windowStart)));
}

/** Whether `key` was counted in any window that started within the last `withinSeconds`. */
export async function seenWithin(db: Database, key: string, withinSeconds: number, now = new Date()): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(s.rateLimits)
    .where(and(eq(s.rateLimits.key, key), gte(s.rateLimits.windowStart, new Date(now.getTime() - withinSeconds * 1000))))
    .limit(1);
  return !!row;
}

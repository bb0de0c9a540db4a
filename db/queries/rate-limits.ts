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
  if (!(windowSeconds > 0 && windowSeconds <= MAX_WINDOW_SECONDS))
    throw new Error(`Rate-limit window must be 1 s to ${MAX_WINDOW_SECONDS} s, got ${windowSeconds}.`);
  const windowMs = windowSeconds * 1000;
  return { windowMs, windowStart: new Date(Math.floor(now.getTime() / windowMs) * windowMs) };
}

/**
 * Counts one attempt for `key` in the current fixed window and says whether it is within `limit`.
 * One upsert statement that counts and returns the count the decision is made on, so concurrent
 * requests in several processes count exactly. Every attempt counts, refused ones too (sign-in:
 * an attacker's refused guesses keep the window shut); for starting work, where a refusal should
 * cost nothing, use `admit`.
 */
export async function hit(
  db: Database,
  key: string,
  limit: number,
  windowSeconds: number,
  now = new Date(),
): Promise<RateDecision> {
  const { windowMs, windowStart } = windowOf(windowSeconds, now);
  const [row] = await db
    .insert(s.rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [s.rateLimits.key, s.rateLimits.windowStart],
      set: { count: sql`${s.rateLimits.count} + 1` },
    })
    .returning({ count: s.rateLimits.count });
  const count = row!.count;
  // Only this key's own old windows: each key has its own window length, so another key's
  // "old" is not ours (a 60-second sign-in window once wiped hour-long debate limits).
  if (count === 1) await pruneOldWindows(db, key, windowStart, now);
  return {
    allowed: count <= limit,
    count,
    limit,
    retryAfterSeconds: Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000),
  };
}

/**
 * Admits `n` units for `key` (a comparison's debates, a matrix's runs) only if all of them fit
 * within `limit` in the current window, counting them in the same statement that checks them: an
 * upsert whose update applies only while the sum stays within the limit. Concurrent requests in
 * any number of processes therefore never pass the limit between them (PostgreSQL re-checks the
 * condition on the row it locked), and a refusal counts nothing. `used` is the count the window
 * held when the statement ran (for the refusal's message, never for the decision).
 */
export async function admit(
  db: Database,
  key: string,
  n: number,
  limit: number,
  windowSeconds: number,
  now = new Date(),
): Promise<RateDecision & { used: number }> {
  if (!Number.isInteger(n) || n < 1) throw new Error(`A rate-limit admission counts 1 or more units, got ${n}.`);
  const { windowMs, windowStart } = windowOf(windowSeconds, now);
  const retryAfterSeconds = Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000);
  const t = s.rateLimits;
  const res = await db.execute<{ admitted: number | null; used: number | null }>(sql`
    with up as (
      insert into ${t} (key, window_start, count) select ${key}, ${windowStart.toISOString()}::timestamptz, ${n}::int where ${n}::bigint <= ${limit}::bigint
      on conflict (key, window_start) do update set count = ${t}.count + excluded.count
        where ${t}.count::bigint + excluded.count <= ${limit}::bigint
      returning count)
    select (select count from up) as admitted,
      (select count from ${t} where key = ${key} and window_start = ${windowStart.toISOString()}::timestamptz) as used`);
  const row = res.rows[0];
  const admitted = row?.admitted == null ? null : Number(row.admitted);
  let used = row?.used == null ? 0 : Number(row.used);
  if (admitted === null) {
    // The statement's snapshot may predate the competing request that filled the window: the
    // refusal's message then reads the count again (the decision was already made, atomically).
    if (used + n <= limit && n <= limit) {
      const [now2] = await db
        .select({ count: s.rateLimits.count })
        .from(s.rateLimits)
        .where(and(eq(s.rateLimits.key, key), eq(s.rateLimits.windowStart, windowStart)));
      used = Math.max(used, now2?.count ?? 0);
    }
    return { allowed: false, count: used, used, limit, retryAfterSeconds };
  }
  if (admitted === n) await pruneOldWindows(db, key, windowStart, now);
  return { allowed: true, count: admitted, used: admitted - n, limit, retryAfterSeconds };
}

async function pruneOldWindows(db: Database, key: string, windowStart: Date, now: Date) {
  await db.delete(s.rateLimits).where(and(eq(s.rateLimits.key, key), lt(s.rateLimits.windowStart, windowStart)));
  await db
    .delete(s.rateLimits)
    .where(lt(s.rateLimits.windowStart, new Date(now.getTime() - 2 * MAX_WINDOW_SECONDS * 1000)));
}

/** Takes back `n` units counted in the current window (an attempt that turned out fine, work that was never created). */
export async function forgive(db: Database, key: string, windowSeconds: number, now = new Date(), n = 1) {
  const { windowStart } = windowOf(windowSeconds, now);
  await db
    .update(s.rateLimits)
    .set({ count: sql`greatest(${s.rateLimits.count} - ${n}::int, 0)` })
    .where(and(eq(s.rateLimits.key, key), eq(s.rateLimits.windowStart, windowStart)));
}

/** Whether `key` was counted in any window that started within the last `withinSeconds`. */
export async function seenWithin(db: Database, key: string, withinSeconds: number, now = new Date()): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(s.rateLimits)
    .where(
      and(eq(s.rateLimits.key, key), gte(s.rateLimits.windowStart, new Date(now.getTime() - withinSeconds * 1000))),
    )
    .limit(1);
  return !!row;
}

/**
 * How much of `key`'s current window is used, without counting anything: for the RateLimit
 * headers of a response whose request was already counted (by the gate, by `admit`).
 */
export async function usage(
  db: Database,
  key: string,
  limit: number,
  windowSeconds: number,
  now = new Date(),
): Promise<{ limit: number; remaining: number; resetSeconds: number }> {
  const { windowMs, windowStart } = windowOf(windowSeconds, now);
  const [row] = await db
    .select({ count: s.rateLimits.count })
    .from(s.rateLimits)
    .where(and(eq(s.rateLimits.key, key), eq(s.rateLimits.windowStart, windowStart)));
  return {
    limit,
    remaining: Math.max(0, limit - (row?.count ?? 0)),
    resetSeconds: Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000),
  };
}

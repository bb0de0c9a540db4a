import { lt, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";

export type RateDecision = { allowed: boolean; count: number; limit: number; retryAfterSeconds: number };

/**
 * Counts one hit for `key` in the current fixed window and says whether it is within `limit`.
 * One upsert statement, so concurrent requests in several processes count exactly.
 */
export async function hit(db: Database, key: string, limit: number, windowSeconds: number, now = new Date()): Promise<RateDecision> {
  const windowMs = windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const [row] = await db
    .insert(s.rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({ target: [s.rateLimits.key, s.rateLimits.windowStart], set: { count: sql`${s.rateLimits.count} + 1` } })
    .returning({ count: s.rateLimits.count });
  const count = row!.count;
  // Old windows are useless; dropping them here keeps the table small without a cron job.
  if (count === 1) await db.delete(s.rateLimits).where(lt(s.rateLimits.windowStart, new Date(windowStart.getTime() - windowMs)));
  return { allowed: count <= limit, count, limit, retryAfterSeconds: Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000) };
}

import { eq } from "drizzle-orm";
import type { Database } from "../client";
import * as s from "../schema";

/* A session's polled transcript feed: where the poller is (lib/live/feed.ts), so it resumes there. */

export type LiveFeed = typeof s.liveFeeds.$inferSelect;

/** Attaches a feed to a session; a new address starts from its beginning, the same one keeps its place. */
export async function attachLiveFeed(db: Database, sessionId: string, url: string): Promise<LiveFeed> {
  const [existing] = await db.select().from(s.liveFeeds).where(eq(s.liveFeeds.sessionId, sessionId));
  if (existing?.url === url) return existing;
  const fresh = {
    url,
    taken: 0,
    lastLineId: null,
    lastLineText: null,
    bytes: 0,
    state: "waiting" as const,
    message: null,
    restarts: 0,
    lastGrowthAt: null,
    polledAt: null,
  };
  const [row] = await db
    .insert(s.liveFeeds)
    .values({ sessionId, ...fresh })
    .onConflictDoUpdate({ target: s.liveFeeds.sessionId, set: fresh })
    .returning();
  return row!;
}

export async function getLiveFeed(db: Database, sessionId: string): Promise<LiveFeed | null> {
  const [row] = await db.select().from(s.liveFeeds).where(eq(s.liveFeeds.sessionId, sessionId));
  return row ?? null;
}

export async function saveLiveFeed(
  db: Database,
  sessionId: string,
  patch: Partial<Omit<LiveFeed, "sessionId" | "createdAt">>,
): Promise<LiveFeed | null> {
  const [row] = await db.update(s.liveFeeds).set(patch).where(eq(s.liveFeeds.sessionId, sessionId)).returning();
  return row ?? null;
}

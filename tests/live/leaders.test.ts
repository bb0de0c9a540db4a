import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Database } from "@/db/client";
import type { LiveCard } from "@/db/queries/live";

/*
 * The live service's memory of a session's first cards (lib/live/leaders.ts) is capped, whatever
 * the length of the session or the number of sessions, and reads from the database only what
 * changed after the revision it remembers.
 */

const reads: Array<{ sessionId: string; after: number }> = [];
let stored: Array<Pick<LiveCard, "id" | "groupKey" | "match" | "rev">> = [];

vi.mock("@/db/queries/live", () => ({
  leadersAfter: async (_db: unknown, sessionId: string, after: number, limit: number) => {
    reads.push({ sessionId, after });
    return stored
      .filter((c) => c.rev > after)
      .sort((a, b) => b.rev - a.rev)
      .slice(0, limit);
  },
  groupLeaders: async () => [],
}));

const { CACHED_SESSIONS, RECENT_LEADERS, recentLeadersOf, rememberStored } = await import("@/lib/live/leaders");
const { peekProcessGlobal } = await import("@/lib/process/globals");

const db = {} as Database;
const card = (rev: number, groupOf: string | null = null) =>
  ({ id: `c${rev}`, groupKey: `claim ${rev}`, match: null, rev, groupOf }) as unknown as LiveCard;

beforeEach(() => {
  reads.length = 0;
  stored = [];
  peekProcessGlobal("live-leaders")?.clear();
});

describe("the live desk's first-card memory", () => {
  it("keeps at most RECENT_LEADERS first cards of a session, the latest, however long it runs", async () => {
    let entry = await recentLeadersOf(db, "s", 0);
    let rev = 0;
    // A ten-hour session's worth of first cards, 25 a push, stored by this process.
    for (let push = 0; push < 400; push++) {
      const cards = Array.from({ length: 25 }, () => card(++rev));
      rememberStored(entry, { revBefore: rev - 25, revAfter: rev, cards });
      entry = await recentLeadersOf(db, "s", rev);
      expect(entry.recent.size).toBeLessThanOrEqual(RECENT_LEADERS);
    }
    expect(entry.recent.size).toBe(RECENT_LEADERS);
    expect([...entry.recent.keys()].at(-1)).toBe(`c${rev}`);
    expect(entry.recent.has(`c${rev - RECENT_LEADERS}`)).toBe(false);
    // A new session, kept up to date by its own pushes: it never read the database.
    expect(reads).toHaveLength(0);
  });

  it("reads only what another server stored since the revision it remembers", async () => {
    stored = [card(1), card(2)];
    const entry = await recentLeadersOf(db, "s", 2);
    expect([...entry.recent.keys()]).toEqual(["c1", "c2"]);
    // Another server stored revisions 3 and 4 (a repeat, not a first card, at 4).
    stored.push(card(3));
    rememberStored(entry, { revBefore: 4, revAfter: 5, cards: [card(5)] });
    // The push that came after the other server's did not move the remembered revision...
    expect(entry.rev).toBe(2);
    stored.push(card(5));
    const again = await recentLeadersOf(db, "s", 5);
    // ...so the next push read what it missed, and only that.
    expect(reads.at(-1)).toEqual({ sessionId: "s", after: 2 });
    expect([...again.recent.keys()].sort()).toEqual(["c1", "c2", "c3", "c5"]);
    expect(again.rev).toBe(5);
  });

  it("keeps at most CACHED_SESSIONS sessions, dropping the one pushed to least recently", async () => {
    for (let i = 0; i < CACHED_SESSIONS + 10; i++) await recentLeadersOf(db, `s${i}`, 0);
    await recentLeadersOf(db, "s0", 0);
    const sessions = peekProcessGlobal("live-leaders")!;
    expect(sessions.size).toBe(CACHED_SESSIONS);
    expect(sessions.has("s0")).toBe(true);
    expect(sessions.has("s1")).toBe(false);
  });
});

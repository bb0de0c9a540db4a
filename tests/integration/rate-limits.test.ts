import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { eq } from "drizzle-orm";
import * as s from "@/db/schema";
import { hit } from "@/db/queries/rate-limits";
import { freshDatabase } from "./test-db";

let h: DbHandle;
beforeAll(async () => {
  h = await freshDatabase();
});
afterAll(async () => {
  await h?.close();
});

describe("rate limits stored in the database", () => {
  it("allows up to the limit in a window, then refuses with the time to wait", async () => {
    const now = new Date("2026-11-21T10:15:00Z");
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await hit(h.db, "debate-start:ip:10.0.0.1", 3, 3600, now));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3]).toMatchObject({ count: 4, limit: 3, retryAfterSeconds: 45 * 60 });
    // Another key has its own count; the next window starts again from nothing.
    expect((await hit(h.db, "debate-start:ip:10.0.0.2", 3, 3600, now)).allowed).toBe(true);
    expect((await hit(h.db, "debate-start:ip:10.0.0.1", 3, 3600, new Date("2026-11-21T11:00:01Z"))).count).toBe(1);
  });

  it("counts concurrent hits exactly", async () => {
    const now = new Date("2026-11-21T12:00:00Z");
    const results = await Promise.all(Array.from({ length: 10 }, () => hit(h.db, "burst", 5, 60, now)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("keeps each key's counters: another key's first hit (even with a short window) does not reset them", async () => {
    const now = new Date("2026-11-21T14:00:00Z");
    for (let i = 0; i < 3; i++) await hit(h.db, "debate-start:user:victim", 3, 3600, now);
    // An anonymous failed sign-in 20 minutes later, on a 60-second window.
    await hit(h.db, "signin:client:198.51.100.9", 50, 60, new Date(now.getTime() + 20 * 60_000));
    const after = await hit(h.db, "debate-start:user:victim", 3, 3600, new Date(now.getTime() + 21 * 60_000));
    expect(after).toMatchObject({ allowed: false, count: 4 });

    // Old rows still go: a key's own old windows when it is next counted, other keys' once no window can use them.
    const t0 = new Date("2026-11-22T00:00:00Z");
    await hit(h.db, "prune:a", 5, 60, t0);
    await hit(h.db, "prune:a", 5, 60, new Date(t0.getTime() + 5 * 60_000));
    const rowsOf = async (key: string) => (await h.db.select().from(s.rateLimits).where(eq(s.rateLimits.key, key))).length;
    expect(await rowsOf("prune:a")).toBe(1);
    await hit(h.db, "prune:b", 5, 60, new Date(t0.getTime() + 200 * 86_400_000));
    expect(await rowsOf("prune:a")).toBe(0);
  });
});

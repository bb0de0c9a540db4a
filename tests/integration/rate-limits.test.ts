import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { eq } from "drizzle-orm";
import * as s from "@/db/schema";
import { admit, hit } from "@/db/queries/rate-limits";
import { admitWebRun, WebRunLimitError } from "@/lib/eval/web-run";
import { resetConfigForTests } from "@/lib/config";
import { vi } from "vitest";
import { backend, freshDatabase } from "./test-db";

let h: DbHandle;
beforeAll(async () => {
  h = await freshDatabase();
});
afterAll(async () => {
  await h?.close();
});

describe(`rate limits stored in the database (${backend})`, () => {
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
    const rowsOf = async (key: string) =>
      (await h.db.select().from(s.rateLimits).where(eq(s.rateLimits.key, key))).length;
    expect(await rowsOf("prune:a")).toBe(1);
    await hit(h.db, "prune:b", 5, 60, new Date(t0.getTime() + 200 * 86_400_000));
    expect(await rowsOf("prune:a")).toBe(0);
  });

  it("admits n units at once or none, in one statement: parallel admissions never pass the limit, and a refusal counts nothing", async () => {
    const now = new Date("2026-11-23T09:00:00Z");
    // 15 comparisons of 2 debates, 10 of 3, in parallel, against 20: counts stay within 20 whatever the order.
    const results = await Promise.all([
      ...Array.from({ length: 15 }, () => admit(h.db, "debate-start:user:race", 2, 20, 3600, now)),
      ...Array.from({ length: 10 }, () => admit(h.db, "debate-start:user:race", 3, 20, 3600, now)),
    ]);
    const units = [...Array(15).fill(2), ...Array(10).fill(3)] as number[];
    const admitted = results.reduce((a, r, i) => a + (r.allowed ? units[i]! : 0), 0);
    const [row] = await h.db.select().from(s.rateLimits).where(eq(s.rateLimits.key, "debate-start:user:race"));
    expect(row!.count).toBe(admitted);
    expect(admitted).toBeLessThanOrEqual(20);
    // Greedy admission fills the window: no request that fits was refused with room left for it.
    expect(20 - admitted).toBeLessThan(2);
    for (const r of results.filter((r) => !r.allowed))
      expect(r).toMatchObject({ allowed: false, limit: 20, retryAfterSeconds: 3600 });
    // More units than the limit at all: refused without counting.
    expect((await admit(h.db, "debate-start:user:big", 21, 20, 3600, now)).allowed).toBe(false);
    expect(await h.db.select().from(s.rateLimits).where(eq(s.rateLimits.key, "debate-start:user:big"))).toHaveLength(0);
  });

  it("admits an evaluation matrix as all its runs at once: parallel matrices never start more runs than the limit", async () => {
    vi.stubEnv("EVAL_WEB_RUN_LIMIT", "5/hour");
    resetConfigForTests();
    try {
      const user = "00000000-0000-4000-8000-00000000abcd";
      const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => admitWebRun(h.db, user, 6, 3)));
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      for (const o of outcomes.filter((o) => o.status === "rejected"))
        expect((o as PromiseRejectedResult).reason).toBeInstanceOf(WebRunLimitError);
      const [row] = await h.db
        .select()
        .from(s.rateLimits)
        .where(eq(s.rateLimits.key, `eval-run-start:user:${user}`));
      expect(row!.count).toBe(3);
      await expect(admitWebRun(h.db, user, 6, 3)).rejects.toThrow(
        /This matrix starts 3 evaluation runs and you have 2 of 5 left/,
      );
      await admitWebRun(h.db, user, 2, 2);
      await expect(admitWebRun(h.db, user, 2, 1)).rejects.toThrow(/You have started 5 evaluation runs/);
    } finally {
      vi.unstubAllEnvs();
      resetConfigForTests();
    }
  });
});

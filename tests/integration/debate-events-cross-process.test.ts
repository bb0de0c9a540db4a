import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { loadDebate } from "@/db/queries/debates";
import { NOTIFY_LIMIT_BYTES } from "@/lib/debate/event-wire";
import { disableCrossProcessEvents, enableCrossProcessEvents } from "@/lib/debate/pg-bus";
import { and, eq, sql } from "drizzle-orm";
import * as s from "@/db/schema";
import { createRelayDebate, spawnRelayChild, watchRelay } from "@/lib/bench/event-relay";
import { follow, liveTurns, subscribe, type DebateEvent } from "@/lib/debate/events";
import { backend, freshDatabase } from "./test-db";

/**
 * Live text across processes on PostgreSQL: a child process (scripts/event-relay-child.mjs) runs a
 * scripted debate whose first speech is 20,000 characters; this process watches it only through
 * the LISTEN/NOTIFY bus. Every delta arrives once and in order, a watcher joining mid-turn gets a
 * snapshot plus deltas that rebuild the stored text exactly, and no payload reaches the limit.
 */

const url = process.env.TEST_DATABASE_URL;
let h: DbHandle;

beforeAll(async () => {
  if (backend !== "postgres") return;
  h = await freshDatabase();
  enableCrossProcessEvents(url!);
});
afterAll(async () => {
  await disableCrossProcessEvents();
  await h?.close();
});

/** Each running turn's text as a watcher rebuilds it from deltas (offsets checked: no gap, no repeat). */
function rebuild(start: Map<number, string>, events: DebateEvent[]) {
  const text = new Map(start);
  const finished = new Map<number, string>();
  for (const e of events) {
    if (e.type === "turn-start") text.set(e.turn.seq, "");
    if (e.type === "turn-reset") text.set(e.seq, "");
    if (e.type === "delta") {
      const so = text.get(e.seq) ?? "";
      expect(e.offset, `delta of turn ${e.seq} at the end of what was received`).toBe(so.length);
      text.set(e.seq, so + e.text);
    }
    if (e.type === "turn-end") finished.set(e.turn.seq, text.get(e.turn.seq) ?? "");
  }
  return finished;
}

describe.skipIf(backend !== "postgres")("debate events across processes (PostgreSQL)", () => {
  it("carries every delta in order, gives a mid-turn watcher an exact snapshot, and keeps payloads under the NOTIFY limit", async () => {
    const id = await createRelayDebate(h.db);
    // A raw listener on the debate's channel: every payload any process sends there.
    const spy = new pg.Client({ connectionString: url });
    await spy.connect();
    const sizes: number[] = [];
    spy.on("notification", (m) => sizes.push(Buffer.byteLength(m.payload ?? "")));
    await spy.query(`listen cp_debate_${id.replace(/-/g, "")}`);

    const watch = await watchRelay(h.db, url!, id, { joinAfterChars: 6000, chars: 20_000, perTokenMs: 1 });
    await spy.end();
    expect(watch.child.outcome.status).toBe("completed");

    const stored = (await loadDebate(h.db, id))!.turns.filter((t) => t.status === "completed" && t.kind !== "tool");
    const long = stored.find((t) => t.role === "politician" && t.phase === "opening")!;
    expect(long.content.length).toBe(20_000);

    // The first watcher saw the debate from its start: deltas rebuild every speech exactly.
    const rebuilt = rebuild(new Map(), watch.events);
    for (const t of stored.filter((t) => t.kind === "speech"))
      expect(rebuilt.get(t.seq), `turn ${t.seq} (${t.role}, ${t.phase})`).toBe(t.content);
    // Every delta the child published arrived, in order (the child's pieces are smaller than ours).
    const publishedChars = watch.child.published.filter((d) => d[0] === long.seq).reduce((a, d) => a + d[2], 0);
    expect(publishedChars).toBe(20_000);
    expect(watch.events.at(-1)).toEqual({ type: "status", status: "completed" });

    // The late watcher joined mid-speech: its snapshot holds some text so far, and with its deltas it is the stored text.
    expect(watch.late).toBeDefined();
    const snap = watch.late!.live.find((l) => l.turn.seq === long.seq);
    expect(snap, "the long speech was running when the watcher joined").toBeDefined();
    expect(snap!.text.length).toBeGreaterThanOrEqual(6000);
    expect(snap!.text.length).toBeLessThan(20_000);
    expect(long.content.startsWith(snap!.text)).toBe(true);
    const lateRebuilt = rebuild(new Map(watch.late!.live.map((l) => [l.turn.seq, l.text])), watch.late!.events);
    expect(lateRebuilt.get(long.seq)).toBe(long.content);

    // The 20,000-character speech and its turn-end (which carries the whole text) crossed in payloads under the limit.
    expect(sizes.length).toBeGreaterThan(10);
    expect(Math.max(...sizes)).toBeLessThan(NOTIFY_LIMIT_BYTES);
  });

  it("a process that starts watching mid-speech asks the runner for the text so far and misses nothing", async () => {
    const id = await createRelayDebate(h.db);
    const child = spawnRelayChild(url!, id, { chars: 20_000, perTokenMs: 1 });
    try {
      // Nothing here listens to this debate until its first speech is being written.
      for (let i = 0; ; i++) {
        const [row] = await h.db
          .select({ status: s.turns.status })
          .from(s.turns)
          .where(and(eq(s.turns.debateId, id), eq(s.turns.seq, 1)));
        if (row?.status === "streaming") break;
        if (i > 600) throw new Error("the first speech never started");
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 500));
      // What the event stream does: follow (the runner answers with its text so far), then snapshot and subscribe in one tick.
      const release = await follow(id, { expectRunner: true });
      const events: DebateEvent[] = [];
      let ended!: () => void;
      const end = new Promise<void>((r) => (ended = r));
      const unsubscribe = subscribe(id, (e) => {
        events.push(e);
        if (e.type === "status" && e.status !== "running") ended();
      });
      const live = liveTurns(id);
      const report = await child.done;
      await Promise.race([end, new Promise((r) => setTimeout(r, 10_000))]);
      unsubscribe();
      release();
      expect(report.outcome.status).toBe("completed");

      const stored = (await loadDebate(h.db, id))!.turns;
      const first = stored.find((t) => t.seq === 1)!;
      const snap = live.find((l) => l.turn.seq === 1);
      expect(snap, "the runner sent the running speech").toBeDefined();
      expect(snap!.text.length).toBeGreaterThan(0);
      expect(snap!.text.length).toBeLessThan(20_000);
      const rebuilt = rebuild(new Map(live.map((l) => [l.turn.seq, l.text])), events);
      expect(rebuilt.get(1)).toBe(first.content);
      for (const t of stored.filter((t) => t.kind === "speech" && t.seq > 1))
        expect(rebuilt.get(t.seq)).toBe(t.content);
    } finally {
      child.kill();
    }
  });

  it("after its listening connection is cut, a process reconnects, tells its watchers to start over, and a fresh snapshot is exact", async () => {
    const id = await createRelayDebate(h.db);
    const bus = enableCrossProcessEvents(url!);
    const child = spawnRelayChild(url!, id, { chars: 20_000, perTokenMs: 1 });
    try {
      const first = await follow(id, { expectRunner: false });
      let resyncs = 0;
      let cut = false;
      let seen = 0;
      const cutNow = new Promise<void>((resolve) => {
        const un = subscribe(
          id,
          (e) => {
            if (e.type === "delta" && e.seq === 1 && (seen += e.text.length) >= 4000 && !cut) {
              cut = true;
              un();
              resolve();
            }
          },
          { onResync: () => resyncs++ },
        );
      });
      await cutNow;
      // A watcher that stays through the cut is told to start over.
      let told = false;
      const stay = subscribe(id, () => {}, { onResync: () => (told = true) });
      const pid = bus.backendPid();
      expect(pid).not.toBeNull();
      await h.db.execute(sql`select pg_terminate_backend(${pid})`);
      for (let i = 0; !told && i < 200; i++) await new Promise((r) => setTimeout(r, 25));
      expect(told, "the watcher was told its buffer is no longer in step").toBe(true);
      stay();
      first();
      // Starting over, as the browser does after the stream closes: follow, then snapshot and subscribe.
      const release = await follow(id, { expectRunner: true });
      const events: DebateEvent[] = [];
      let ended!: () => void;
      const end = new Promise<void>((r) => (ended = r));
      const unsubscribe = subscribe(id, (e) => {
        events.push(e);
        if (e.type === "status" && e.status !== "running") ended();
      });
      const live = liveTurns(id);
      const report = await child.done;
      await Promise.race([end, new Promise((r) => setTimeout(r, 10_000))]);
      unsubscribe();
      release();
      expect(report.outcome.status).toBe("completed");
      expect(bus.backendPid()).not.toBe(pid);
      const stored = (await loadDebate(h.db, id))!.turns.filter((t) => t.kind === "speech");
      const rebuilt = rebuild(new Map(live.map((l) => [l.turn.seq, l.text])), events);
      // Every speech that started after the fresh snapshot, and the one running at it, is exact.
      for (const t of stored)
        if (
          live.some((l) => l.turn.seq === t.seq) ||
          events.some((e) => e.type === "turn-start" && e.turn.seq === t.seq)
        )
          expect(rebuilt.get(t.seq)).toBe(t.content);
      expect(resyncs).toBe(0);
    } finally {
      child.kill();
    }
  });
});

import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpRequest, signedInAs, useDatabase } from "../helpers/next-request";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { loadDebate } from "@/db/queries/debates";
import { setSetting } from "@/db/queries/settings";
import { GET as events } from "@/app/api/debates/[id]/events/route";
import { reduce } from "@/components/debate/debate-live";
import type { DebateEvent, LiveTurn } from "@/lib/debate/events";
import type { DebateView } from "@/lib/debate/view";
import { disableCrossProcessEvents, enableCrossProcessEvents } from "@/lib/debate/pg-bus";
import { createRelayDebate, spawnRelayChild } from "@/lib/bench/event-relay";
import { backend, freshDatabase } from "./test-db";

/**
 * The browser's view of a debate another process runs: this process serves the event stream (the
 * route handler), a child runs the debate; the stream is opened mid-speech and read as the page
 * does, through the page's own reducer. Just before each speech ends, the text the page shows is
 * exactly the stored text: the snapshot and the deltas join with no gap and no repeat.
 */

const url = process.env.TEST_DATABASE_URL;
let h: DbHandle;

beforeAll(async () => {
  if (backend !== "postgres") return;
  h = await freshDatabase();
  useDatabase(h);
  enableCrossProcessEvents(url!);
  await setSetting(h.db, "public_reading", true);
  signedInAs(null);
});
afterAll(async () => {
  await disableCrossProcessEvents();
  await h?.close();
});

/** Reads server-sent events until the stream ends. */
async function readStream(body: ReadableStream<Uint8Array>, on: (event: string, data: unknown) => void) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += decoder.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf("\n\n")) !== -1) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) on(event, JSON.parse(data));
    }
  }
}

describe.skipIf(backend !== "postgres")("the event stream of a debate run by another process", () => {
  it("opened mid-speech, shows exactly the stored text of every speech", async () => {
    const id = await createRelayDebate(h.db);
    const child = spawnRelayChild(url!, id, { chars: 12_000, perTokenMs: 1 });
    try {
      for (let i = 0; ; i++) {
        const [row] = await h.db
          .select({ status: s.turns.status })
          .from(s.turns)
          .where(and(eq(s.turns.debateId, id), eq(s.turns.seq, 1)));
        if (row?.status === "streaming") break;
        if (i > 600) throw new Error("the first speech never started");
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 300));
      const res = await events(httpRequest(`/api/debates/${id}/events`), { params: Promise.resolve({ id }) });
      expect(res.status).toBe(200);
      let state: { view: DebateView; live: LiveTurn[] } | null = null;
      let snapshotText = "";
      const shownAtEnd = new Map<number, string>();
      const endedWith = new Map<number, string>();
      await readStream(res.body!, (event, data) => {
        if (event === "snapshot") {
          const d = data as { debate: DebateView; live: LiveTurn[] };
          state = reduce(state ?? { view: d.debate, live: [] }, { kind: "snapshot", view: d.debate, live: d.live });
          snapshotText = d.live.find((l) => l.turn.seq === 1)?.text ?? "";
          return;
        }
        if (event !== "debate") return; // `end`: the stream's documented last event, no change of the debate.
        const e = data as DebateEvent;
        expect(state, "the snapshot comes first").not.toBeNull();
        if (e.type === "turn-end") {
          shownAtEnd.set(e.turn.seq, state!.live.find((l) => l.turn.seq === e.turn.seq)?.text ?? "");
          endedWith.set(e.turn.seq, e.turn.content);
        }
        state = reduce(state!, { kind: "event", event: e });
      });
      expect((await child.done).outcome.status).toBe("completed");
      const stored = (await loadDebate(h.db, id))!.turns.filter((t) => t.kind === "speech");
      expect(snapshotText.length, "the snapshot held the running speech's text so far").toBeGreaterThan(0);
      expect(snapshotText.length).toBeLessThan(12_000);
      for (const t of stored) {
        expect(endedWith.get(t.seq), `turn ${t.seq} ended on the stream`).toBe(t.content);
        expect(shownAtEnd.get(t.seq), `turn ${t.seq}: the page's text just before it ended`).toBe(t.content);
      }
      expect(state!.view.status).toBe("completed");
    } finally {
      child.kill();
    }
  });
});

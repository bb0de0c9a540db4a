import { useDatabase } from "../helpers/next-request";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { createApiToken } from "@/lib/auth/api-tokens";
import { resetConfigForTests } from "@/lib/config";
import { importFactChecks } from "@/lib/matching/import/run";
import { parseTranscript } from "@/lib/live/transcript";
import { ingestRecords } from "@/lib/corpus/ingest";
import { debateQueue, startInProcessWorker } from "@/lib/debate/queue";
import type { LiveCardView } from "@/lib/live/view";
import { callApi, type ApiCall } from "../helpers/api";
import { backend, freshDatabase } from "./test-db";
import pg from "pg";
import { randomUUID } from "node:crypto";
import { createLiveSession, storeLiveBatch } from "@/db/queries/live";
import { disableCrossProcessEvents, enableCrossProcessEvents } from "@/lib/debate/pg-bus";
import { LIVE_SIGNAL } from "@/lib/live/bus";
import { liveBoardStream } from "@/lib/live/stream";

/*
 * The live desk end to end through the API, as a captioning system drives it: a replayed
 * transcript with a claim said three times (once reworded), one claim that an imported check
 * matches and one that nothing matches. Cards come in time order, the repeats are one group,
 * the matched card says the earlier verdict first, a retried line is stored once, a token without
 * the scope is refused, and a reconnecting board gets what it missed from its last event id.
 */

let h: DbHandle;
let pusher = "";
let reader = "";
let editor = "";
let sessionId = "";
let fake: ChildProcess;
/** The scripted model server's port: inside this suite's loopback range. */
const FAKE_PORT = 41821;

const TRANSCRIPT = `
MODERATOR: Good evening and welcome to the debate.
SMITH: Unemployment in Freedonia fell to 3 percent last year, the lowest since 1970.
JONES: That is not what families tell me.
SMITH: The new bridge in Springfield cost 40 million pounds, twice the original budget.
JONES: I think we can do better.
SMITH: Unemployment in Freedonia fell to 3 percent last year, the lowest since 1970.
SMITH: Look, unemployment in Freedonia really fell to 3 percent last year, the lowest since 1970.
`;

const CHECKS = `claim,rating,url,publisher,date
"The new Springfield bridge cost 40 million pounds, double its budget.",False,https://factcheck.example.org/springfield-bridge,Example Fact Desk,2025-03-12
`;

const api = (call: Omit<ApiCall, "token"> & { token?: string }) => callApi({ token: pusher, ...call });

beforeAll(async () => {
  fake = spawn(process.execPath, [path.resolve("e2e/fake-openai.mjs")], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "test",
      FAKE_OPENAI_PORT: String(FAKE_PORT),
      FAKE_OPENAI_DELAY_MS: "0",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    fake.stdout!.on("data", (b: Buffer) => b.toString().includes("fake OpenAI") && resolve());
    fake.on("exit", (code) => reject(new Error(`the scripted model server exited (${code})`)));
  });
  vi.stubEnv("DEFAULT_MODEL", "openai-compatible:scripted");
  vi.stubEnv("OPENAI_COMPATIBLE_SCRIPTED_BASE_URL", `http://127.0.0.1:${FAKE_PORT}/v1`);
  vi.stubEnv("OPENAI_COMPATIBLE_SCRIPTED_MODEL", "scripted-debater");
  vi.stubEnv("ROLE_MODELS", "");
  vi.stubEnv("DEBATE_RATE_LIMIT", "100/hour");
  if (backend === "postgres") vi.stubEnv("DATABASE_URL", process.env.TEST_DATABASE_URL!);
  resetConfigForTests();
  h = await freshDatabase();
  useDatabase(h);
  // On PostgreSQL a started debate is queued; this process's worker runs it, as the app's does.
  if (backend === "postgres") startInProcessWorker(h, 2);
  await ingestRecords(
    h.db,
    [
      "The Springfield bridge opened in 2024 at a cost of 40 million pounds.",
      "Its budget in 2020 was 20 million pounds.",
    ].map((text, i) => ({ kind: "document" as const, document: { id: `d${i}`, title: `Report ${i}`, text } })),
    { corpus: "newsroom", source: "t", kind: "records" },
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-live-"));
  fs.writeFileSync(path.join(dir, "checks.csv"), CHECKS);
  await importFactChecks({ db: h.db }, path.join(dir, "checks.csv"));
  const u = await createUser(h.db, { email: "live@x.org", passwordHash: null, roles: ["fact-checker", "editor"] });
  const me = { id: u.id, email: "live@x.org", name: null, roles: ["fact-checker" as const, "editor" as const] };
  pusher = (await createApiToken(h.db, me, { name: "captions", scopes: ["debate:start"] })).token;
  reader = (await createApiToken(h.db, me, { name: "read only", scopes: [] })).token;
  editor = (await createApiToken(h.db, me, { name: "desk", scopes: ["debate:start", "fact-check:write"] })).token;
}, 180_000);

afterAll(async () => {
  fake?.kill();
  if (backend === "postgres" && h) await debateQueue(h).close();
  await h?.close();
  vi.unstubAllEnvs();
});

describe("the live desk", () => {
  it("refuses to open a session or push lines with a token lacking debate:start", async () => {
    const create = await api({ method: "POST", path: "/api/v1/live", token: reader, body: { title: "Debate" } });
    expect(create.status).toBe(403);
    const res = await api({
      method: "POST",
      path: "/api/v1/live",
      body: { title: "Leaders' debate", threshold: 0.5, method: "radar", corpus: "newsroom" },
    });
    expect(res.status).toBe(201);
    sessionId = ((await res.json()) as { id: string }).id;
    const push = await api({
      method: "POST",
      path: "/api/v1/live/{id}/lines",
      params: { id: sessionId },
      token: reader,
      body: { lines: [{ id: "x", text: "Hello.", at: 0 }] },
    });
    expect(push.status).toBe(403);
    expect(await h.db.select().from(s.liveLines)).toHaveLength(0);
  });

  it("turns a replayed transcript into cards: in order, repeats grouped, the earlier check first", async () => {
    const lines = parseTranscript(TRANSCRIPT).map((l) => ({
      id: l.lineId,
      speaker: l.speaker,
      text: l.text,
      at: l.atMs,
    }));
    // Two pushes, as a captioner sends them; the second repeats the first's last line (a retry).
    const first = await api({
      method: "POST",
      path: "/api/v1/live/{id}/lines",
      params: { id: sessionId },
      body: { lines: lines.slice(0, 4) },
    });
    expect(first.status).toBe(200);
    const second = await api({
      method: "POST",
      path: "/api/v1/live/{id}/lines",
      params: { id: sessionId },
      body: { lines: [...lines.slice(3), { id: "blank", text: "  ", at: 60_000 }] },
    });
    const out = (await second.json()) as { duplicates: string[]; accepted: Array<{ lineId: string; state: string }> };
    expect(out.duplicates).toEqual([lines[3]!.id]);
    expect(out.accepted.find((a) => a.lineId === "blank")?.state).toBe("empty");
    expect(await h.db.select().from(s.liveLines).where(eq(s.liveLines.sessionId, sessionId))).toHaveLength(
      lines.length + 1,
    );

    const board = (await (
      await api({ method: "GET", path: "/api/v1/live/{id}", params: { id: sessionId }, token: reader })
    ).json()) as { cards: LiveCardView[] };
    const cards = board.cards;
    // Newest first by time code.
    expect(cards.map((c) => c.atMs)).toEqual([...cards.map((c) => c.atMs)].sort((a, b) => b - a));
    const unemployment = cards.filter((c) => /unemployment/i.test(c.sentence));
    expect(unemployment).toHaveLength(3);
    const firstSaid = unemployment.at(-1)!;
    expect(firstSaid.groupOf).toBeNull();
    expect(firstSaid.repeats).toBe(3);
    for (const c of unemployment.slice(0, 2)) expect(c.groupOf).toBe(firstSaid.id);
    expect(firstSaid.checkedBefore).toBeNull();
    const bridge = cards.find((c) => /bridge/i.test(c.sentence))!;
    expect(bridge.speaker).toBe("SMITH");
    expect(bridge.checkedBefore).toBe("Checked before: False, 12 March 2025, by Example Fact Desk");
    // Small talk is not a card.
    expect(cards.some((c) => /good evening|do better/i.test(c.sentence))).toBe(false);
  });

  it("lets a board that reconnects resume after its last event id, nothing twice", async () => {
    const read = async (lastId: string | null) => {
      const ctrl = new AbortController();
      const res = await callApi({
        method: "GET",
        path: "/api/v1/live/{id}/events",
        params: { id: sessionId },
        token: reader,
        headers: lastId ? { "last-event-id": lastId } : {},
      });
      expect(res.status).toBe(200);
      const reader_ = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buf = "";
      // The backlog, then `ready`.
      while (!buf.includes("event: ready")) {
        const { value, done } = await reader_.read();
        if (done) break;
        buf += value;
      }
      await reader_.cancel();
      ctrl.abort();
      const ids = [...buf.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
      const cards = [...buf.matchAll(/^data: (\{"cards".*)$/gm)].flatMap(
        (m) => (JSON.parse(m[1]!) as { cards: LiveCardView[] }).cards,
      );
      return { ids, cards };
    };
    const all = await read(null);
    const total = (await h.db.select().from(s.liveCards).where(eq(s.liveCards.sessionId, sessionId))).length;
    expect(new Set(all.cards.map((c) => c.id)).size).toBe(total);
    const last = all.ids.at(-1)!;
    // One more line after the board closed: the reconnect brings it (and the grouped card it changed), nothing else.
    await api({
      method: "POST",
      path: "/api/v1/live/{id}/lines",
      params: { id: sessionId },
      body: {
        lines: [
          {
            id: "late-1",
            speaker: "SMITH",
            text: "Unemployment in Freedonia fell to 3 percent last year, the lowest since 1970.",
            at: 1_000,
          },
        ],
      },
    });
    const again = await read(String(last));
    expect(again.cards.map((c) => c.lineId).sort()).toEqual(
      all.cards
        .filter((c) => c.groupOf === null && /unemployment/i.test(c.sentence))
        .map((c) => c.lineId)
        .concat("late-1")
        .sort(),
    );
    const lateLine = await h.db.select().from(s.liveLines).where(eq(s.liveLines.lineId, "late-1"));
    expect(lateLine[0]!.state).toBe("late");
  });

  it("stores who dismissed a card and refuses attaching a check to a card that matched none", async () => {
    const board = (await (
      await api({ method: "GET", path: "/api/v1/live/{id}", params: { id: sessionId } })
    ).json()) as {
      cards: LiveCardView[];
    };
    const plain = board.cards.find((c) => !c.match)!;
    const refused = await api({
      method: "POST",
      path: "/api/v1/live/{id}/cards/{card}",
      params: { id: sessionId, card: plain.id },
      body: { action: "attach" },
    });
    expect(refused.status).toBe(409);
    const ok = await api({
      method: "POST",
      path: "/api/v1/live/{id}/cards/{card}",
      params: { id: sessionId, card: plain.id },
      body: { action: "dismiss" },
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as LiveCardView).state).toBe("dismissed");
    const actions = await h.db.select().from(s.liveCardActions).where(eq(s.liveCardActions.cardId, plain.id));
    expect(actions.map((a) => a.action)).toEqual(["dismiss"]);
    expect(actions[0]!.userId).toBeTruthy();
  });

  it("starts a debate from a card, shows its verdict on the card when done, and sends it to an editor", async () => {
    const board = async () =>
      (
        (await (await api({ method: "GET", path: "/api/v1/live/{id}", params: { id: sessionId } })).json()) as {
          cards: LiveCardView[];
        }
      ).cards;
    const bridge = (await board()).find((c) => /bridge/i.test(c.sentence))!;
    const act = (action: string) =>
      api({
        method: "POST",
        path: "/api/v1/live/{id}/cards/{card}",
        params: { id: sessionId, card: bridge.id },
        token: editor,
        body: { action },
      });
    // Not before the debate has a verdict: a draft is written from it.
    expect((await act("draft")).status).toBe(409);
    const started = await act("debate");
    expect(started.status).toBe(200);
    const card = (await started.json()) as LiveCardView;
    expect(card.state).toBe("debating");
    expect((await act("debate")).status).toBe(409);
    // The matched earlier check went into the debate's evidence, labelled.
    const [debate] = await h.db.select().from(s.debates).where(eq(s.debates.id, card.debate!.id));
    expect(debate!.matchDecision?.choice).toBe("attach-as-evidence");
    let done: LiveCardView | undefined;
    for (let i = 0; i < 240 && !done?.debate?.verdict; i++) {
      await new Promise((r) => setTimeout(r, 250));
      done = (await board()).find((c) => c.id === bridge.id);
    }
    expect(done!.debate).toMatchObject({ status: "completed" });
    expect(done!.debate!.verdict).toBeTruthy();
    const drafted = await act("draft");
    expect(drafted.status).toBe(200);
    const fcId = ((await drafted.json()) as LiveCardView).factCheckId!;
    const [version] = await h.db.select().from(s.factCheckVersions).where(eq(s.factCheckVersions.factCheckId, fcId));
    expect(version!.whereSaid).toBe(`Leaders' debate, at ${bridge.timeCode}`);
    expect(version!.claimant).toBe("SMITH");
    const actions = await h.db.select().from(s.liveCardActions).where(eq(s.liveCardActions.cardId, bridge.id));
    expect(actions.map((a) => a.action)).toEqual(["debate", "draft"]);
  }, 120_000);
});

describe.skipIf(backend !== "postgres")("a board on another server (PostgreSQL)", () => {
  it("shows cards another server stored, told by its signal on the LISTEN/NOTIFY bus", async () => {
    enableCrossProcessEvents(process.env.TEST_DATABASE_URL!);
    const other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await other.connect();
    try {
      const session = await createLiveSession(h.db, { title: "Two servers", method: "radar", threshold: 0.5 });
      const ctrl = new AbortController();
      const res = await liveBoardStream(
        h.db,
        new Request(`http://127.0.0.1/live/${session.id}`, { signal: ctrl.signal }),
        session.id,
      );
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buf = "";
      const until = async (needle: string) => {
        while (!buf.includes(needle)) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`the stream ended before ${needle}`);
          buf += value;
        }
      };
      await until("event: ready");
      // What the other server does: store the batch in the database, then signal on the bus.
      const cardId = randomUUID();
      await storeLiveBatch(
        h.db,
        session.id,
        [{ lineId: "o1", speaker: "JONES", text: "Crime rose by 12 percent in 2023.", atMs: 0, sentences: 1 }],
        [
          {
            id: cardId,
            lineId: "o1",
            sentenceIndex: 0,
            speaker: "JONES",
            sentence: "Crime rose by 12 percent in 2023.",
            atMs: 0,
            score: 0.9,
            groupKey: "12 2023 crime percent rose",
          },
        ],
      );
      // Listening is set up when the board's watcher wires the bus; give the LISTEN a round trip.
      await new Promise((r) => setTimeout(r, 500));
      await other.query(`select pg_notify($1, $2)`, [LIVE_SIGNAL, JSON.stringify({ o: "another-server", s: 1 })]);
      await until(cardId);
      ctrl.abort();
      await reader.cancel().catch(() => undefined);
    } finally {
      await other.end();
      await disableCrossProcessEvents();
    }
  }, 30_000);
});

import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createLiveSession, type LiveCard } from "@/db/queries/live";
import { generateDebate } from "@/lib/bench/live";
import { disableCrossProcessEvents, enableCrossProcessEvents } from "@/lib/debate/pg-bus";
import { importFactChecks } from "@/lib/matching/import/run";
import { receiveLines } from "@/lib/live/service";
import { liveBoardStream } from "@/lib/live/stream";
import { parseTranscript } from "@/lib/live/transcript";
import type { LiveCardView } from "@/lib/live/view";
import { backend, freshDatabase } from "./test-db";

/*
 * The live desk across processes (PostgreSQL: PGlite is one process's database). A transcript is
 * replayed into a session by `counterpoint live replay` in a child process while a board in this
 * process (the "second server") watches the session's event stream; the child is killed with
 * SIGKILL mid-session, and a second child replaying the same file into the same session picks
 * it up at the next line. Every line is stored once, in order, and the cards are the ones an
 * uninterrupted replay makes; the board saw every card the children stored.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const url = process.env.TEST_DATABASE_URL;
let h: DbHandle;
const children: ChildProcess[] = [];
let dir = "";
let file = "";
let sessionId = "";
let board: { cards: Map<string, LiveCardView>; close: () => Promise<void> } | null = null;

/** `counterpoint live replay` into the session, in a process of its own. */
function replay(speed: string) {
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, "bin/counterpoint.mjs"),
      "live",
      "replay",
      file,
      "--session",
      sessionId,
      "--speed",
      speed,
      "--json",
    ],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: url! }, stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr!.on("data", (b: Buffer) => (err += b.toString()));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  return { child, exited, out: () => out, err: () => err };
}

const linesStored = async () =>
  h.db.select().from(s.liveLines).where(eq(s.liveLines.sessionId, sessionId)).orderBy(asc(s.liveLines.seq));

beforeAll(async () => {
  if (backend !== "postgres") return;
  h = await freshDatabase();
  enableCrossProcessEvents(url!);
  // 60 turns of a generated debate (claims, repeats, small talk) and the earlier checks some of them match.
  const { lines, checks } = generateDebate(120);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-live-proc-"));
  file = path.join(dir, "debate.txt");
  fs.writeFileSync(file, lines.map((l) => `${l.speaker}: ${l.text}`).join("\n"));
  fs.writeFileSync(
    path.join(dir, "checks.csv"),
    [
      "claim,rating,url,publisher,date",
      ...checks.map((c, i) => `"${c}",False,https://checks.example/${i},Desk,2024-03-12`),
    ].join("\n"),
  );
  await importFactChecks({ db: h.db }, path.join(dir, "checks.csv"));
  sessionId = (await createLiveSession(h.db, { title: "Two processes", method: "radar", threshold: 0.5 })).id;
}, 120_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  await board?.close();
  if (backend === "postgres") await disableCrossProcessEvents();
  await h?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A board on this process: every card it receives, latest version by id. */
async function openBoard(id: string) {
  const ctrl = new AbortController();
  const res = await liveBoardStream(h.db, new Request(`http://127.0.0.1/live/${id}`, { signal: ctrl.signal }), id);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const cards = new Map<string, LiveCardView>();
  let buf = "";
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  const done = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buf += value;
      let cut: number;
      while ((cut = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        if (block.startsWith("event: ready")) ready();
        const data = /^event: cards\ndata: (.*)$/m.exec(block)?.[1];
        if (data) for (const c of (JSON.parse(data) as { cards: LiveCardView[] }).cards) cards.set(c.id, c);
      }
    }
  })();
  await isReady;
  return {
    cards,
    close: async () => {
      ctrl.abort();
      await reader.cancel().catch(() => undefined);
      await done;
    },
  };
}

describe.skipIf(backend !== "postgres")("the live desk across processes (PostgreSQL)", () => {
  it("resumes a killed replay at the next line, and a board on another process sees every card", async () => {
    board = await openBoard(sessionId);
    const transcript = parseTranscript(fs.readFileSync(file, "utf8"));
    // Paced, so the kill lands mid-session: killed once at least 8 lines are stored.
    const first = replay("20");
    for (let i = 0; i < 1200 && (await linesStored()).length < 8; i++) {
      if (first.child.exitCode !== null) throw new Error(`the replay ended early: ${first.err()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    first.child.kill("SIGKILL");
    await first.exited;
    const before = (await linesStored()).length;
    expect(before).toBeGreaterThanOrEqual(8);
    expect(before).toBeLessThan(transcript.length);

    // A restarted replay of the same file into the same session (as fast as it goes).
    const second = replay("max");
    expect(await second.exited, second.err()).toBe(0);
    const report = JSON.parse(second.out()) as { sent: number; duplicates: number };
    // It skipped exactly what the killed one stored and went on from the next line.
    expect(report.duplicates).toBe(before);
    const stored = await linesStored();
    expect(stored.map((l) => l.lineId)).toEqual(transcript.map((l) => l.lineId));
    expect(stored.map((l) => l.seq)).toEqual(transcript.map((_, i) => i + 1));

    // The cards are those of an uninterrupted replay of the same lines in one process.
    const reference = (await createLiveSession(h.db, { title: "Reference", method: "radar", threshold: 0.5 })).id;
    for (let i = 0; i < transcript.length; i += 5)
      await receiveLines({ db: h.db }, reference, transcript.slice(i, i + 5));
    const cardsOf = async (id: string) =>
      h.db.select().from(s.liveCards).where(eq(s.liveCards.sessionId, id)).orderBy(asc(s.liveCards.lineSeq));
    const shape = (cards: LiveCard[]) =>
      cards.map((c) => `${c.lineId}/${c.sentenceIndex} ${c.match?.ref ?? "-"}`).sort();
    const cards = await cardsOf(sessionId);
    expect(cards.length).toBeGreaterThan(5);
    expect(cards.some((c) => c.match)).toBe(true);
    expect(cards.some((c) => c.groupOf)).toBe(true);
    expect(shape(cards)).toEqual(shape(await cardsOf(reference)));
    // Every repeat points at a first card of the session, and the first cards count every saying once.
    const firsts = new Map(cards.filter((c) => !c.groupOf).map((c) => [c.id, c]));
    for (const c of cards) if (c.groupOf) expect(firsts.has(c.groupOf)).toBe(true);
    expect([...firsts.values()].reduce((n, c) => n + c.repeats, 0)).toBe(cards.length);

    // The board here was told by the children's signals: every card, each as last stored.
    for (let i = 0; i < 200 && board.cards.size < cards.length; i++) await new Promise((r) => setTimeout(r, 50));
    expect([...board.cards.keys()].sort()).toEqual(cards.map((c) => c.id).sort());
    for (const c of firsts.values()) expect(board.cards.get(c.id)!.repeats).toBe(c.repeats);
  }, 180_000);
});

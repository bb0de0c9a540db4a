import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { createDebateRecord } from "@/db/queries/debates";
import { requeueDebate } from "@/db/queries/debate-run";
import { cancelDebate } from "@/lib/debate/runner";
import * as s from "@/db/schema";
import { radarConfigSchema, radarProtocol } from "@/lib/debate/radar/protocol";
import { DebateQueue } from "@/lib/debate/queue";
import { follow, liveTurns, subscribe, type DebateEvent } from "@/lib/debate/events";
import { disableCrossProcessEvents, enableCrossProcessEvents } from "@/lib/debate/pg-bus";
import { promptsHash } from "@/lib/prompts";
import { backend, freshDatabase } from "./test-db";

/**
 * Debates through the `debates` queue across processes: real `counterpoint worker` processes (the
 * CLI through scripts/scripted-worker.mjs, so no model is called) on one PostgreSQL. A queued
 * debate is run by a worker; a worker killed with SIGKILL mid-debate is taken over once its lease
 * lapses and the debate resumes from its finished turns; a worker stopped with SIGTERM hands its
 * debate back and another finishes it; and a provider limit holds across two processes.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const url = process.env.TEST_DATABASE_URL;
let h: DbHandle;
let queue: DebateQueue;
const children: ChildProcess[] = [];

beforeAll(async () => {
  if (backend !== "postgres") return;
  h = await freshDatabase();
  await h.db.execute(sql`drop schema if exists pgboss cascade`);
  queue = new DebateQueue(h.db, url!);
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
});
afterAll(async () => {
  await queue?.close();
  await h?.close();
});

type Worker = {
  child: ChildProcess;
  pid: number;
  ready: Promise<void>;
  output: () => string;
  exited: Promise<unknown>;
};

function startWorker(
  name: string,
  env: Record<string, string> = {},
  debatesConcurrency = 2,
  extra: string[] = [],
): Worker {
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, "scripts/scripted-worker.mjs"),
      "worker",
      "--concurrency",
      "1",
      "--debates-concurrency",
      String(debatesConcurrency),
      "--json",
      ...extra,
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "production",
        DATABASE_URL: url,
        SCRIPTED_FIRST_TOKEN_MS: "250",
        ...env,
      } as NodeJS.ProcessEnv,
    },
  );
  children.push(child);
  let out = "";
  const exited = new Promise((r) => child.once("exit", r));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      out += d;
      if (out.includes('"event":"ready"')) resolve();
    });
    child.stderr!.on("data", (d) => (out += d));
    child.once("exit", (code) => reject(new Error(`${name} exited ${code}: ${out}`)));
  });
  ready.catch(() => undefined);
  return { child, pid: child.pid!, ready, output: () => out, exited };
}

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 50_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function newDebate() {
  const config = radarConfigSchema.parse({});
  return createDebateRecord(h.db, {
    claim: { text: "The boxer sold his medal to help children in the 2022 war." },
    protocol: "radar",
    variant: config.variant,
    config,
    models: Object.fromEntries(radarProtocol.roles(config).map((r) => [r, "openai:gpt-4o-mini"])),
    promptsHash: promptsHash(radarProtocol.templates(config)),
    evidenceMode: "gold",
    evidence: [
      { rank: 1, text: "The boxer auctioned his Olympic medal in 2012 to fund a children's hospital.", source: "gold" },
      { rank: 2, text: "In 2022 the war displaced millions of children.", source: "gold" },
    ],
  });
}

const debateRow = async (id: string) => (await h.db.select().from(s.debates).where(eq(s.debates.id, id)))[0]!;
const turnsOf = (id: string) => h.db.select().from(s.turns).where(eq(s.turns.debateId, id)).orderBy(asc(s.turns.seq));
/** The worker process whose run holds the debate (runner tokens start with host:pid:). */
const holderPid = (runnerId: string | null) => (runnerId ? Number(runnerId.split(":")[1]) : null);

/** Every step once: no (round, phase, role, kind) stored twice, all finished. */
async function expectEveryTurnOnce(id: string) {
  const turns = await turnsOf(id);
  expect(turns.length).toBeGreaterThan(3);
  expect(turns.every((t) => t.status === "completed")).toBe(true);
  const keys = turns.map((t) => `${t.round}/${t.phase}/${t.role}/${t.kind}`);
  expect(new Set(keys).size).toBe(keys.length);
  expect(turns.map((t) => t.seq)).toEqual(turns.map((_, i) => i + 1));
  const verdicts = await h.db.select().from(s.verdicts).where(eq(s.verdicts.debateId, id));
  expect(verdicts.filter((v) => v.isFinal)).toHaveLength(1);
  return turns;
}

/** Waits for a debate with at least two finished turns, not all of them: mid-debate. */
const midDebate = (id: string) =>
  until("the debate to be mid-way", async () => {
    const row = await debateRow(id);
    if (row.status !== "running") return null;
    const done = (await turnsOf(id)).filter((t) => t.status === "completed");
    return done.length >= 2 ? { runnerId: row.runnerId, finishedTurnIds: done.map((t) => t.id) } : null;
  });

describe.skipIf(backend !== "postgres")("debates through the queue, two worker processes on PostgreSQL", () => {
  it("runs a queued debate in a worker; a worker killed mid-debate is taken over after its lease, every turn stored once", {
    timeout: 60_000,
  }, async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const a = startWorker("worker A", {}, 2, ["--health-port", String(port)]);
    await a.ready;
    const first = await newDebate();
    await queue.enqueue(first);
    // The health check a supervisor polls: 200 while working, naming the debates in hand.
    const health = await until("worker A's health check to show the debate", async () => {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      const body = (await res.json()) as { status: string; debates: { running: boolean; debates: string[] } };
      return res.status === 200 && body.debates.debates.includes(first) ? body : null;
    });
    expect(health).toMatchObject({ status: "ok", debates: { running: true, concurrency: 2 } });
    await until("the first debate to complete", async () => (await debateRow(first)).status === "completed").catch(
      async (e) => {
        throw new Error(`${(e as Error).message}: ${JSON.stringify(await debateRow(first))}\n${a.output()}`);
      },
    );
    expect(holderPid((await debateRow(first)).runnerId)).toBe(a.pid);
    await expectEveryTurnOnce(first);

    const victim = await newDebate();
    await queue.enqueue(victim);
    const before = await midDebate(victim);
    expect(holderPid(before.runnerId)).toBe(a.pid);
    a.child.kill("SIGKILL");
    await a.exited;

    const b = startWorker("worker B");
    await b.ready;
    await until("the killed debate to complete on B", async () => (await debateRow(victim)).status === "completed");
    expect(holderPid((await debateRow(victim)).runnerId)).toBe(b.pid);
    const turns = await expectEveryTurnOnce(victim);
    // Resumed, not restarted: the turns finished before the kill are the same rows.
    for (const id of before.finishedTurnIds) expect(turns.map((t) => t.id)).toContain(id);
  });

  it("a worker stopped with SIGTERM hands its debate back and another worker finishes it", {
    timeout: 60_000,
  }, async () => {
    const c = startWorker("worker C");
    const d = startWorker("worker D");
    await Promise.all([c.ready, d.ready]);
    const id = await newDebate();
    // A watcher in this process (as an app server's event stream is): the hand-back must tell it
    // the turn in progress is dropped, or its page would show the half-written turn until the next run speaks.
    enableCrossProcessEvents(url!);
    const seen: { event: DebateEvent; liveAfter: number }[] = [];
    const unsubscribe = subscribe(id, (event) => seen.push({ event, liveAfter: liveTurns(id).length }));
    // As the event route does: nothing runs yet, so this process is in step from the run's first event.
    const unfollow = await follow(id, { expectRunner: false });
    try {
      await queue.enqueue(id);
      const before = await midDebate(id);
      const [stopping, other] = holderPid(before.runnerId) === c.pid ? [c, d] : [d, c];
      expect(holderPid(before.runnerId)).toBe(stopping.pid);
      await until("the watcher to see live text", async () => seen.some((x) => x.event.type === "delta"));
      stopping.child.kill("SIGTERM");
      await stopping.exited;
      expect(stopping.child.exitCode).toBe(0);
      expect(stopping.output()).toContain(`handed debate ${id} back to the queue`);
      await until("the handed-back debate to complete", async () => (await debateRow(id)).status === "completed");
      const handedBack = seen.findIndex((x) => x.event.type === "status" && x.event.status === "queued");
      expect(handedBack, "the watcher heard the debate go back to the queue").toBeGreaterThan(-1);
      expect(seen[handedBack]!.liveAfter).toBe(0);
      expect(seen.slice(handedBack + 1).some((x) => x.event.type === "status" && x.event.status === "running")).toBe(
        true,
      );
      await finishSigtermCheck(id, before, other.pid);
    } finally {
      unfollow();
      unsubscribe();
      await disableCrossProcessEvents();
    }
  });

  async function finishSigtermCheck(id: string, before: Awaited<ReturnType<typeof midDebate>>, otherPid: number) {
    expect(holderPid((await debateRow(id)).runnerId)).toBe(otherPid);
    const turns = await expectEveryTurnOnce(id);
    for (const t of before.finishedTurnIds) expect(turns.map((x) => x.id)).toContain(t);
  }

  it("Stop from another process reaches the worker's run; Resume queues it and a worker finishes it", {
    timeout: 60_000,
  }, async () => {
    const g = startWorker("worker G");
    await g.ready;
    const id = await newDebate();
    await queue.enqueue(id);
    const before = await midDebate(id);
    expect(holderPid(before.runnerId)).toBe(g.pid);
    // This process does not run the debate: Stop marks the row, and the worker's heartbeat sees its claim gone.
    expect(await cancelDebate(h.db, id)).toBe(true);
    // The run ends (its handler logs the outcome) once its heartbeat or its next turn sees the claim gone.
    await until("the worker's run to end", async () => g.output().includes(`debate ${id} cancelled`));
    const stopped = await turnsOf(id);
    expect((await debateRow(id)).status).toBe("cancelled");
    expect(stopped.some((t) => t.status === "streaming")).toBe(false);

    // Resume from any server: queued again (what resumeDebate does on PostgreSQL), and a worker continues from the last finished turn.
    expect(await requeueDebate(h.db, id)).toBe(true);
    await queue.enqueue(id);
    await until("the resumed debate to complete", async () => (await debateRow(id)).status === "completed");
    const turns = await turnsOf(id);
    for (const t of stopped.filter((x) => x.status === "completed")) expect(turns.map((x) => x.id)).toContain(t.id);
    // The stopped turn keeps its row, marked stopped; every other step is stored once and finished.
    const others = turns.filter((t) => t.status !== "stopped");
    expect(others.every((t) => t.status === "completed")).toBe(true);
    const keys = others.map((t) => `${t.round}/${t.phase}/${t.role}/${t.kind}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("holds a provider limit across two worker processes", { timeout: 60_000 }, async () => {
    const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cp-slots-")), "calls.log");
    // Each process alone would allow 2 calls at once (its in-process queue); 3 debates each, so without the shared limit 4 would overlap.
    const env = {
      SCRIPTED_LIMIT_KEY: "scripted-shared",
      PROVIDER_CONCURRENCY: "scripted-shared=2",
      SCRIPTED_CALL_LOG: log,
      SCRIPTED_FIRST_TOKEN_MS: "150",
    };
    const e = startWorker("worker E", env, 3);
    const f = startWorker("worker F", env, 3);
    await Promise.all([e.ready, f.ready]);
    const ids = await Promise.all(Array.from({ length: 6 }, () => newDebate()));
    for (const id of ids) await queue.enqueue(id);
    await until("six debates to complete", async () => {
      const rows = await Promise.all(ids.map(debateRow));
      return rows.every((r) => r.status === "completed");
    });

    const calls = fs
      .readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(" ").map(Number) as [number, number, number]);
    // Both processes made calls.
    expect(new Set(calls.map((c) => c[2])).size).toBe(2);
    // Most calls at once: sweep the starts and ends in time order (an end before a start at the same instant).
    const events = calls
      .flatMap(([t0, t1]) => [[t0, 1] as const, [t1, -1] as const])
      .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    let now = 0;
    let most = 0;
    for (const [, d] of events) most = Math.max(most, (now += d));
    expect(most).toBeLessThanOrEqual(2);
    expect(most).toBe(2);
    // Every slot was given back.
    const held = await h.db.select().from(s.providerSlots).where(eq(s.providerSlots.key, "scripted-shared"));
    expect(held.every((r) => r.holder === null)).toBe(true);
  });
});

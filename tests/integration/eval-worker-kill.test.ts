import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import type { ClaimRecord } from "@/lib/datasets/claims";
import { PgBossExecutor } from "@/lib/eval/pgboss";
import { runProgress } from "@/lib/eval/report";
import { createEvalRun } from "@/lib/eval/run";
import { backend, freshDatabase } from "./test-db";

/**
 * The pg-boss executor across processes: real `worker` processes (the CLI through the scripted
 * entry point, so no model is called) share a run on PostgreSQL; one is killed with SIGKILL in the
 * middle of a debate, and the others finish everything: no claim lost, none run twice to completion,
 * and the killed debate resumes from its finished turns.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const url = process.env.TEST_DATABASE_URL;
let h: DbHandle;
const children: ChildProcess[] = [];

beforeAll(async () => {
  if (backend !== "postgres") return;
  h = await freshDatabase();
  await h.db.execute(sql`drop schema if exists pgboss cascade`);
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  await h?.close();
});

function startWorker(name: string) {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, "scripts/scripted-worker.mjs"), "worker", "--concurrency", "2", "--lease-seconds", "3", "--json"],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "production",
        DATABASE_URL: url,
        SCRIPTED_FIRST_TOKEN_MS: "120",
      } as NodeJS.ProcessEnv,
    },
  );
  children.push(child);
  let out = "";
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      out += d;
      if (out.includes('"event":"ready"')) resolve();
    });
    child.stderr!.on("data", (d) => (out += d));
    child.on("exit", (code) => reject(new Error(`${name} exited ${code}: ${out}`)));
  });
  return { child, ready, output: () => out };
}

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(backend !== "postgres")("pg-boss workers on PostgreSQL", () => {
  it("loses no claim and runs none twice when a worker is killed mid-debate", async () => {
    const claims: ClaimRecord[] = Array.from({ length: 8 }, (_, i) => ({
      id: `k${i}`,
      claim: `Claim ${i}: the medal was sold for the 2022 war.`,
      label: "FALSE",
      gold_evidence: [{ text: `Evidence ${i}.` }],
    }));
    const models = { politician: "openai:gpt-4o-mini", scientist: "openai:gpt-4o-mini", judge: "openai:gpt-4o-mini" };
    const { runId } = await createEvalRun(
      h.db,
      {
        dataset: "kill-test",
        claims,
        evidence: { mode: "gold" },
        protocol: "radar",
        config: {},
        models,
        executor: "pg-boss",
      },
      { validateModel: () => {} },
    );
    const queue = new PgBossExecutor(h.db, url!);
    expect(await queue.enqueue(runId)).toBe(8);
    await queue.close();

    const a = startWorker("worker A");
    await a.ready;
    // Kill A once it holds an item whose debate has finished turns but not all of them.
    const victim = await until("a debate in progress on worker A", async () => {
      const rows = await h.db
        .select()
        .from(s.evalItems)
        .where(and(eq(s.evalItems.runId, runId), eq(s.evalItems.status, "running")));
      for (const r of rows) {
        const turns = await h.db
          .select({ id: s.turns.id, status: s.turns.status })
          .from(s.turns)
          .where(eq(s.turns.debateId, r.debateId!));
        if (turns.filter((t) => t.status === "completed").length >= 2)
          return { item: r, finishedTurnIds: turns.filter((t) => t.status === "completed").map((t) => t.id) };
      }
      return null;
    });
    a.child.kill("SIGKILL");
    await new Promise((r) => a.child.once("exit", r));
    const doneBeforeKill = (await runProgress(h.db, runId)).done;
    expect(doneBeforeKill).toBeLessThan(8);

    const b = startWorker("worker B");
    const c = startWorker("worker C");
    // A failure here was seen once in CI and could not be reproduced: it says what the workers
    // and the items were doing, so the next one explains itself.
    try {
      await afterTakeover(runId, victim, b, c);
    } catch (e) {
      const items = await h.db
        .select({
          id: s.evalItems.id,
          status: s.evalItems.status,
          attempts: s.evalItems.attempts,
          workerId: s.evalItems.workerId,
          error: s.evalItems.error,
        })
        .from(s.evalItems)
        .where(eq(s.evalItems.runId, runId));
      // Short lines, most telling first: the test summary prints the first 30 lines of a failure.
      const tail = (w: Worker) =>
        w
          .output()
          .trim()
          .split("\n")
          .slice(-4)
          .map((l) => `  ${l.slice(0, 200)}`)
          .join("\n");
      (e as Error).message = [
        (e as Error).message.split("\n")[0],
        `victim ${victim.item.id.slice(0, 8)} on ${victim.item.workerId}, ${victim.finishedTurnIds.length} turns finished at the kill`,
        ...items.map(
          (i) => `item ${i.id.slice(0, 8)} ${i.status} attempts=${i.attempts} ${i.workerId} ${i.error ?? ""}`,
        ),
        `worker A:\n${tail(a)}`,
        `worker B:\n${tail(b)}`,
        `worker C:\n${tail(c)}`,
        (e as Error).message,
      ].join("\n");
      throw e;
    }
  });
});

type Worker = ReturnType<typeof startWorker>;
type Victim = { item: typeof s.evalItems.$inferSelect; finishedTurnIds: string[] };

async function afterTakeover(runId: string, victim: Victim, b: Worker, c: Worker) {
  await Promise.all([b.ready, c.ready]);
  await until(
    "the run to complete",
    async () => (await h.db.select().from(s.evalRuns).where(eq(s.evalRuns.id, runId)))[0]?.status === "completed",
  );

  const p = await runProgress(h.db, runId);
  expect(p).toMatchObject({ total: 8, done: 8, failed: 0, pending: 0, running: 0 });
  const items = await h.db.select().from(s.evalItems).where(eq(s.evalItems.runId, runId));
  const debateIds = items.map((i) => i.debateId!);
  // One debate per claim, each completed once with one final verdict.
  expect(new Set(debateIds).size).toBe(8);
  const debates = await h.db.select().from(s.debates).where(inArray(s.debates.id, debateIds));
  expect(debates.every((d) => d.status === "completed")).toBe(true);
  const verdicts = await h.db
    .select()
    .from(s.verdicts)
    .where(and(inArray(s.verdicts.debateId, debateIds), eq(s.verdicts.isFinal, true)));
  expect(verdicts).toHaveLength(8);
  // The killed debate was taken over (a second lease) and resumed: the turns finished before the kill are the same rows.
  const taken = items.find((i) => i.id === victim.item.id)!;
  expect(taken.attempts).toBeGreaterThanOrEqual(2);
  expect(taken.workerId).not.toBe(victim.item.workerId);
  const turnsAfter = await h.db
    .select({ id: s.turns.id, status: s.turns.status })
    .from(s.turns)
    .where(eq(s.turns.debateId, victim.item.debateId!));
  for (const id of victim.finishedTurnIds) expect(turnsAfter.map((t) => t.id)).toContain(id);
  expect(turnsAfter.every((t) => t.status === "completed")).toBe(true);
  // Both surviving workers took part.
  const workers = new Set(items.map((i) => i.workerId?.split(":")[1]));
  expect(workers.size).toBeGreaterThanOrEqual(2);

  for (const w of [b, c]) w.child.kill("SIGTERM");
  await Promise.all(
    [b, c].map((w) => new Promise((r) => (w.child.exitCode !== null ? r(null) : w.child.once("exit", r)))),
  );
  expect(b.output()).toContain('"event":"stopped"');
}

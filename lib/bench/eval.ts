import { DEFAULT_METHOD } from "@/lib/debate/methods";
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { getConfig } from "@/lib/config";
import type { ClaimRecord } from "@/lib/datasets/claims";
import { InProcessExecutor } from "@/lib/eval/executor";
import { createEvalRun } from "@/lib/eval/run";
import { scriptedEvalResolver } from "./scripted-eval";

/**
 * `counterpoint bench eval`: claims per minute with 1, 2 and 4 workers sharing one run, against a
 * scripted model with a fixed latency per call. On PostgreSQL each worker is a separate process
 * (scripts/scripted-worker.mjs: the real `worker` command with scripted models) taking jobs from
 * pg-boss, each running one claim at a time, so the speed-up measures the queue, the leases and the
 * database, not the model. The clock starts when the run is queued with every worker already
 * waiting and stops when the run is completed. On the embedded database (one process only) the
 * "workers" are concurrent slots of the in-process executor, and the report says so.
 */

export type EvalBenchReport = {
  backend: "pglite" | "postgres";
  workers_are: "processes" | "in-process slots";
  claims_per_run: number;
  model_latency_ms_per_call: number;
  calls_per_claim: number;
  runs: Array<{ workers: number; seconds: number; claims_per_minute: number }>;
  claims_per_minute_1_worker: number;
  speedup_2_workers: number;
  speedup_4_workers: number;
  notes: string[];
};

const ROOT = process.env.COUNTERPOINT_ROOT ?? process.cwd();
const MODELS = { politician: "openai:gpt-4o-mini", scientist: "openai:gpt-4o-mini", judge: "openai:gpt-4o-mini" };

function benchClaims(n: number, tag: string): ClaimRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${tag}-${i}`,
    claim: `Benchmark claim ${i}: the boxer sold his medal to help children in the 2022 war.`,
    label: ["TRUE", "HALF-TRUE", "FALSE"][i % 3],
    gold_evidence: [
      { text: "The boxer auctioned his Olympic medal in 2012." },
      { text: "In 2022 the war displaced millions of children." },
    ],
  }));
}

function startWorker(url: string, latencyMs: number): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, "scripts/scripted-worker.mjs"), "worker", "--concurrency", "1", "--json"],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, SCRIPTED_FIRST_TOKEN_MS: String(latencyMs) },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      out += d;
      if (out.includes('"event":"ready"')) resolve();
    });
    child.stderr!.on("data", (d) => (out += d));
    child.once("exit", (code) => reject(new Error(`benchmark worker exited ${code}: ${out.slice(-2000)}`)));
  });
  ready.catch(() => undefined);
  return { child, ready };
}

async function waitCompleted(h: DbHandle, runId: string) {
  for (;;) {
    const [r] = await h.db.select({ status: s.evalRuns.status }).from(s.evalRuns).where(eq(s.evalRuns.id, runId));
    if (r?.status === "completed") return;
    if (r && !["queued", "running"].includes(r.status)) throw new Error(`benchmark run ended ${r.status}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

export async function benchEval(
  h: DbHandle,
  opts: { claims?: number; latencyMs?: number; workers?: number[]; log?: (l: string) => void } = {},
): Promise<EvalBenchReport> {
  const claimsPerRun = opts.claims ?? 32;
  const latencyMs = opts.latencyMs ?? 150;
  const counts = opts.workers ?? [1, 2, 4];
  const log = opts.log ?? (() => {});
  const database = getConfig().database;
  const runs: EvalBenchReport["runs"] = [];
  // Expertise roles, one rebuttal, no checkpoints: 2 openings, 2 rebuttals, 2 closings and the judge.
  const callsPerClaim = 7;
  const newRun = async (n: number, claims: number, tag: string) =>
    (
      await createEvalRun(
        h.db,
        {
          name: `bench eval · ${n} worker(s)${tag === "warm" ? " · warm-up" : ""}`,
          dataset: "bench-eval",
          claims: benchClaims(claims, `w${n}-${tag}-${Date.now()}`),
          evidence: { mode: "gold" },
          protocol: DEFAULT_METHOD,
          config: { variant: "expertise", earlyStopping: "off" },
          models: MODELS,
          executor: h.backend === "postgres" ? "pg-boss" : "in-process",
        },
        { validateModel: () => {} },
      )
    ).runId;
  for (const n of counts) {
    let seconds: number;
    if (database.backend === "postgres") {
      const workers = Array.from({ length: n }, () => startWorker(database.url, latencyMs));
      const { PgBossExecutor } = await import("@/lib/eval/pgboss");
      const queue = new PgBossExecutor(h.db, database.url);
      try {
        await Promise.all(workers.map((w) => w.ready));
        // A fresh process loads and compiles the debate code on its first claim: warm every worker up
        // untimed (two claims each), so the clock measures steady throughput, not start-up.
        const warm = await newRun(n, 2 * n, "warm");
        await queue.enqueue(warm);
        await waitCompleted(h, warm);
        const runId = await newRun(n, claimsPerRun, "timed");
        const t0 = performance.now();
        await queue.enqueue(runId);
        await waitCompleted(h, runId);
        seconds = (performance.now() - t0) / 1000;
      } finally {
        await queue.close();
        for (const w of workers) w.child.kill("SIGTERM");
        await Promise.all(
          workers.map((w) => (w.child.exitCode !== null ? null : new Promise((r) => w.child.once("exit", r)))),
        );
      }
    } else {
      const runId = await newRun(n, claimsPerRun, "timed");
      const t0 = performance.now();
      await new InProcessExecutor(h.db, { backend: h.backend }).work({
        concurrency: n,
        runId,
        untilRunDone: true,
        resolverFor: scriptedEvalResolver({ firstTokenMs: latencyMs }),
      });
      seconds = (performance.now() - t0) / 1000;
    }
    const cpm = (claimsPerRun / seconds) * 60;
    runs.push({ workers: n, seconds: Math.round(seconds * 100) / 100, claims_per_minute: Math.round(cpm * 10) / 10 });
    log(`${n} worker(s): ${claimsPerRun} claims in ${seconds.toFixed(1)} s = ${cpm.toFixed(1)} claims/min`);
  }
  const base = runs.find((r) => r.workers === 1)?.claims_per_minute ?? NaN;
  const speed = (n: number) =>
    Math.round(((runs.find((r) => r.workers === n)?.claims_per_minute ?? NaN) / base) * 100) / 100;
  const ideal = (callsPerClaim * latencyMs) / 1000;
  return {
    backend: h.backend,
    workers_are: database.backend === "postgres" ? "processes" : "in-process slots",
    claims_per_run: claimsPerRun,
    model_latency_ms_per_call: latencyMs,
    calls_per_claim: callsPerClaim,
    runs,
    claims_per_minute_1_worker: base,
    speedup_2_workers: speed(2),
    speedup_4_workers: speed(4),
    notes: [
      `Scripted model: every call answers after ${latencyMs} ms; a claim is ${callsPerClaim} calls, so one worker's ceiling is ${(60 / ideal).toFixed(1)} claims/min.`,
      database.backend === "postgres"
        ? "Each worker is a separate `counterpoint worker --concurrency 1` process on pg-boss (scripts/scripted-worker.mjs), started before the clock."
        : "Embedded database: one process only, so the workers are concurrent slots of the in-process executor. Set DATABASE_URL to measure worker processes.",
    ],
  };
}

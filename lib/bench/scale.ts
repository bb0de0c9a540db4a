import os from "node:os";
import type { DbHandle } from "@/db/client";
import { getConfig } from "@/lib/config";
import { plural } from "@/lib/plural";
import { DebateQueue } from "@/lib/debate/queue";
import {
  BENCH_PRESET,
  compareTurns,
  createBenchDebates,
  debateStates,
  deleteBenchDebates,
  turnsOf,
  waitAllCompleted,
} from "./scale-db";
import { benchCrossProcessLatency, latencyPrerequisite } from "./scale-latency";
import { startScriptedWorker, stopProcess, waitHealthy, workerDebates, type Proc } from "./scale-processes";

/**
 * `counterpoint bench scale` (PostgreSQL only): how the product scales by adding worker processes.
 * 1. Throughput: the same batch of debates run by 1, 2 and 4 separate worker processes (each
 *    `worker --debates-concurrency 1`, scripted model of fixed latency); wall time from the first
 *    enqueue to the last completion, the table emptied of the benchmark's debates between phases.
 * 2. Latency: a model token to a watcher on an app server that does not run the debate.
 * 3. Lost turns: a batch on 2 workers, one SIGKILLed while it holds a debate with finished turns;
 *    the other takes it over after the lease; turns finished before the kill must all be there
 *    once, and every debate must complete.
 * Measuring instrument only: the scripted models are not selectable by the app.
 */

export const SCALE_NEEDS_POSTGRES =
  "bench scale needs PostgreSQL: set DATABASE_URL (or pass --database-url postgres://...). It measures separate worker processes sharing the debates queue and live text crossing processes through LISTEN/NOTIFY; the embedded database (PGlite) is one process only, so there is nothing to scale.";

export type ScaleOptions = {
  debates?: number;
  workers?: number[];
  latencyMs?: number;
  perTokenMs?: number;
  latency?: boolean;
  browser?: boolean;
  latencyDebates?: number;
  kill?: boolean;
  chromium?: string;
  /** Keep every debate the benchmark made (tests read them back); the table is then not emptied between phases. */
  keepDebates?: boolean;
  /** First of 8 loopback ports: app server, model server, and health ports of the workers. */
  portBase?: number;
  log?: (line: string) => void;
};

export type ScaleRun = {
  workers: number;
  seconds: number;
  debates_per_minute: number;
  load_average_1m_at_start: number;
};

export type ScaleReport = {
  backend: "postgres";
  debates_per_minute_1_worker: number | null;
  speedup_2_workers: number | null;
  speedup_4_workers: number | null;
  cross_process_token_to_browser_ms_p50?: number | null;
  cross_process_token_to_browser_ms_p95?: number | null;
  cross_process_token_to_sse_client_ms_p50?: number | null;
  cross_process_token_to_sse_client_ms_p95?: number | null;
  lost_turns: number | null;
  parameters: {
    debates: number;
    workers: number[];
    debates_concurrency_per_worker: 1;
    preset: string;
    calls_per_debate: number;
    model_latency_ms_per_call: number;
    model_ms_per_token: number;
    latency_watcher: "browser" | "sse-client" | "none";
    latency_debates: number;
    kill_phase: boolean;
    lease_ms: number;
  };
  machine: { cpus: number; load_average_start: number[]; load_average_end: number[] };
  runs: ScaleRun[];
  latency: { samples: number; debates: number } | null;
  kill: {
    debates: number;
    completed: number;
    debates_not_completed: number;
    turns_finished_before_kill: number;
    missing_turns: number;
    duplicated_turns: number;
    killed_while_holding: string | null;
    takeover_seconds: number | null;
  } | null;
  notes: string[];
};

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const loadavg = () => os.loadavg().map((x) => round(x, 2));

export async function benchScale(h: DbHandle, opts: ScaleOptions = {}): Promise<ScaleReport> {
  const database = getConfig().database;
  if (h.backend !== "postgres" || database.backend !== "postgres") throw new Error(SCALE_NEEDS_POSTGRES);
  const url = database.url;
  const log = opts.log ?? (() => {});
  const debates = opts.debates ?? 16;
  const counts = opts.workers ?? [1, 2, 4];
  const latencyMs = opts.latencyMs ?? 200;
  const perTokenMs = opts.perTokenMs ?? 3;
  const portBase = opts.portBase ?? 3320;
  const chromium = opts.chromium ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  const wantLatency = opts.latency ?? true;
  const browser = opts.browser ?? true;
  if (counts.some((n) => n < 1 || n > 4))
    throw new Error(`--workers takes counts from 1 to 4 (one health port each), got ${counts.join(",")}`);
  // Fail before minutes of throughput runs, not after them.
  if (wantLatency) {
    const problem = latencyPrerequisite(browser, chromium);
    if (problem) throw new Error(problem);
  }
  const machineStart = loadavg();
  log(
    `bench scale on ${os.cpus().length} CPU core(s), load average ${machineStart.join(" / ")}: throughput with ${counts.join(", ")} worker(s)${opts.kill === false ? "" : ", a SIGKILL"}${wantLatency ? `, token latency to ${browser ? "a browser" : "an SSE client"}` : ""}`,
  );
  const notes: string[] = [];
  const workerPorts = [portBase + 4, portBase + 5, portBase + 6, portBase + 7];

  // The worker processes of the current run: a run with n workers has exactly n processes polling
  // the queue. Every throughput run starts its own, warmed up alike, so no run gets processes warmer
  // than another's; the kill phase reuses the last run's first two. Each process's health port is
  // fixed by its place in the pool.
  const pool: Proc[] = [];
  const resize = async (n: number) => {
    while (pool.length > n) await stopProcess(pool.pop()!);
    const fresh: Array<[Proc, number]> = [];
    while (pool.length < n) {
      const i = pool.length;
      const p = startScriptedWorker({ url, healthPort: workerPorts[i]!, firstTokenMs: latencyMs, perTokenMs });
      pool.push(p);
      fresh.push([p, i]);
    }
    if (fresh.length) log(`starting ${fresh.length} worker process${fresh.length > 1 ? "es" : ""} (${n} in all)`);
    await Promise.all(
      fresh.map(([p, i]) => waitHealthy(`http://127.0.0.1:${workerPorts[i]}/health`, p, `worker ${i + 1}`, 180_000)),
    );
  };
  const discard = (ids: string[]) => (opts.keepDebates ? Promise.resolve() : deleteBenchDebates(h.db, ids));
  const queue = new DebateQueue(h.db, url);
  const runs: ScaleRun[] = [];
  const turnsPerDebate: number[] = [];
  try {
    // 1. Throughput.
    for (const n of counts) {
      await resize(0);
      await resize(n);
      // A fresh process loads and compiles the debate code on its first debate: warm every worker
      // up untimed (two debates each), then empty the table again.
      const warm = await createBenchDebates(h.db, 2 * n, { model: "openai:gpt-4o-mini", tag: `warm-up ${n}w` });
      for (const id of warm) await queue.enqueue(id);
      await waitAllCompleted(h.db, warm, 600_000);
      await discard(warm);
      const ids = await createBenchDebates(h.db, debates, { model: "openai:gpt-4o-mini", tag: `${n}w` });
      const load = loadavg()[0]!;
      log(`throughput: ${n} worker(s), ${plural(debates, "debate")} queued (load average ${load})`);
      const t0 = performance.now();
      for (const id of ids) await queue.enqueue(id);
      const t1 = await waitAllCompleted(h.db, ids, 900_000, (done) =>
        log(`throughput: ${n} worker(s): ${done}/${debates} completed`),
      );
      const seconds = (t1 - t0) / 1000;
      runs.push({
        workers: n,
        seconds: round(seconds, 2),
        debates_per_minute: round((debates / seconds) * 60),
        load_average_1m_at_start: load,
      });
      log(
        `throughput: ${n} worker(s): ${plural(debates, "debate")} in ${seconds.toFixed(1)} s = ${((debates / seconds) * 60).toFixed(1)} debates/min`,
      );
      turnsPerDebate.push((await turnsOf(h.db, ids)).filter((t) => t.status === "completed").length / ids.length);
      await discard(ids);
    }

    // 2. Lost turns after a SIGKILL.
    let kill: Awaited<ReturnType<typeof killPhase>> | null = null;
    if (opts.kill !== false) {
      await resize(2);
      kill = await killPhase(h, queue, { debates, discard, procs: pool, workerPorts, log });
    }
    await resize(0);

    // 3. Latency across processes.
    let latency: Awaited<ReturnType<typeof benchCrossProcessLatency>> | null = null;
    if (wantLatency) {
      latency = await benchCrossProcessLatency(h.db, {
        url,
        appPort: portBase + 1,
        fakePort: portBase + 2,
        workerHealthPort: portBase + 3,
        perTokenMs,
        debates: opts.latencyDebates ?? 3,
        keepDebates: !!opts.keepDebates,
        browser,
        chromium,
        log,
      });
    }

    // Measured, not assumed: finished turns per debate of the timed batches (one model call each).
    const callsPerDebate = turnsPerDebate.length
      ? round(turnsPerDebate.reduce((a, b) => a + b, 0) / turnsPerDebate.length)
      : 0;
    const rate = (n: number) => runs.find((r) => r.workers === n)?.debates_per_minute ?? null;
    const base = rate(1);
    const speedup = (n: number) => (base && rate(n) ? round(rate(n)! / base, 2) : null);
    notes.push(
      `Scripted model: each call answers after ${latencyMs} ms, then ${perTokenMs} ms per token; a debate is ${callsPerDebate} calls (${BENCH_PRESET}), so one worker's ceiling is about ${round(60_000 / (callsPerDebate * latencyMs))} debates/min before token time and database work.`,
      "Each worker is a separate `counterpoint worker --debates-concurrency 1` process (scripts/scripted-worker.mjs: the real command with scripted models), started afresh for each run and warmed up alike (two untimed debates each) before the clock; one debate at a time per process, so the speed-up measures processes sharing the queue, the claims and the database, not concurrency inside one process.",
      `This computer has ${plural(os.cpus().length, "CPU core")}: ${plural(Math.max(...counts), "worker process", "worker processes")}, this process and PostgreSQL share them, so the speed-up is bounded by the CPU as much as by the design.`,
    );
    if (latency)
      notes.push(
        `Latency: ${latency.samples} stamped tokens over ${plural(latency.debates, "debate")} run by a real worker process against the scripted OpenAI-compatible server (${perTokenMs} ms per token, no first-token delay), watched by ${latency.watcher === "browser" ? "headless Chromium (MutationObserver)" : "an SSE client reading /api/debates/<id>/events"} on a production app server with IN_PROCESS_WORKER=0.`,
      );
    if (kill)
      notes.push(
        `Lost turns: ${kill.debates} debates on 2 workers; one was SIGKILLed, once a quarter of the batch was done, while holding a debate with finished turns; lease ${getConfig().debateLeaseMs / 1000} s (DEBATE_LEASE_SECONDS). lost_turns = turns finished before the kill that are missing or changed afterwards plus extra copies of a finished step; debates not completed are counted apart.`,
      );
    const lat = (p: "p50" | "p95") => (latency ? latency[p] : null);
    const watcherFields =
      browser || !wantLatency
        ? { cross_process_token_to_browser_ms_p50: lat("p50"), cross_process_token_to_browser_ms_p95: lat("p95") }
        : {
            cross_process_token_to_sse_client_ms_p50: lat("p50"),
            cross_process_token_to_sse_client_ms_p95: lat("p95"),
          };
    return {
      backend: "postgres",
      debates_per_minute_1_worker: base,
      speedup_2_workers: speedup(2),
      speedup_4_workers: speedup(4),
      ...watcherFields,
      lost_turns: kill ? kill.missing_turns + kill.duplicated_turns : null,
      parameters: {
        debates,
        workers: counts,
        debates_concurrency_per_worker: 1,
        preset: BENCH_PRESET,
        calls_per_debate: callsPerDebate,
        model_latency_ms_per_call: latencyMs,
        model_ms_per_token: perTokenMs,
        latency_watcher: latency ? latency.watcher : "none",
        latency_debates: latency ? latency.debates : 0,
        kill_phase: !!kill,
        lease_ms: getConfig().debateLeaseMs,
      },
      machine: { cpus: os.cpus().length, load_average_start: machineStart, load_average_end: loadavg() },
      runs,
      latency: latency ? { samples: latency.samples, debates: latency.debates } : null,
      kill,
      notes,
    };
  } finally {
    await Promise.all(pool.map((p) => stopProcess(p)));
    await queue.close();
  }
}

async function killPhase(
  h: DbHandle,
  queue: DebateQueue,
  /** `procs`: the two running workers; the one killed is removed from it. */
  ctx: {
    debates: number;
    discard: (ids: string[]) => Promise<void>;
    procs: Proc[];
    workerPorts: number[];
    log: (l: string) => void;
  },
): Promise<NonNullable<ScaleReport["kill"]>> {
  const { debates, log, procs } = ctx;
  const ids = await createBenchDebates(h.db, debates, { model: "openai:gpt-4o-mini", tag: "kill" });
  try {
    for (const id of ids) await queue.enqueue(id);
    // The victim: once a quarter of the batch is done (so there is finished work to lose), the first
    // worker seen holding a running debate that already has a finished turn.
    let victim: { index: number; debateId: string } | null = null;
    const until = performance.now() + 300_000;
    while (!victim && performance.now() < until) {
      const doneSoFar = (await debateStates(h.db, ids)).filter((d) => d.status === "completed").length;
      for (let i = 0; i < 2 && !victim && doneSoFar >= Math.floor(debates / 4); i++) {
        for (const id of await workerDebates(ctx.workerPorts[i]!)) {
          // Mid-debate: still running here (not just finished, its handler not yet returned), with a finished turn to lose.
          const [state] = await debateStates(h.db, [id]);
          const turns = await turnsOf(h.db, [id]);
          if (state?.status === "running" && turns.some((t) => t.status === "completed"))
            victim = { index: i, debateId: id };
        }
      }
      if (!victim) {
        const states = await debateStates(h.db, ids);
        if (states.every((d) => d.status === "completed"))
          throw new Error(
            "every debate finished before a worker could be killed mid-debate: raise --debates or --latency",
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    if (!victim) throw new Error("no worker was seen holding a debate with a finished turn within 300 s");
    const before = await turnsOf(h.db, ids);
    procs[victim.index]!.kill("SIGKILL");
    const killedAt = performance.now();
    await procs[victim.index]!.exited;
    const finishedBefore = before.filter((t) => t.status === "completed").length;
    log(
      `lost turns: SIGKILLed worker ${victim.index + 1} while it held debate ${victim.debateId} (${finishedBefore} turns finished across the batch); the other takes over after the ${getConfig().debateLeaseMs / 1000} s lease`,
    );
    let takeover: number | null = null;
    const deadline = performance.now() + 60_000 + getConfig().debateLeaseMs * 2 + debates * 15_000;
    let last = -1;
    for (;;) {
      const states = await debateStates(h.db, ids);
      const done = states.filter((d) => d.status === "completed").length;
      if (takeover === null && states.find((d) => d.id === victim.debateId)?.status === "completed")
        takeover = round((performance.now() - killedAt) / 1000, 2);
      if (done !== last) log(`lost turns: ${done}/${debates} completed`);
      last = done;
      if (
        done === ids.length ||
        performance.now() > deadline ||
        states.some((d) => d.status === "failed" || d.status === "cancelled")
      )
        break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const after = await turnsOf(h.db, ids);
    const states = await debateStates(h.db, ids);
    const completed = states.filter((d) => d.status === "completed").length;
    const { missing, duplicated } = compareTurns(before, after);
    return {
      debates,
      completed,
      debates_not_completed: debates - completed,
      turns_finished_before_kill: finishedBefore,
      missing_turns: missing,
      duplicated_turns: duplicated,
      killed_while_holding: victim.debateId,
      takeover_seconds: takeover,
    };
  } finally {
    await Promise.all(procs.map((p) => stopProcess(p)));
    await ctx.discard(ids);
  }
}

const fmt = (x: number | null | undefined, unit = "") =>
  x === null || x === undefined ? "not measured" : `${x}${unit}`;

/** The small table printed without --json. */
export function scaleMarkdown(r: ScaleReport): string {
  const sse = r.cross_process_token_to_sse_client_ms_p50 !== undefined;
  const p50 = sse ? r.cross_process_token_to_sse_client_ms_p50 : r.cross_process_token_to_browser_ms_p50;
  const p95 = sse ? r.cross_process_token_to_sse_client_ms_p95 : r.cross_process_token_to_browser_ms_p95;
  const name = sse ? "cross_process_token_to_sse_client_ms" : "cross_process_token_to_browser_ms";
  const cores = `${r.machine.cpus} CPU cores`;
  const load = (n: number) => {
    const run = r.runs.find((x) => x.workers === n);
    return run ? `${cores}, load ${run.load_average_1m_at_start}` : "";
  };
  const lines = [
    "| field | value | goal | machine (1-min load average at the start) |",
    "|---|---|---|---|",
    `| debates_per_minute_1_worker | ${fmt(r.debates_per_minute_1_worker)} | — | ${load(1)} |`,
    `| speedup_2_workers | ${fmt(r.speedup_2_workers, "x")} | ≥ 1.8x | ${load(2)} |`,
    `| speedup_4_workers | ${fmt(r.speedup_4_workers, "x")} | ≥ 3.2x | ${load(4)} |`,
    `| ${name}_p50 | ${fmt(p50, " ms")} | — | ${cores} |`,
    `| ${name}_p95 | ${fmt(p95, " ms")} | < 150 ms${sse ? " (to the browser)" : ""} | ${cores} |`,
    `| lost_turns | ${fmt(r.lost_turns)} | 0 | ${r.kill ? `${r.kill.completed}/${r.kill.debates} debates completed` : ""} |`,
    "",
    `machine: ${r.machine.cpus} CPU core(s), load average ${r.machine.load_average_start.join(" / ")} at start, ${r.machine.load_average_end.join(" / ")} at end (1 / 5 / 15 min)`,
    `runs: ${r.runs.map((x) => `${x.workers} worker(s) ${x.seconds} s = ${x.debates_per_minute} debates/min (load ${x.load_average_1m_at_start})`).join("; ")}`,
  ];
  if (r.kill)
    lines.push(
      `kill: ${r.kill.completed}/${r.kill.debates} debates completed, ${r.kill.turns_finished_before_kill} turns finished before the kill, ${r.kill.missing_turns} missing, ${r.kill.duplicated_turns} duplicated, killed debate completed ${fmt(r.kill.takeover_seconds, " s")} after the kill`,
    );
  return [...lines, "", ...r.notes].join("\n");
}

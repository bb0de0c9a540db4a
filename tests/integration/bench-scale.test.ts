import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import * as s from "@/db/schema";
import { runCli } from "../helpers/cli";
import { backend, freshCliEnv } from "./test-db";

/**
 * `bench scale` as a user runs it, with tiny parameters: on PostgreSQL 2 debates timed on 1 and 2
 * worker processes, then a worker SIGKILLed mid-debate (a 3 s lease, so the takeover is quick);
 * the debates are kept so this test reads them back itself. The token latency goes to an SSE client
 * on a production app server, which needs a build: without one the command must refuse and say to
 * build, and the rest is run with --no-token-latency. On PGlite the command refuses with why.
 * Numbers are printed, never asserted beyond being there and sane.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const built = fs.existsSync(path.join(ROOT, ".next", "BUILD_ID"));

type Report = {
  debates_per_minute_1_worker: number;
  speedup_2_workers: number;
  speedup_4_workers: number | null;
  cross_process_token_to_sse_client_ms_p50?: number | null;
  cross_process_token_to_sse_client_ms_p95?: number | null;
  cross_process_token_to_browser_ms_p50?: number | null;
  lost_turns: number;
  parameters: {
    debates: number;
    workers: number[];
    model_latency_ms_per_call: number;
    model_ms_per_token: number;
    lease_ms: number;
    calls_per_debate: number;
    latency_watcher: string;
  };
  machine: { cpus: number; load_average_start: number[] };
  runs: Array<{ workers: number; seconds: number; debates_per_minute: number }>;
  kill: {
    debates: number;
    completed: number;
    debates_not_completed: number;
    turns_finished_before_kill: number;
    missing_turns: number;
    duplicated_turns: number;
    killed_while_holding: string;
  };
};

describe(`bench scale on ${backend}`, () => {
  if (backend === "pglite") {
    it("refuses on the embedded database and says it needs PostgreSQL, how to give it, and why", async () => {
      const env = await freshCliEnv();
      const r = await runCli(["bench", "scale", "--json"], env);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/needs PostgreSQL: set DATABASE_URL \(or pass --database-url/);
      expect(r.stderr).toMatch(/PGlite\) is one process only/);
    });
    return;
  }

  it("times 1 and 2 worker processes, loses no turn when one is SIGKILLed, and every debate is completed in the database", {
    timeout: 240_000,
  }, async () => {
    const env: Record<string, string> = {
      ...(await freshCliEnv()),
      DEBATE_LEASE_SECONDS: "3",
      NEXT_TELEMETRY_DISABLED: "1",
    };
    const args = [
      "bench",
      "scale",
      "--debates",
      "2",
      "--workers",
      "1,2",
      "--call-ms",
      "20",
      "--token-ms",
      "1",
      "--latency-debates",
      "1",
      "--no-browser",
      "--keep-debates",
      "--json",
    ];
    if (!built) {
      // No production build: the latency part cannot run, and the command says so before starting anything.
      const refused = await runCli(args, env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/No production build .*Run `npm run build` first/);
      args.splice(args.indexOf("--no-browser"), 1, "--no-token-latency");
    }
    const r = await runCli(args, env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/throughput: 2 worker\(s\): 2 debates in/);
    const report = JSON.parse(r.stdout) as Report;

    expect(report.parameters).toMatchObject({
      debates: 2,
      workers: [1, 2],
      model_latency_ms_per_call: 20,
      model_ms_per_token: 1,
      lease_ms: 3000,
    });
    // RADAR expertise, one rebuttal round, no early stopping: 2 openings, 2 rebuttals, 2 closings, the judge.
    expect(report.parameters.calls_per_debate).toBe(7);
    expect(report.runs.map((x) => x.workers)).toEqual([1, 2]);
    for (const run of report.runs) expect(run.seconds).toBeGreaterThan(0);
    expect(report.debates_per_minute_1_worker).toBeGreaterThan(0);
    expect(report.speedup_2_workers).toBeGreaterThan(0);
    expect(report.speedup_4_workers).toBeNull();
    expect(report.machine.cpus).toBeGreaterThan(0);
    expect(report.machine.load_average_start).toHaveLength(3);

    expect(report.lost_turns).toBe(0);
    expect(report.kill).toMatchObject({
      debates: 2,
      completed: 2,
      debates_not_completed: 0,
      missing_turns: 0,
      duplicated_turns: 0,
    });
    expect(report.kill.turns_finished_before_kill).toBeGreaterThan(0);

    if (built) {
      expect(report.parameters.latency_watcher).toBe("sse-client");
      expect(report.cross_process_token_to_sse_client_ms_p50).toBeGreaterThanOrEqual(0);
      expect(report.cross_process_token_to_sse_client_ms_p95).toBeGreaterThanOrEqual(
        report.cross_process_token_to_sse_client_ms_p50!,
      );
      expect(report).not.toHaveProperty("cross_process_token_to_browser_ms_p50");
    } else {
      expect(report.parameters.latency_watcher).toBe("none");
    }

    // Read back independently: every debate the benchmark made is completed, each with the same
    // 7 finished turns, none twice; the killed one among them.
    const h = await openDatabase({ backend: "postgres", url: env.DATABASE_URL! }, { migrate: false });
    try {
      const debates = await h.db
        .select({ id: s.debates.id, status: s.debates.status })
        .from(s.debates)
        .innerJoin(s.claims, eq(s.claims.id, s.debates.claimId))
        .where(eq(s.claims.dataset, "bench-scale"));
      // Warm-ups (2 for 1 worker, 4 for 2), 2 timed per run, 2 in the kill phase, and the watched one.
      expect(debates.length).toBe(2 + 4 + 2 * 2 + 2 + (built ? 1 : 0));
      expect(debates.filter((d) => d.status !== "completed")).toEqual([]);
      expect(debates.map((d) => d.id)).toContain(report.kill.killed_while_holding);
      const turns = await h.db
        .select({
          debateId: s.turns.debateId,
          status: s.turns.status,
          round: s.turns.round,
          phase: s.turns.phase,
          role: s.turns.role,
        })
        .from(s.turns);
      for (const d of debates) {
        const done = turns.filter((t) => t.debateId === d.id && t.status === "completed");
        expect(done, `debate ${d.id}`).toHaveLength(7);
        expect(new Set(done.map((t) => `${t.round}/${t.phase}/${t.role}`)).size).toBe(7);
      }
    } finally {
      await h.close();
    }
  });
});

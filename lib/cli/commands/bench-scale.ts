import { InvalidArgumentError, Option, type Command } from "commander";
import { z } from "zod";
import { getDb } from "@/db/client";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { benchScale, SCALE_NEEDS_POSTGRES, scaleMarkdown } from "@/lib/bench/scale";
import { emit } from "../output";
import { positiveInt } from "./search";

const workerCounts = z
  .string()
  .transform((v) => v.split(",").map((x) => Number(x.trim())))
  .pipe(z.array(z.number().int().min(1).max(4)).min(1));

function workersList(v: string): number[] {
  const r = workerCounts.safeParse(v);
  if (!r.success)
    throw new InvalidArgumentError(`expected worker counts from 1 to 4 separated by commas (e.g. 1,2,4), got "${v}"`);
  return r.data;
}

function nonNegative(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a whole number >= 0");
  return n;
}

/** `bench scale`: added to the `bench` command. */
export function registerScale(bench: Command) {
  bench
    .command("scale")
    .description(
      "PostgreSQL only: debates per minute with 1, 2 and 4 worker processes, model-token-to-browser latency when a worker runs the debate and the browser is on another app server, and turns lost when a worker is SIGKILLed mid-run. Scripted model of fixed latency; takes a few minutes. Use a database no app server or worker is using: they would take the benchmark's debates.",
    )
    .option("--database-url <url>", "the PostgreSQL database to use (default DATABASE_URL)")
    .option("--debates <n>", "debates per timed batch (and in the kill phase)", positiveInt, 16)
    .addOption(
      new Option("--workers <counts>", "worker process counts to time, comma-separated, each 1 to 4")
        .argParser(workersList)
        .default([1, 2, 4], "1,2,4"),
    )
    .option("--call-ms <n>", "scripted model: time before the first token of every call", nonNegative, 200)
    .option("--token-ms <n>", "scripted model: time per token after the first", nonNegative, 3)
    .option("--latency-debates <n>", "debates watched for the token latency", positiveInt, 3)
    .option("--no-token-latency", "skip the token-to-watcher latency (needs no production build then)")
    .option(
      "--no-browser",
      "measure token latency to an SSE client instead of headless Chromium (fields ..._to_sse_client_ms_...)",
    )
    .option("--no-kill", "skip the SIGKILL / lost-turns phase")
    .option(
      "--keep-debates",
      "keep the benchmark's debates afterwards, to inspect them (the table is then not emptied between phases)",
    )
    .option(
      "--ports <first>",
      "first of 8 loopback ports used (app server, model server, worker health checks)",
      positiveInt,
      3320,
    )
    .option("--json", "print JSON")
    .action(
      async (opts: {
        databaseUrl?: string;
        debates: number;
        workers: number[];
        callMs: number;
        tokenMs: number;
        latencyDebates: number;
        tokenLatency: boolean;
        browser: boolean;
        kill: boolean;
        keepDebates?: boolean;
        ports: number;
        json?: boolean;
      }) => {
        if (opts.databaseUrl) {
          process.env.DATABASE_URL = opts.databaseUrl;
          resetConfigForTests();
        }
        // Before opening anything: on the embedded database there is nothing to measure.
        if (getConfig().database.backend !== "postgres") throw new Error(SCALE_NEEDS_POSTGRES);
        const handle = await getDb();
        const report = await benchScale(handle, {
          debates: opts.debates,
          workers: opts.workers,
          latencyMs: opts.callMs,
          perTokenMs: opts.tokenMs,
          latency: opts.tokenLatency,
          browser: opts.browser,
          latencyDebates: opts.latencyDebates,
          kill: opts.kill,
          keepDebates: opts.keepDebates,
          portBase: opts.ports,
          // Progress goes to stderr so --json stays parseable.
          log: (line) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${line}\n`),
        });
        emit(!!opts.json, report, () => scaleMarkdown(report));
      },
    );
}

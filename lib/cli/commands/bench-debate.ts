import os from "node:os";
import type { Command } from "commander";
import { getDb } from "@/db/client";
import { benchDebate, debateBenchMarkdown } from "@/lib/bench/debate";
import { benchInterventions, interventionBenchMarkdown } from "@/lib/bench/interventions";
import { benchProtocols, breakdownMarkdown, protocolsMarkdown } from "@/lib/bench/protocols";
import { benchTokenToBrowser } from "@/lib/bench/token-latency";
import { emit } from "../output";

/** The machine's load (1, 5 and 15 minute averages) and cores: CPU numbers mean little without them on a shared machine. */
function machine() {
  return { load_average: os.loadavg().map((x) => Math.round(x * 100) / 100), cpus: os.cpus().length };
}

/** `bench debate`: added to the `bench` command registered before it. */
export function register(program: Command) {
  const bench = program.commands.find((c) => c.name() === "bench");
  if (!bench) throw new Error("the bench command must be registered first");
  bench
    .command("debate")
    .description(
      "Debate cost per variant and per protocol preset, runner overhead with a breakdown by database statement, 20 concurrent debates and token-to-browser latency, with a scripted model of fixed latency.",
    )
    .option("--first-token-ms <n>", "scripted model's time to first token", "50")
    .option("--per-token-ms <n>", "scripted model's time per token", "2")
    .option("--runs <n>", "debates measured for the overhead", "10")
    .option("--protocol-runs <n>", "debates per protocol preset for the protocols table (default: --runs)")
    .option("--protocols-only", "only the protocols table and its statement breakdown (the runner's CPU per step)")
    .option("--concurrent <n>", "debates run at once", "20")
    .option("--no-browser", "skip the token-to-browser measurement (it builds and starts the production server)")
    .option(
      "--interventions-only",
      "only the interventions row (runner CPU per step with and without, intervention to next turn)",
    )
    .option("--json", "print JSON")
    .action(
      async (opts: {
        firstTokenMs: string;
        perTokenMs: string;
        runs: string;
        protocolRuns?: string;
        protocolsOnly?: boolean;
        interventionsOnly?: boolean;
        concurrent: string;
        browser: boolean;
        json?: boolean;
      }) => {
        const { db } = await getDb();
        const before = machine();
        // Progress goes to stderr so --json stays parseable.
        const log = (line: string) => process.stderr.write(`${line}\n`);
        const protocolRuns = opts.protocolRuns === undefined ? undefined : Number(opts.protocolRuns);
        if (opts.interventionsOnly) {
          const row = await benchInterventions(db, {
            runs: Number(opts.runs),
            firstTokenMs: Number(opts.firstTokenMs),
            perTokenMs: Number(opts.perTokenMs),
          });
          const report = { machine_before: before, machine_after: machine(), interventions: row };
          emit(!!opts.json, report, () =>
            [
              `load average before ${before.load_average.join(" ")}, after ${report.machine_after.load_average.join(" ")} (${before.cpus} cores)`,
              interventionBenchMarkdown(row),
            ].join("\n\n"),
          );
          return;
        }
        if (opts.protocolsOnly) {
          const { rows, breakdown } = await benchProtocols(db, {
            runs: protocolRuns ?? Number(opts.runs),
            firstTokenMs: Number(opts.firstTokenMs),
            perTokenMs: Number(opts.perTokenMs),
            log,
          });
          const report = {
            machine_before: before,
            machine_after: machine(),
            protocols: rows,
            overhead_breakdown: breakdown,
          };
          emit(!!opts.json, report, () =>
            [
              `load average before ${before.load_average.join(" ")}, after ${report.machine_after.load_average.join(" ")} (${before.cpus} cores)`,
              protocolsMarkdown(rows),
              breakdownMarkdown(breakdown),
            ].join("\n\n"),
          );
          return;
        }
        const report = await benchDebate(db, {
          firstTokenMs: Number(opts.firstTokenMs),
          perTokenMs: Number(opts.perTokenMs),
          overheadRuns: Number(opts.runs),
          concurrent: Number(opts.concurrent),
          protocolRuns,
          log,
        });
        Object.assign(report, { machine_before: before, machine_after: machine() });
        if (opts.browser) Object.assign(report, await benchTokenToBrowser());
        emit(!!opts.json, report, () => debateBenchMarkdown(report));
      },
    );
}

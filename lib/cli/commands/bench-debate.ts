import type { Command } from "commander";
import { getDb } from "@/db/client";
import { benchDebate, debateBenchMarkdown } from "@/lib/bench/debate";
import { benchTokenToBrowser } from "@/lib/bench/token-latency";
import { emit } from "../output";

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
    .option("--concurrent <n>", "debates run at once", "20")
    .option("--no-browser", "skip the token-to-browser measurement (it builds and starts the production server)")
    .option("--json", "print JSON")
    .action(
      async (opts: {
        firstTokenMs: string;
        perTokenMs: string;
        runs: string;
        protocolRuns?: string;
        concurrent: string;
        browser: boolean;
        json?: boolean;
      }) => {
        const { db } = await getDb();
        const report = await benchDebate(db, {
          firstTokenMs: Number(opts.firstTokenMs),
          perTokenMs: Number(opts.perTokenMs),
          overheadRuns: Number(opts.runs),
          concurrent: Number(opts.concurrent),
          protocolRuns: opts.protocolRuns === undefined ? undefined : Number(opts.protocolRuns),
          // Progress goes to stderr so --json stays parseable.
          log: (line) => process.stderr.write(`${line}\n`),
        });
        if (opts.browser) Object.assign(report, await benchTokenToBrowser());
        emit(!!opts.json, report, () => debateBenchMarkdown(report));
      },
    );
}

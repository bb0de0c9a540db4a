import type { Command } from "commander";
import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { liveBenchMarkdown, MS_PER_SENTENCE, runLiveBench } from "@/lib/bench/live";
import { dim, emit } from "../output";
import { positiveInt } from "./search";

/** `bench live`: added to the `bench` command registered before it. */
export function register(program: Command) {
  const bench = program.commands.find((c) => c.name() === "bench");
  if (!bench) throw new Error("the bench command must be registered first");
  bench
    .command("live")
    .description(
      "The live desk: a generated debate transcript replayed at 1x, 4x and as fast as possible over 15,000 stored checks, with a board connected; prints line-in to card-published and to-board p50/p95, sentences/s, cards/min and peak memory. Adds synthetic checks and bench sessions to the database: run it on a scratch one.",
    )
    .option("--sentences <n>", "sentences in the generated transcript", positiveInt, 1000)
    .option("--checks <n>", "stored checks to match against (synthetic ones are added up to it)", positiveInt, 15_000)
    .option("--paced-seconds <n>", "wall-clock seconds each paced run (1x, 4x) replays", positiveInt, 60)
    .option(
      "--hours <n>",
      "a long session instead: n hours of the transcript's speech (9,000 sentences an hour) replayed as fast as possible, memory printed as it goes",
      positiveInt,
    )
    .option("--json", "print JSON")
    .action(
      async (opts: { sentences: number; checks: number; pacedSeconds: number; hours?: number; json?: boolean }) => {
        const { db } = await getDb();
        const log = (line: string) => process.stderr.write(`${dim(line)}\n`);
        const r = await runLiveBench(
          { db, backend: getConfig().database.backend },
          {
            sentences: opts.hours ? Math.round((opts.hours * 3_600_000) / MS_PER_SENTENCE) : opts.sentences,
            maxOnly: !!opts.hours,
            storedChecks: opts.checks,
            pacedSeconds: opts.pacedSeconds,
            onProgress: log,
          },
        );
        emit(!!opts.json, r, () =>
          [
            liveBenchMarkdown(r),
            "",
            `${r.backend}, ${r.stored_checks} stored checks, peak memory ${r.peak_rss_mb} MB`,
            ...r.notes.map((n) => dim(n)),
          ].join("\n"),
        );
      },
    );
}

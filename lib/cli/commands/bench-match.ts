import type { Command } from "commander";
import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { matchBenchMarkdown, runMatchBench } from "@/lib/bench/match";
import { dim, emit } from "../output";
import { positiveInt } from "./search";

/** `bench match`: added to the `bench` command registered before it. */
export function register(program: Command) {
  const bench = program.commands.find((c) => c.name() === "bench");
  if (!bench) throw new Error("the bench command must be registered first");
  bench
    .command("match")
    .description(
      "Claim matching on CheckThat! Task 2A's format: MAP@1, MAP@5, recall@5/@20 and p95 latency per query for lexical, dense, hybrid and re-scored rankings. Imports the candidates first (a second run reuses them).",
    )
    .requiredOption("--queries <file>", "JSON Lines {id, text}")
    .requiredOption(
      "--candidates <file>",
      "the fact-checks, in any format `factchecks import` reads (CheckThat! JSONL: {id, title, claim, ...})",
    )
    .requiredOption("--qrels <file>", "query_id<TAB>candidate_id per line")
    .option("--limit <n>", "only the first n queries", positiveInt)
    .option(
      "--scale <n>",
      "pad the index with synthetic checks (mixed from the stored ones) to n stored checks first, for latency",
      positiveInt,
    )
    .option("--dump-features <file>", "write each query's candidates with the re-scorer's features (JSON Lines)")
    .option("--json", "print JSON")
    .action(
      async (opts: {
        queries: string;
        candidates: string;
        qrels: string;
        limit?: number;
        dumpFeatures?: string;
        json?: boolean;
      }) => {
        const { db } = await getDb();
        const log = (line: string) => process.stderr.write(`${dim(line)}\n`);
        const r = await runMatchBench({ db, backend: getConfig().database.backend }, { ...opts, onProgress: log });
        emit(!!opts.json, r, () =>
          [
            matchBenchMarkdown(r),
            "",
            `${r.backend}, ${r.model}, ${r.stored_checks} stored checks; query embedding ${r.query_embedding_ms_per_query} ms per query; ${r.skipped_queries} queries without a relevant candidate in the pool left out`,
            ...r.notes.map((n) => dim(n)),
          ].join("\n"),
        );
      },
    );
}

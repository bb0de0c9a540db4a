import { type Command, InvalidArgumentError } from "commander";
import { benchCheckworthy, checkworthyBenchText } from "@/lib/bench/checkworthy";
import { scorerFor, SCORER_NAMES, type ScorerName } from "@/lib/checkworthy";
import { LlmScorer } from "@/lib/checkworthy/llm";
import { emit, progressWriter } from "../output";
import { positiveInt } from "./search";

/** `bench checkworthy`: added to the `bench` command registered before it. The offline scorer needs no database and no network. */
export function register(program: Command) {
  const bench = program.commands.find((c) => c.name() === "bench");
  if (!bench) throw new Error("the bench command must be registered first");
  bench
    .command("checkworthy")
    .description(
      "Precision, recall and F1 of the positive class of a check-worthiness scorer on labelled sentences (JSON Lines {text, label} or the CheckThat! 2024 Task 1 .tsv files).",
    )
    .requiredOption("--data <file>", "labelled sentences")
    .option(
      "--scorer <name>",
      `${SCORER_NAMES.join(" | ")}`,
      (v: string) => {
        if (!(SCORER_NAMES as readonly string[]).includes(v))
          throw new InvalidArgumentError(`choose one of ${SCORER_NAMES.join(", ")}`);
        return v as ScorerName;
      },
      "offline" as ScorerName,
    )
    .option("--model <id>", "the language-model scorer's model (default: ROLE_MODELS checkworthy, else DEFAULT_MODEL)")
    .option("--limit <n>", "only the first n sentences", positiveInt)
    .option(
      "--latency <n>",
      "sentences scored one at a time for the per-sentence p50/p95 (default 100; 0 skips, e.g. for a paid model)",
      (v: string) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("give a whole number, 0 or more");
        return n;
      },
    )
    .option("--json", "print JSON")
    .action(
      async (opts: {
        data: string;
        scorer: ScorerName;
        model?: string;
        limit?: number;
        latency?: number;
        json?: boolean;
      }) => {
        const scorer = scorerFor(opts.scorer, { model: opts.model });
        const progress = progressWriter();
        const r = await benchCheckworthy(opts.data, scorer, {
          limit: opts.limit,
          latencySentences: opts.latency,
          model: scorer instanceof LlmScorer ? scorer.modelId : null,
          onProgress: (done, total) => progress.show(`${done}/${total} sentences`),
        });
        progress.end();
        emit(!!opts.json, r, () => checkworthyBenchText(r));
      },
    );
}

import type { Command } from "commander";
import { getDb } from "@/db/client";
import { getRun, saveModelThresholds } from "@/db/queries/eval";
import { calibrate, CALIBRATION_METRICS, loadScoresFile, type CalibrationMetric } from "@/lib/eval/calibrate";
import { scoresFromRun } from "@/lib/eval/run-scores";
import { bold, dim, emit, green } from "../output";
import { oneOf } from "./dataset";

const f = (x: number | null, d = 3) => (x === null ? "—" : x.toFixed(d));

export function register(program: Command) {
  program
    .command("calibrate")
    .description(
      "Grid-search the early-stopping thresholds (tau_s -1..1, tau_v 0..1, step 0.05) on cached checkpoint scores of a score-only run; calls no model.",
    )
    .option("--run <id>", "an evaluation run made with --early-stopping score-only")
    .option(
      "--scores <file>",
      "or a scores JSONL ({id, gold, final_verdict, checkpoints: [...]}; labels TRUE, HALF-TRUE, FALSE in any case; label and stop probabilities each summing to 1; one line per claim id)",
    )
    .option("--metric <m>", CALIBRATION_METRICS.join(" | "), oneOf(CALIBRATION_METRICS), "accuracy")
    .option("--save", "store the best pair in model_thresholds, used by later debates whose judge is --model")
    .option("--model <id>", "with --save: the judge model the thresholds are for (default: the run's judge model)")
    .option("--json", "print JSON: best and the whole grid")
    .action(
      async (opts: {
        run?: string;
        scores?: string;
        metric: CalibrationMetric;
        save?: boolean;
        model?: string;
        json?: boolean;
      }) => {
        if (!opts.run === !opts.scores) throw new Error("Give exactly one of --run <id> or --scores <file>.");
        const needsDb = !!opts.run || !!opts.save;
        const h = needsDb ? await getDb() : null;
        const claims = opts.run ? await scoresFromRun(h!.db, opts.run) : await loadScoresFile(opts.scores!);
        const result = calibrate(claims, { metric: opts.metric });
        let saved: { model: string; tau_s: number; tau_v: number } | null = null;
        if (opts.save) {
          const run = opts.run ? await getRun(h!.db, opts.run) : null;
          const model = opts.model ?? (run?.config as { models?: Record<string, string> } | undefined)?.models?.judge;
          if (!model) throw new Error("--save needs --model <judge model id> (the thresholds are per model).");
          const score = opts.metric === "accuracy" ? result.best.accuracy : result.best.macro_f1;
          await saveModelThresholds(h!.db, {
            model,
            tauS: result.best.tau_s,
            tauV: result.best.tau_v,
            metric: opts.metric,
            score,
            evalRunId: opts.run ?? null,
          });
          saved = { model, tau_s: result.best.tau_s, tau_v: result.best.tau_v };
        }
        emit(!!opts.json, { ...result, source: opts.run ? { run: opts.run } : { scores: opts.scores }, saved }, () => {
          const b = result.best;
          return [
            `${bold("best")} tau_s ${b.tau_s}, tau_v ${b.tau_v}: accuracy ${f(b.accuracy)}, macro-F1 ${f(b.macro_f1)}, ${f(b.avg_rounds, 2)} rounds and ${b.avg_tokens === null ? "—" : Math.round(b.avg_tokens)} tokens per claim on average`,
            dim(
              `${result.n} claims (${result.excluded} outside ${result.labels.join("/")} left out); ${result.grid.length} pairs; ties: ${result.tie_break}`,
            ),
            saved
              ? `${green("✔")} saved for ${saved.model}: later debates judged by it use these thresholds`
              : dim("Add --save --model <id> to use them for that judge model."),
          ].join("\n");
        });
      },
    );
}

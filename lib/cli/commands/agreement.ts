import type { Command } from "commander";
import { getDb } from "@/db/client";
import { agreementFor } from "@/lib/annotation/load";
import type { Estimate } from "@/lib/annotation/agreement";
import { bold, dim, emit } from "../output";

const fmt = (e: Estimate) =>
  e.value === null
    ? "n/a"
    : `${e.value.toFixed(3)}${e.ci ? dim(` [${e.ci.low.toFixed(3)}, ${e.ci.high.toFixed(3)}]`) : ""}`;

export function register(program: Command) {
  program
    .command("agreement")
    .description(
      "Inter-annotator agreement (Cohen per pair, Fleiss, Krippendorff alpha) and the judge against the annotators' majority.",
    )
    .option("--corpus <name>", "only debates over this corpus")
    .option("--run <id-or-name>", "only debates of this evaluation run")
    .option("--resamples <n>", "bootstrap resamples", (v) => Number.parseInt(v, 10), 1000)
    .option("--seed <n>", "bootstrap seed", (v) => Number.parseInt(v, 10), 1)
    .option("--json", "print JSON")
    .action(async (opts: { corpus?: string; run?: string; resamples: number; seed: number; json?: boolean }) => {
      const { db } = await getDb();
      const r = await agreementFor(
        db,
        { corpus: opts.corpus, run: opts.run },
        { resamples: opts.resamples, seed: opts.seed },
      );
      emit(!!opts.json, r, () => {
        const lines = [
          bold(`${r.items} annotated debates, ${r.annotations} labels`) +
            dim(` (95% percentile bootstrap, ${r.bootstrap.resamples} resamples, seed ${r.bootstrap.seed})`),
          `Fleiss' kappa          ${fmt(r.fleissKappa)}`,
          `Krippendorff's alpha   ${fmt(r.krippendorffAlpha)}`,
          `Judge vs majority      accuracy ${fmt(r.judge.accuracy)}, kappa ${fmt(r.judge.cohenKappa)} (n=${r.judge.n})`,
          "",
          bold("Pairs (Cohen's kappa)"),
          ...r.pairs.map(
            (p) =>
              `  ${p.a} × ${p.b}: ${fmt(p.cohenKappa)}, ${(p.percentAgreement * 100).toFixed(0)}% agree (n=${p.n})`,
          ),
          "",
          bold("Annotators"),
          ...r.annotators.map(
            (a) =>
              `  ${a.annotator}: ${a.count} labels, median ${a.medianSeconds ?? "?"} s, agrees with others' majority ${a.agreementWithOthers === null ? "n/a" : `${(a.agreementWithOthers * 100).toFixed(0)}%`} (n=${a.comparable})`,
          ),
          "",
          bold("Judge (rows) vs gold majority (columns)"),
          `  ${"".padEnd(10)}${r.labels.map((l) => l.padStart(10)).join("")}`,
          ...Object.entries(r.judge.confusion).map(
            ([j, row]) => `  ${j.padEnd(10)}${r.labels.map((l) => String(row[l] ?? 0).padStart(10)).join("")}`,
          ),
        ];
        return lines.join("\n");
      });
    });
}

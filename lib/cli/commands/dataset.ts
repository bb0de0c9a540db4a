import path from "node:path";
import { InvalidArgumentError, type Command } from "commander";
import { writeClaims } from "@/lib/datasets/claims";
import { CHECK_COVID_SPLITS, CHECK_COVID_SUBSETS, convertCheckCovid, type CheckCovidSplit, type CheckCovidSubset } from "@/lib/datasets/check-covid-claims";
import { convertPolitifactHidden } from "@/lib/datasets/politifact-hidden-claims";
import { emit, green } from "../output";
import { positiveInt } from "./search";

export const DATASETS = ["politifact-hidden", "check-covid"] as const;
export type DatasetName = (typeof DATASETS)[number];

export function datasetName(v: string): DatasetName {
  if (!(DATASETS as readonly string[]).includes(v)) throw new InvalidArgumentError(`expected one of ${DATASETS.join(", ")}`);
  return v as DatasetName;
}

export function oneOf<T extends string>(values: readonly T[]) {
  return (v: string): T => {
    if (!(values as readonly string[]).includes(v)) throw new InvalidArgumentError(`expected one of ${values.join(", ")}`);
    return v as T;
  };
}

export function register(program: Command) {
  const dataset = program.command("dataset").description("Work with benchmark datasets.");
  dataset
    .command("convert")
    .description("Convert a dataset's claims to the claims JSONL used by benchmarks and evaluation runs.")
    .requiredOption("--dataset <name>", DATASETS.join(" | "), datasetName)
    .requiredOption("--data <dir>", "the dataset folder (e.g. ../shared/datasets/politifact_hidden)")
    .requiredOption("--out <file>", "where to write the claims JSONL")
    .option("--split <split>", `Check-COVID split: ${CHECK_COVID_SPLITS.join(" | ")}`, oneOf(CHECK_COVID_SPLITS), "test")
    .option("--subset <subset>", `Check-COVID claims: ${CHECK_COVID_SUBSETS.join(" | ")}`, oneOf(CHECK_COVID_SUBSETS), "composed")
    .option("--complete-only", "PolitiFact-Hidden: only claims whose gold evidence text is complete")
    .option("--limit <n>", "at most n claims", positiveInt)
    .option("--json", "print JSON")
    .action(async (opts: { dataset: DatasetName; data: string; out: string; split: CheckCovidSplit; subset: CheckCovidSubset; completeOnly?: boolean; limit?: number; json?: boolean }) => {
      const claims =
        opts.dataset === "politifact-hidden"
          ? await convertPolitifactHidden(opts.data, { completeOnly: opts.completeOnly, limit: opts.limit })
          : await convertCheckCovid(opts.data, { split: opts.split, subset: opts.subset, limit: opts.limit });
      const out = path.resolve(opts.out);
      const n = await writeClaims(out, claims);
      const labels: Record<string, number> = {};
      for (const c of claims) labels[c.label ?? "(none)"] = (labels[c.label ?? "(none)"] ?? 0) + 1;
      emit(!!opts.json, { dataset: opts.dataset, out, claims: n, labels }, () => `${green("✔")} ${n} claims written to ${out} (${Object.entries(labels).map(([l, c]) => `${l} ${c}`).join(", ")})`);
    });
}

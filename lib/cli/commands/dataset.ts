import path from "node:path";
import { InvalidArgumentError, type Command } from "commander";
import { writeClaims } from "@/lib/datasets/claims";
import type { ClaimRecord } from "@/lib/datasets/claims";
import { CHECK_COVID_SPLITS, CHECK_COVID_SUBSETS } from "@/lib/datasets/check-covid-claims";
import { POLITIFACT_NEWS_SOURCES } from "@/lib/datasets/politifact-news";
import { FAVIQ_SETS } from "@/lib/datasets/faviq-claims";
import { CLAIM_DATASETS, convertDataset, type ClaimDatasetName, type ConvertOptions } from "@/lib/datasets/convert";
import { selectClaims } from "@/lib/eval/sample";
import { emit, green } from "../output";
import { positiveInt } from "./search";

export const DATASETS = ["politifact-hidden", "check-covid"] as const;
export { CLAIM_DATASETS, convertDataset, type ClaimDatasetName, type ConvertOptions } from "@/lib/datasets/convert";
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
    .requiredOption("--dataset <name>", CLAIM_DATASETS.join(" | "), oneOf(CLAIM_DATASETS))
    .requiredOption("--data <dir>", "the dataset folder (e.g. ../shared/datasets/politifact_hidden)")
    .requiredOption("--out <file>", "where to write the claims JSONL")
    .option("--split <split>", `Check-COVID split: ${CHECK_COVID_SPLITS.join(" | ")}`, oneOf(CHECK_COVID_SPLITS), "test")
    .option("--subset <subset>", `Check-COVID claims: ${CHECK_COVID_SUBSETS.join(" | ")}`, oneOf(CHECK_COVID_SUBSETS), "composed")
    .option("--labels <scheme>", "Check-COVID (default native): native | radar (SUPPORT→TRUE, REFUTE→FALSE, NEI kept native); AVeriTeC (default radar): radar | native (the 4 labels, for Tool-MAD); proclaim-* (default PROClaim's SUPPORTED / NOT SUPPORTED): radar (TRUE / FALSE) | native (SUPPORT / REFUTE)", oneOf(["native", "radar"] as const))
    .option("--faviq-set <set>", `FaVIQ: ${FAVIQ_SETS.join(" | ")} (the A or R set's dev.jsonl)`, oneOf(FAVIQ_SETS), "a")
    .option("--sample <n>", "write n claims drawn at random with --seed (recorded in each claim's metadata)", positiveInt)
    .option("--seed <s>", "seed for --sample", positiveInt, 1)
    .option("--nei <what>", "AVeriTeC Not Enough Evidence: exclude (3-way) | keep (reported separately)", oneOf(["exclude", "keep"] as const), "exclude")
    .option("--source <name>", `politifact-news articles: ${POLITIFACT_NEWS_SOURCES.join(" | ")} (PolitiFact++ human-written, ZoFia's benchmark; or FakeNewsNet v1 with dates)`, oneOf(POLITIFACT_NEWS_SOURCES), "politifact-pp")
    .option("--complete-only", "PolitiFact-Hidden: only claims whose gold evidence text is complete")
    .option("--limit <n>", "at most n claims", positiveInt)
    .option("--json", "print JSON")
    .action(async (opts: { dataset: ClaimDatasetName; data: string; out: string; json?: boolean; sample?: number; seed: number } & ConvertOptions) => {
      const all = await convertDataset(opts.dataset, opts.data, opts);
      const claims = sampleClaims(all, opts.sample, opts.seed);
      const out = path.resolve(opts.out);
      const n = await writeClaims(out, claims);
      const labels = labelCounts(claims);
      const sample = opts.sample === undefined ? null : { n: claims.length, of: all.length, seed: opts.seed, method: "random" };
      emit(!!opts.json, { dataset: opts.dataset, out, claims: n, labels, sample }, () =>
        `${green("✔")} ${n} claims written to ${out} (${Object.entries(labels).map(([l, c]) => `${l} ${c}`).join(", ")})${sample ? `; a random sample of ${sample.n} of ${sample.of} with seed ${sample.seed}` : ""}`,
      );
    });
}

export function labelCounts(claims: readonly ClaimRecord[]): Record<string, number> {
  const labels: Record<string, number> = {};
  for (const c of claims) labels[c.label ?? "(none)"] = (labels[c.label ?? "(none)"] ?? 0) + 1;
  return labels;
}

/**
 * `n` claims drawn with the seeded shuffle evaluation runs use (lib/eval/sample.ts), so the same
 * file, n and seed give the same claims here and in `eval --sample random --limit n --seed s`. The
 * draw is written into each claim's metadata, so a claims file says how it was made.
 */
export function sampleClaims(claims: readonly ClaimRecord[], n: number | undefined, seed: number): ClaimRecord[] {
  if (n === undefined) return [...claims];
  if (n > claims.length) throw new Error(`--sample ${n}: the dataset has only ${claims.length} claims`);
  return selectClaims(claims, { sample: "random", limit: n, seed }).map((c) => ({ ...c, metadata: { ...(c.metadata ?? {}), sample: { method: "random", n, of: claims.length, seed } } }));
}

import path from "node:path";
import { InvalidArgumentError, type Command } from "commander";
import { writeClaims } from "@/lib/datasets/claims";
import type { ClaimRecord } from "@/lib/datasets/claims";
import { CHECK_COVID_SPLITS, CHECK_COVID_SUBSETS } from "@/lib/datasets/check-covid-claims";
import { POLITIFACT_NEWS_SOURCES } from "@/lib/datasets/politifact-news";
import { FAVIQ_SETS } from "@/lib/datasets/faviq-claims";
import { CLAIM_DATASETS, convertDataset, type ClaimDatasetName, type ConvertOptions } from "@/lib/datasets/convert";
import { selectClaims } from "@/lib/eval/sample";
import { validateClaimsFile, validationText, VALIDATE_SCHEMES } from "@/lib/datasets/validate";
import { readLabelMap } from "@/lib/datasets/label-map";
import { downloadDataset, installedDataFor, installFrom, listDatasets, type Progress } from "@/lib/datasets/download";
import { CATALOGUE } from "@/lib/datasets/catalogue";
import { dim, emit, green, yellow } from "../output";
import { positiveInt } from "./search";

export const DATASETS = ["politifact-hidden", "check-covid"] as const;
export { CLAIM_DATASETS, convertDataset, type ClaimDatasetName, type ConvertOptions } from "@/lib/datasets/convert";
export type DatasetName = (typeof DATASETS)[number];

export function datasetName(v: string): DatasetName {
  if (!(DATASETS as readonly string[]).includes(v))
    throw new InvalidArgumentError(`expected one of ${DATASETS.join(", ")}`);
  return v as DatasetName;
}

export function oneOf<T extends string>(values: readonly T[]) {
  return (v: string): T => {
    if (!(values as readonly string[]).includes(v))
      throw new InvalidArgumentError(`expected one of ${values.join(", ")}`);
    return v as T;
  };
}

export function register(program: Command) {
  const dataset = program.command("dataset").description("Work with benchmark datasets.");
  dataset
    .command("convert")
    .description("Convert a dataset's claims to the claims JSONL used by benchmarks and evaluation runs.")
    .requiredOption("--dataset <name>", CLAIM_DATASETS.join(" | "), oneOf(CLAIM_DATASETS))
    .option("--data <dir>", "the dataset folder or file (default: the installed copy, see `dataset download`)")
    .requiredOption("--out <file>", "where to write the claims JSONL")
    .option(
      "--split <split>",
      `Check-COVID split: ${CHECK_COVID_SPLITS.join(" | ")}`,
      oneOf(CHECK_COVID_SPLITS),
      "test",
    )
    .option(
      "--subset <subset>",
      `Check-COVID claims: ${CHECK_COVID_SUBSETS.join(" | ")}`,
      oneOf(CHECK_COVID_SUBSETS),
      "composed",
    )
    .option(
      "--labels <scheme>",
      "Check-COVID (default native): native | radar (SUPPORT→TRUE, REFUTE→FALSE, NEI kept native); AVeriTeC (default radar): radar | native (the 4 labels, for Tool-MAD); proclaim-* (default PROClaim's SUPPORTED / NOT SUPPORTED): radar (TRUE / FALSE) | native (SUPPORT / REFUTE)",
      oneOf(["native", "radar"] as const),
    )
    .option(
      "--faviq-set <set>",
      `FaVIQ: ${FAVIQ_SETS.join(" | ")} (the A or R set's dev.jsonl)`,
      oneOf(FAVIQ_SETS),
      "a",
    )
    .option(
      "--sample <n>",
      "write n claims drawn at random with --seed (recorded in each claim's metadata)",
      positiveInt,
    )
    .option("--seed <s>", "seed for --sample", positiveInt, 1)
    .option(
      "--nei <what>",
      "AVeriTeC Not Enough Evidence: exclude (3-way) | keep (reported separately)",
      oneOf(["exclude", "keep"] as const),
      "exclude",
    )
    .option(
      "--source <name>",
      `politifact-news articles: ${POLITIFACT_NEWS_SOURCES.join(" | ")} (PolitiFact++ human-written, ZoFia's benchmark; or FakeNewsNet v1 with dates)`,
      oneOf(POLITIFACT_NEWS_SOURCES),
      "politifact-pp",
    )
    .option("--complete-only", "PolitiFact-Hidden: only claims whose gold evidence text is complete")
    .option("--limit <n>", "at most n claims", positiveInt)
    .option("--json", "print JSON")
    .action(
      async (
        opts: {
          dataset: ClaimDatasetName;
          data?: string;
          out: string;
          json?: boolean;
          sample?: number;
          seed: number;
        } & ConvertOptions,
      ) => {
        const all = await convertDataset(opts.dataset, opts.data ?? installedDataFor(opts.dataset), {
          ...opts,
          onNote: (n) => process.stderr.write(`${yellow(n)}\n`),
        });
        const claims = sampleClaims(all, opts.sample, opts.seed);
        const out = path.resolve(opts.out);
        const n = await writeClaims(out, claims);
        const labels = labelCounts(claims);
        const sample =
          opts.sample === undefined ? null : { n: claims.length, of: all.length, seed: opts.seed, method: "random" };
        emit(
          !!opts.json,
          { dataset: opts.dataset, out, claims: n, labels, sample },
          () =>
            `${green("✔")} ${n} claims written to ${out} (${Object.entries(labels)
              .map(([l, c]) => `${l} ${c}`)
              .join(
                ", ",
              )})${sample ? `; a random sample of ${sample.n} of ${sample.of} with seed ${sample.seed}` : ""}`,
        );
      },
    );
  registerValidate(dataset);
  registerDownload(dataset);
}

/** A progress line per file on stderr: redrawn in place on a terminal, every quarter otherwise. */
function progressPrinter() {
  const tty = !!process.stderr.isTTY;
  const shown = new Map<string, number>();
  return (p: Progress) => {
    const pct = Math.floor((p.received / p.total) * 100);
    if (tty) {
      process.stderr.write(`\r${p.file}: ${pct}% of ${(p.total / 1024 ** 2).toFixed(1)} MB${pct === 100 ? "\n" : ""}`);
      return;
    }
    const step = Math.floor(pct / 25) * 25;
    if ((shown.get(p.file) ?? -1) >= step) return;
    shown.set(p.file, step);
    process.stderr.write(`${dim(`${p.file}: ${step}% of ${p.total.toLocaleString("en")} bytes`)}\n`);
  };
}

function registerDownload(dataset: Command) {
  const names = CATALOGUE.map((e) => e.name);
  dataset
    .command("download")
    .description(
      "Install a dataset the presets and benchmarks use under DATA_DIR/datasets/<name>: fetched from its public source (an interrupted transfer continues where it stopped), every file checked against its SHA-256 in the catalogue; a file that does not match is not installed.",
    )
    .argument("<name>", names.join(" | "), oneOf(names))
    .option(
      "--from <path>",
      "install a copy you already have (a folder or a file) after the same checks, without network",
    )
    .option("--json", "print JSON")
    .action(async (name: string, opts: { from?: string; json?: boolean }) => {
      const done = opts.from
        ? await installFrom(name, opts.from)
        : await downloadDataset(name, { onProgress: progressPrinter() });
      emit(
        !!opts.json,
        done,
        () => `${green("✔")} ${name} installed in ${done.dir} (${done.files.length} files, checksums verified)`,
      );
    });
  dataset
    .command("list")
    .description("The datasets the presets and benchmarks use: installed or not, where, and what each is for.")
    .option("--json", "print JSON")
    .action((opts: { json?: boolean }) => {
      const rows = listDatasets();
      emit(!!opts.json, rows, () =>
        rows
          .map((r) =>
            [
              `${r.installed ? green("✔") : "·"} ${r.name}: ${r.title}`,
              `    for: ${r.purpose}`,
              `    licence: ${r.licence}`,
              `    download: ${r.download === "direct" ? "the files as published, checksums verified" : r.download === "built" ? "some files are built from their sources (each checked), then checked as a whole" : "no direct file: the command prints the steps"}`,
              `    ${r.installed ? `installed in ${r.installed.dir}` : r.download === "manual" ? `not installed; see: npx counterpoint dataset download ${r.name}` : `not installed (${(r.bytes / 1024 ** 2).toFixed(1)} MB): npx counterpoint dataset download ${r.name}`}`,
            ].join("\n"),
          )
          .join("\n"),
      );
    });
}

function registerValidate(dataset: Command) {
  dataset
    .command("validate")
    .description(
      "Check a claims JSONL file without starting a run: rows, labels and how the chosen scheme reads each, refused lines, duplicate ids and contradictory gold, with line numbers. Exits 1 when any claim could not be read or scored.",
    )
    .argument("<file>", "the claims JSONL")
    .option(
      "--scheme <name>",
      `${VALIDATE_SCHEMES.join(" | ")} (product: TRUE / HALF-TRUE / FALSE; the others are the methods' label schemes)`,
      oneOf(VALIDATE_SCHEMES),
      "product",
    )
    .option(
      "--label-map <file>",
      'a JSON object mapping the file\'s labels to the scheme\'s, e.g. {"Mostly Accurate":"TRUE"}',
    )
    .option("--json", "print JSON")
    .action(
      async (file: string, opts: { scheme: (typeof VALIDATE_SCHEMES)[number]; labelMap?: string; json?: boolean }) => {
        const report = await validateClaimsFile(file, {
          scheme: opts.scheme,
          labelMap: opts.labelMap ? readLabelMap(opts.labelMap) : undefined,
        });
        emit(!!opts.json, report, () => validationText(report));
        if (!report.ok) process.exitCode = 1;
      },
    );
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
  return selectClaims(claims, { sample: "random", limit: n, seed }).map((c) => ({
    ...c,
    metadata: { ...(c.metadata ?? {}), sample: { method: "random", n, of: claims.length, seed } },
  }));
}

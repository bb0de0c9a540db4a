import { installedDataFor } from "@/lib/datasets/download";
import { Command, InvalidArgumentError } from "commander";
import cliProgress from "cli-progress";
import { getDb } from "@/db/client";
import { listCorpora } from "@/db/queries/corpus";
import {
  ingestDataset,
  ingestSample,
  ingestSource,
  IngestError,
  resumeIngestJob,
  type RunOptions,
} from "@/lib/corpus/ingest";
import { DATASET_IMPORTERS } from "@/lib/corpus/reopen";
import { SAMPLE_CLAIMS } from "@/lib/corpus/sample";
import type { IngestProgress, IngestSummary } from "@/lib/corpus/types";
import { dim, emit, green, red, yellow } from "../output";

type Opts = {
  corpus?: string;
  sample?: boolean;
  dataset?: string;
  data?: string;
  strict?: boolean;
  chunkSize?: number;
  overlap?: number;
  batchSize?: number;
  resume?: string;
  json?: boolean;
};

const int = (name: string) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a whole number`);
  return n;
};

function bytes(n: number) {
  return n >= 1024 ** 3
    ? `${(n / 1024 ** 3).toFixed(2)} GB`
    : n >= 1024 ** 2
      ? `${(n / 1024 ** 2).toFixed(1)} MB`
      : `${Math.round(n / 1024)} kB`;
}

/** A bar on a terminal; nothing otherwise, so logs and pipes stay clean. */
function progressReporter(enabled: boolean) {
  if (!enabled || !process.stderr.isTTY) return { update: (_p: IngestProgress) => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    {
      format: "{bar} {percentage}% | {done} | {docs} docs, {passages} passages, {errors} errors | {rate} passages/s",
      stream: process.stderr,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p: IngestProgress) {
      const total = p.bytesTotal ?? 0;
      const payload = {
        done: total ? `${bytes(p.bytesDone)} of ${bytes(total)}` : `${p.recordsDone} records`,
        docs: p.docsAdded + p.docsUpdated + p.docsUnchanged,
        passages: p.passagesAdded,
        errors: p.errors,
        rate: p.passagesPerSecond ?? 0,
      };
      if (!started) {
        bar.start(total || 1, 0, payload);
        started = true;
      }
      bar.update(total ? p.bytesDone : 0, payload);
    },
    stop: () => started && bar.stop(),
  };
}

function human(s: IngestSummary): string {
  const head =
    s.status === "completed"
      ? green(`✔ Ingested ${s.source}`)
      : s.status === "cancelled"
        ? yellow(`Cancelled ${s.source}; committed batches were kept`)
        : red(`✗ ${s.status}: ${s.source}`);
  const lines = [
    `${head} ${dim(`(job ${s.jobId}, ${s.seconds} s${s.passagesPerSecond ? `, ${s.passagesPerSecond} passages/s` : ""})`)}`,
    `  documents: ${s.docsAdded} added, ${s.docsUpdated} updated, ${s.docsUnchanged} unchanged, ${s.docsSkippedEmpty} empty (skipped)`,
    `  passages:  ${s.passagesAdded} added, ${s.passagesRemoved} removed`,
    `  errors:    ${s.errors}`,
  ];
  for (const e of s.recentErrors) lines.push(`    ${yellow("-")} ${e.message}`);
  if (s.errors > s.recentErrors.length)
    lines.push(dim(`    (${s.errors - s.recentErrors.length} earlier errors not shown)`));
  if (s.status === "cancelled" || (s.status === "failed" && s.resumable !== false))
    lines.push(dim(`  Resume with: npx counterpoint ingest --resume ${s.jobId}`));
  return lines.join("\n");
}

async function run(source: string | undefined, opts: Opts) {
  const modes = [!!source, !!opts.sample, !!opts.dataset, !!opts.resume].filter(Boolean).length;
  if (modes !== 1)
    throw new Error(
      "name exactly one of: a file, folder or URL; --sample; --dataset <name> --data <dir>; --resume <jobId>",
    );
  const handle = await getDb();
  const bar = progressReporter(!opts.json);
  const controller = new AbortController();
  // Ctrl-C ends the run cleanly: the batch in flight is dropped, the job says cancelled.
  const onSigint = () => controller.abort();
  process.once("SIGINT", onSigint);
  const common: Omit<RunOptions, "corpus"> = {
    strict: opts.strict,
    batchSize: opts.batchSize,
    chunking:
      opts.chunkSize !== undefined || opts.overlap !== undefined
        ? { maxChars: opts.chunkSize, overlapSentences: opts.overlap }
        : undefined,
    signal: controller.signal,
    onProgress: (p) => bar.update(p),
  };
  let summary: IngestSummary;
  try {
    if (opts.resume) {
      summary = await resumeIngestJob(handle.db, opts.resume, {
        signal: controller.signal,
        onProgress: (p) => bar.update(p),
      });
    } else if (opts.sample) {
      summary = await ingestSample(handle.db, { ...common, corpus: opts.corpus });
    } else if (opts.dataset) {
      // Without --data, the installed copy (`dataset download`); its error says how to install it.
      summary = await ingestDataset(handle.db, opts.dataset, opts.data ?? installedDataFor(opts.dataset), {
        ...common,
        corpus: opts.corpus,
      });
    } else {
      if (!opts.corpus) throw new Error("name the corpus to ingest into: --corpus <name>");
      summary = await ingestSource(handle.db, source!, { ...common, corpus: opts.corpus });
    }
  } catch (e) {
    bar.stop();
    if (e instanceof IngestError && e.summary && opts.json) {
      emit(true, { ...e.summary, error: e.message }, () => "");
    }
    throw e;
  } finally {
    process.off("SIGINT", onSigint);
  }
  bar.stop();
  emit(!!opts.json, summary, () => {
    let text = human(summary);
    if (opts.sample && summary.status === "completed") {
      text += `\n\nTry one of the claims it was written for:\n${SAMPLE_CLAIMS.map((c) => `  - ${c.text} ${dim(`(${c.label})`)}`).join("\n")}`;
    }
    return text;
  });
  if (summary.status !== "completed") process.exitCode = 1;
}

async function runReembed(opts: { corpus: string; model?: string; batchSize?: number; json?: boolean }) {
  const { reembedCorpus } = await import("@/lib/corpus/reembed");
  const handle = await getDb();
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once("SIGINT", onSigint);
  const tty = !opts.json && process.stderr.isTTY;
  const bar = tty
    ? new cliProgress.SingleBar(
        {
          format: "{bar} {percentage}% | {value}/{total} passages | {rate} passages/s",
          stream: process.stderr,
          hideCursor: true,
        },
        cliProgress.Presets.shades_classic,
      )
    : null;
  let started = false;
  let summary: IngestSummary;
  try {
    summary = await reembedCorpus(handle.db, opts.corpus, {
      model: opts.model,
      batchSize: opts.batchSize,
      signal: controller.signal,
      onProgress: (p) => {
        if (!bar) return;
        if (!started) bar.start(p.bytesTotal || 1, p.bytesDone, { rate: 0 });
        started = true;
        bar.update(p.bytesDone, { rate: p.passagesPerSecond ?? 0 });
      },
    });
  } catch (e) {
    if (started) bar?.stop();
    if (e instanceof IngestError && e.summary && opts.json) emit(true, { ...e.summary, error: e.message }, () => "");
    throw e;
  } finally {
    process.off("SIGINT", onSigint);
  }
  if (started) bar?.stop();
  emit(!!opts.json, summary, () => {
    const head =
      summary.status === "completed"
        ? green(`✔ Corpus ${opts.corpus} now searches with ${summary.source}`)
        : summary.status === "cancelled"
          ? yellow(
              `Cancelled; committed batches were kept. Continue with: npx counterpoint ingest --resume ${summary.jobId}`,
            )
          : red(`✗ ${summary.status}`);
    return `${head} ${dim(`(job ${summary.jobId}, ${summary.recordsDone} passages embedded, ${summary.seconds} s${summary.passagesPerSecond ? `, ${summary.passagesPerSecond} passages/s` : ""})`)}`;
  });
  if (summary.status !== "completed") process.exitCode = 1;
}

export function register(program: Command) {
  program
    .command("ingest")
    .description("Add documents to a corpus from a file, a folder, a URL, the demo corpus or a benchmark dataset.")
    .argument("[source]", "a .jsonl, .csv, .md, .txt, .html or .pdf file, a folder of them, or an http(s) URL")
    .option("--corpus <name>", "the corpus to add to (created if missing)")
    .option("--sample", "load the demo corpus (fictional news items) and its example claims")
    .option("--dataset <name>", `import a benchmark corpus: ${DATASET_IMPORTERS.join(", ")}`)
    .option(
      "--data <dir>",
      "the folder holding the dataset's files (with --dataset; default: the installed copy, see `dataset download`)",
    )
    .option("--strict", "stop at the first bad record instead of reporting it and going on")
    .option("--chunk-size <chars>", "largest passage, in characters (default 800)", int("--chunk-size"))
    .option(
      "--overlap <sentences>",
      "sentences repeated at the start of the next passage (default 1)",
      int("--overlap"),
    )
    .option(
      "--batch-size <docs>",
      "documents per transaction (default 256; a batch also closes at 512 passages)",
      int("--batch-size"),
    )
    .option("--resume <jobId>", "continue a stopped job from its last committed batch")
    .option("--json", "print the summary as JSON")
    .action(run);

  program
    .command("corpus")
    .description("Corpora in the database.")
    .addCommand(
      new Command("list")
        .description("Name, documents, passages and embedding model of every corpus.")
        .option("--json", "print JSON")
        .action(async (opts: { json?: boolean }) => {
          const handle = await getDb();
          const corpora = await listCorpora(handle.db);
          emit(!!opts.json, corpora, () =>
            corpora.length === 0
              ? "No corpus yet. Load the demo with: npx counterpoint ingest --sample"
              : corpora
                  .map((c) => {
                    const others = c.vectorModels
                      .filter((m) => m.model !== c.embeddingModel)
                      .map(
                        (m) => `${m.model} ${m.passages === c.passages ? "complete" : `${m.passages}/${c.passages}`}`,
                      );
                    return `${c.name}: ${c.documents} documents, ${c.passages} passages, ${c.embeddingModel}${others.length ? dim(` (also vectors of ${others.join(", ")})`) : ""}${c.description ? dim(` — ${c.description}`) : ""}`;
                  })
                  .join("\n"),
          );
        }),
    )
    .addCommand(
      new Command("reembed")
        .description(
          "Give every passage of a corpus a vector of another embedding model, then search the corpus with it. " +
            "Resumable: run it again, or ingest --resume <job>, after a stop; passages that have the vector are skipped.",
        )
        .requiredOption("--corpus <name>", "the corpus to re-embed")
        .option("--model <id>", "the embedding model, e.g. local:minilm-l6 (default: EMBEDDING_MODEL)")
        .option("--batch-size <n>", "passages per committed batch", int("--batch-size"))
        .option("--json", "print the summary as JSON")
        .action(runReembed),
    );
}

import { type Command } from "commander";
import { getDb } from "@/db/client";
import { benchEval } from "@/lib/bench/eval";
import { registerScale } from "./bench-scale";
import { benchCompare, compareBenchMarkdown } from "@/lib/bench/compare";
import { runRetrievalBench, retrievalMarkdown, type RetrievalBenchReport } from "@/lib/bench/retrieval";
import { latencyMarkdown, runSearchLatencyBench, type LatencyBenchReport } from "@/lib/bench/search-latency";
import { BENCH_ENGINES, benchOneEngine, embedBenchMarkdown, runEmbedBench } from "@/lib/bench/embed";
import {
  CHECK_COVID_SPLITS,
  CHECK_COVID_SUBSETS,
  type CheckCovidSplit,
  type CheckCovidSubset,
} from "@/lib/datasets/check-covid-claims";
import { LEXICAL_RANKINGS, SEARCH_MODES, type LexicalRanking, type SearchMode } from "@/lib/retrieval/search";
import { dim, emit } from "../output";
import { datasetName, oneOf, type DatasetName } from "./dataset";
import { installedDataFor } from "@/lib/datasets/download";
import { positiveInt } from "./search";

function ingestionLine(i: RetrievalBenchReport["ingestion"]) {
  return i.reused
    ? "corpus reused (already ingested)"
    : `ingested ${i.passages_added} passages in ${i.seconds} s (${i.passages_per_second} passages/s)`;
}

function latencyHuman(r: LatencyBenchReport, backend: string) {
  return [
    latencyMarkdown(r, backend),
    "",
    `hybrid p95 speed-up of HNSW over exact scan: ${r.speedup_p95}x; HNSW dense recall@${r.k} vs exact: ${r.hnsw_recall_at_k}`,
    r.ingestion.reused
      ? "corpus reused (already loaded)"
      : `loaded ${r.ingestion.passages_added} passages with vectors in ${r.ingestion.seconds} s: ${r.ingestion.passages_per_second} passages/s`,
    ...r.notes.map((n) => dim(n)),
  ].join("\n");
}

export function register(program: Command) {
  const bench = program.command("bench").description("Benchmarks: numbers, printed; nothing is asserted.");
  const log = (json: boolean) => (line: string) => (json ? process.stderr : process.stdout).write(`${dim(line)}\n`);

  bench
    .command("retrieval")
    .description(
      "Recall@5/10/20, MRR, nDCG@20 and latency of dense, lexical and hybrid search on a dataset (ingests its corpus first if needed); or, with --scale, search latency on synthetic passages.",
    )
    .option("--dataset <name>", "politifact-hidden | check-covid", datasetName)
    .option("--data <dir>", "the dataset folder (default: the installed copy, see `dataset download`)")
    .option("--k <n>", "results per query", positiveInt, 20)
    .option("--limit <n>", "only the first n claims of each claim set", positiveInt)
    .option("--corpus <name>", "corpus to ingest into and search (default bench-<dataset>)")
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
    .option("--mode <mode...>", `retrievers to run (${SEARCH_MODES.join(", ")})`)
    .option("--candidates <n>", "hybrid: candidates per retriever before fusion", positiveInt)
    .option("--rrf-k <n>", "hybrid: the RRF constant", positiveInt)
    .option("--mmr", "diversify results with MMR")
    .option("--lexical <ranking>", `lexical ranking: ${LEXICAL_RANKINGS.join(" | ")}`, oneOf(LEXICAL_RANKINGS))
    .option("--dense-weight <w>", "hybrid: weight of the dense list in RRF (lexical is 1)", Number)
    .option("--bm25-b <b>", "BM25 length normalisation, 0..1", Number)
    .option("--match-budget <n>", "BM25: passages the candidate stems may match", positiveInt)
    .option("--scale <passages>", "instead of a dataset: search latency over this many synthetic passages", positiveInt)
    .option("--queries <n>", "with --scale: number of timed queries", positiveInt, 200)
    .option("--json", "print JSON")
    .action(
      async (opts: {
        dataset?: DatasetName;
        data?: string;
        k: number;
        limit?: number;
        corpus?: string;
        split: CheckCovidSplit;
        subset: CheckCovidSubset;
        mode?: string[];
        candidates?: number;
        rrfK?: number;
        mmr?: boolean;
        lexical?: LexicalRanking;
        denseWeight?: number;
        bm25B?: number;
        matchBudget?: number;
        scale?: number;
        queries: number;
        json?: boolean;
      }) => {
        const handle = await getDb();
        if (opts.scale) {
          const r = await runSearchLatencyBench(handle.db, {
            passages: opts.scale,
            queries: opts.queries,
            k: opts.k,
            corpus: opts.corpus,
            candidates: opts.candidates,
            log: log(!!opts.json),
          });
          const report = { ...r, backend: handle.backend };
          emit(!!opts.json, report, () => latencyHuman(report, handle.backend));
          return;
        }
        if (!opts.dataset)
          throw new Error(
            "bench retrieval needs --dataset (its installed copy, or --data <dir>), or --scale <passages> for the latency benchmark",
          );
        const modes = opts.mode?.map((m) => oneOf(SEARCH_MODES)(m) as SearchMode);
        const r = await runRetrievalBench(handle.db, {
          dataset: opts.dataset,
          data: opts.data ?? installedDataFor(opts.dataset),
          k: opts.k,
          limit: opts.limit,
          corpus: opts.corpus,
          split: opts.split,
          subset: opts.subset,
          modes,
          candidates: opts.candidates,
          rrfK: opts.rrfK,
          mmr: opts.mmr,
          lexicalRanking: opts.lexical,
          denseWeight: opts.denseWeight,
          bm25B: opts.bm25B,
          matchBudget: opts.matchBudget,
          log: log(!!opts.json),
        });
        const report = { ...r, backend: handle.backend, markdown: retrievalMarkdown(r.rows) };
        emit(!!opts.json, report, () =>
          [
            report.markdown,
            "",
            `${r.corpus_passages} passages in corpus ${r.corpus} (${r.embedding_model}); ${ingestionLine(r.ingestion)}`,
            `query embedding: ${r.query_embedding.ms_per_claim} ms per claim`,
            ...r.notes.map((n) => dim(n)),
          ].join("\n"),
        );
      },
    );

  bench
    .command("embed")
    .description(
      "The local MiniLM engines (WebAssembly, onnxruntime fp32 and int8), each in a fresh process: cold load, query embedding p50/p95, passages per second, peak memory.",
    )
    .option(
      "--data <dir>",
      "PolitiFact-Hidden's folder, for its sentences and claims (default: the demo corpus's text)",
    )
    .option("--queries <n>", "single claims embedded one at a time", positiveInt, 100)
    .option("--sentences <n>", "one-sentence passages", positiveInt, 512)
    .option("--long <n>", "passages of about 500 characters", positiveInt, 128)
    .option(
      "--engine <engine>",
      `only this engine, in this process: ${BENCH_ENGINES.join(" | ")}`,
      oneOf(BENCH_ENGINES),
    )
    .option("--json", "print JSON")
    .action(
      async (opts: {
        data?: string;
        queries: number;
        sentences: number;
        long: number;
        engine?: (typeof BENCH_ENGINES)[number];
        json?: boolean;
      }) => {
        if (opts.engine) {
          const row = await benchOneEngine(opts.engine, opts);
          emit(!!opts.json, row, () =>
            embedBenchMarkdown({
              engines: [row],
              graph_build_ms: {},
              cpus: 0,
              load_average: [],
              source: "",
              notes: [],
            }),
          );
          return;
        }
        const r = await runEmbedBench({ ...opts, log: log(!!opts.json) });
        emit(!!opts.json, r, () =>
          [
            embedBenchMarkdown(r),
            "",
            `texts: ${r.source}; ${r.cpus} CPUs; load average at the end ${r.load_average.join(", ")}`,
            ...Object.entries(r.graph_build_ms).map(([v, ms]) => `built the ${v} graph in ${ms} ms (once)`),
            ...r.notes.map((n) => dim(n)),
          ].join("\n"),
        );
      },
    );

  bench
    .command("search-latency")
    .description(
      "Hybrid search latency with the HNSW index vs an exact scan over synthetic passages with random 512-d vectors.",
    )
    .option("--passages <n>", "synthetic passages", positiveInt, 100_000)
    .option("--queries <n>", "timed queries", positiveInt, 200)
    .option("--k <n>", "results per query", positiveInt, 20)
    .option("--candidates <n>", "hybrid: candidates per retriever", positiveInt)
    .option("--corpus <name>", "corpus name (default bench-latency-<n>)")
    .option("--json", "print JSON")
    .action(
      async (opts: {
        passages: number;
        queries: number;
        k: number;
        candidates?: number;
        corpus?: string;
        json?: boolean;
      }) => {
        const handle = await getDb();
        const r = await runSearchLatencyBench(handle.db, {
          passages: opts.passages,
          queries: opts.queries,
          k: opts.k,
          candidates: opts.candidates,
          corpus: opts.corpus,
          log: log(!!opts.json),
        });
        const report = { ...r, backend: handle.backend };
        emit(!!opts.json, report, () => latencyHuman(report, handle.backend));
      },
    );

  bench
    .command("eval")
    .description(
      "Evaluation throughput: claims per minute with 1, 2 and 4 workers sharing a run, against a scripted model of fixed latency (worker processes on PostgreSQL).",
    )
    .option("--claims <n>", "claims per timed run", positiveInt, 32)
    .option("--latency <ms>", "scripted model latency per call", positiveInt, 150)
    .option("--json", "print JSON")
    .action(async (opts: { claims: number; latency: number; json?: boolean }) => {
      const handle = await getDb();
      const r = await benchEval(handle, { claims: opts.claims, latencyMs: opts.latency, log: log(!!opts.json) });
      emit(!!opts.json, r, () =>
        [
          "| workers | seconds | claims/min |",
          "|---|---|---|",
          ...r.runs.map((x) => `| ${x.workers} | ${x.seconds} | ${x.claims_per_minute} |`),
          "",
          `speed-up: ${r.speedup_2_workers}x with 2, ${r.speedup_4_workers}x with 4 (${r.workers_are}, ${r.backend})`,
          ...r.notes.map((n) => dim(n)),
        ].join("\n"),
      );
    });

  registerScale(bench);
  bench
    .command("compare")
    .description(
      "One claim through every protocol at once, as Compare methods starts them, with a scripted model of fixed latency: wall time, calls and tokens per protocol.",
    )
    .option("--runs <n>", "comparisons timed (the median is printed)", positiveInt, 3)
    .option("--first-token-ms <n>", "scripted model's time to first token", positiveInt, 50)
    .option("--per-token-ms <n>", "scripted model's time per token", positiveInt, 2)
    .option("--no-browser", "skip token-to-browser on the comparison page (it builds and starts the production server)")
    .option("--json", "print JSON")
    .action(
      async (opts: { runs: number; firstTokenMs: number; perTokenMs: number; browser: boolean; json?: boolean }) => {
        const handle = await getDb();
        const r = await benchCompare(handle, {
          runs: opts.runs,
          firstTokenMs: opts.firstTokenMs,
          perTokenMs: opts.perTokenMs,
          browser: opts.browser,
          log: log(!!opts.json),
        });
        emit(!!opts.json, r, () => compareBenchMarkdown(r));
      },
    );
}

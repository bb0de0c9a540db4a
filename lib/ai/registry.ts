import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type {
  LanguageModelV3,
  LanguageModelV3Prompt,
  SharedV3ProviderMetadata,
  SharedV3ProviderOptions,
} from "@ai-sdk/provider";
import { getConfig, type AppConfig } from "@/lib/config";
import { parseModelId, type ModelRef, type ProviderKind } from "./model-id";
import { lazyLocalModel } from "./local/lazy";
import { compatibleLogprobsExtractor, readOpenAILogprobs, type TokenLogprob } from "./logprobs";

/**
 * The one place that turns a model id into a model. Everything else (debates, doctor, benchmarks)
 * asks `resolveModel("openai:gpt-4o-mini")` and gets the AI SDK model plus what it can do.
 */

/** How option probabilities can be read from this model (see score-options.ts). */
export type ScoringSupport =
  /** The API returns the top-k alternatives of every generated token. */
  | "top-logprobs"
  /** In-process model: the full next-token distribution at any point, by teacher forcing. */
  | "next-token"
  /** No probabilities (e.g. Anthropic): callers use a declared fallback. */
  | "none";

export type ResolvedModel = {
  id: string;
  ref: ModelRef;
  provider: ProviderKind;
  /** Concurrency and retry bookkeeping key: one per provider, one per openai-compatible server. */
  limitKey: string;
  model: LanguageModelV3;
  scoring: ScoringSupport;
  /** top-logprobs only: provider options that ask for `k` alternatives per token. */
  logprobsOptions?: (k: number) => SharedV3ProviderOptions;
  /** top-logprobs only: the per-token alternatives from a response's provider metadata. */
  readLogprobs?: (metadata: SharedV3ProviderMetadata | undefined) => TokenLogprob[] | undefined;
  /** next-token only: the distribution after the chat prompt and the start of an assistant reply. */
  nextTokenDistribution?: (
    prompt: LanguageModelV3Prompt,
    assistantPrefix: string,
  ) => Promise<Array<{ token: string; prob: number }>>;
};

export class ModelConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelConfigError";
  }
}

function resolveOpenAI(ref: ModelRef, config: AppConfig): ResolvedModel {
  if (!config.openai.apiKey) {
    throw new ModelConfigError(
      `${ref.id}: OPENAI_API_KEY is not set. Add the key on the Admin page (Language models), or set it in .env (or the environment), to use OpenAI models.`,
    );
  }
  const provider = createOpenAI({ apiKey: config.openai.apiKey, baseURL: config.openai.baseURL });
  return {
    id: ref.id,
    ref,
    provider: "openai",
    limitKey: "openai",
    // Chat Completions, not Responses: it returns top_logprobs for every token, which scoring needs.
    model: provider.chat(ref.name),
    scoring: "top-logprobs",
    logprobsOptions: (k) => ({ openai: { logprobs: k } }),
    readLogprobs: (m) => readOpenAILogprobs(m?.openai?.logprobs),
  };
}

function resolveAnthropic(ref: ModelRef, config: AppConfig): ResolvedModel {
  if (!config.anthropic.apiKey) {
    throw new ModelConfigError(
      `${ref.id}: ANTHROPIC_API_KEY is not set. Add the key on the Admin page (Language models), or set it in .env (or the environment), to use Anthropic models.`,
    );
  }
  const provider = createAnthropic({ apiKey: config.anthropic.apiKey, baseURL: config.anthropic.baseURL });
  return { id: ref.id, ref, provider: "anthropic", limitKey: "anthropic", model: provider(ref.name), scoring: "none" };
}

function resolveCompatible(ref: ModelRef, config: AppConfig): ResolvedModel {
  const server = config.openaiCompatible[ref.server ?? ""];
  const envName = `OPENAI_COMPATIBLE_${(ref.server ?? "").toUpperCase().replace(/-/g, "_")}`;
  if (!server) {
    const known = Object.keys(config.openaiCompatible);
    throw new ModelConfigError(
      `${ref.id}: no OpenAI-compatible server named "${ref.server}". Add it on the Admin page (Language models), or set ${envName}_BASE_URL (e.g. http://127.0.0.1:11434/v1 for Ollama)` +
        (known.length ? `; configured servers: ${known.join(", ")}` : "") +
        ".",
    );
  }
  const modelName = ref.name || server.model;
  if (!modelName) {
    throw new ModelConfigError(
      `${ref.id}: no model given. Use openai-compatible:${server.name}/<model> or set ${envName}_MODEL.`,
    );
  }
  // The provider name doubles as the providerOptions / providerMetadata key.
  const providerName = `compat-${server.name}`;
  const provider = createOpenAICompatible({
    name: providerName,
    baseURL: server.baseURL,
    apiKey: server.apiKey,
    // Ask for usage on streamed responses too (vLLM, Ollama and llama.cpp server honour it).
    includeUsage: true,
    metadataExtractor: compatibleLogprobsExtractor(providerName),
  });
  return {
    id: ref.id,
    ref,
    provider: "openai-compatible",
    limitKey: `openai-compatible:${server.name}`,
    model: provider.chatModel(modelName),
    scoring: server.logprobs ? "top-logprobs" : "none",
    // Unknown provider options are passed through in the request body, as these servers expect.
    logprobsOptions: (k) => ({ [providerName]: { logprobs: true, top_logprobs: k } }),
    readLogprobs: (m) => readOpenAILogprobs(m?.[providerName]?.logprobs),
  };
}

/**
 * Local models load a gigabyte file on first use: one per file and settings, kept when other model
 * settings change (the registry's cache is emptied then, this one is not).
 */
const localModels = new Map<string, ReturnType<typeof lazyLocalModel>>();

function resolveLocal(ref: ModelRef, config: AppConfig): ResolvedModel {
  const key = `${ref.id}|${JSON.stringify(config.local)}`;
  let local = localModels.get(key);
  if (!local) {
    local = lazyLocalModel(ref.name, ref.id, config.local);
    localModels.set(key, local);
  }
  const model = local;
  return {
    id: ref.id,
    ref,
    provider: "local",
    limitKey: "local",
    model,
    scoring: "next-token",
    nextTokenDistribution: (prompt, prefix) => model.nextTokenDistribution(prompt, prefix),
  };
}

/**
 * Resolved models of the configuration in force. getConfig() returns a new object when the model
 * settings saved on /admin change (in this process or, through the event bus, another): the cache
 * is then emptied, so the next call uses the new keys and models without a restart.
 */
const cache = new Map<string, ResolvedModel>();
let cachedFor: AppConfig | undefined;

function cacheFor(config: AppConfig): Map<string, ResolvedModel> | undefined {
  if (config !== getConfig()) return undefined;
  if (cachedFor !== config) {
    cache.clear();
    cachedFor = config;
  }
  return cache;
}

export function resolveModel(id: string, config: AppConfig = getConfig()): ResolvedModel {
  const current = cacheFor(config);
  const cached = current?.get(id);
  if (cached) return cached;
  let ref: ModelRef;
  try {
    ref = parseModelId(id);
  } catch (e) {
    throw new ModelConfigError((e as Error).message);
  }
  const resolved =
    ref.provider === "openai"
      ? resolveOpenAI(ref, config)
      : ref.provider === "anthropic"
        ? resolveAnthropic(ref, config)
        : ref.provider === "openai-compatible"
          ? resolveCompatible(ref, config)
          : resolveLocal(ref, config);
  current?.set(id, resolved);
  return resolved;
}

/** Every model id the configuration names (default and per role), for doctor and /api/health. */
export function configuredModelIds(config: AppConfig = getConfig()): string[] {
  return [...new Set([config.models.default, ...Object.values(config.models.roles)].filter((x): x is string => !!x))];
}

/** The model a role uses: an explicit choice, else ROLE_MODELS, else DEFAULT_MODEL. */
export function modelIdForRole(role: string, explicit?: string, config: AppConfig = getConfig()): string {
  const id = explicit ?? config.models.roles[role] ?? config.models.default;
  if (!id) {
    throw new ModelConfigError(
      `No model for role "${role}". Choose one on the form, choose a default model on the Admin page (Language models), or set DEFAULT_MODEL (e.g. openai:gpt-4o-mini, local:qwen2.5-1.5b-instruct-q4_k_m) or ROLE_MODELS=${role}=<model id>.`,
    );
  }
  return id;
}

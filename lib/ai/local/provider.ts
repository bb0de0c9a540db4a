/**
 * AI SDK (LanguageModelV3) provider that runs GGUF models in-process with
 * node-llama-cpp, so Counterpoint works with no API key and no server.
 *
 * Beyond the standard interface it exposes `nextTokenDistribution`, which the
 * debate logic uses to score a fixed set of answers (STOP vs CONTINUE, TRUE /
 * HALF-TRUE / FALSE) from the model's own next-token probabilities instead of
 * parsing free text.
 *
 * Server-only: node-llama-cpp is a native addon.
 */
import os from "node:os";
import path from "node:path";
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
  SharedV3Warning,
} from "@ai-sdk/provider";
import {
  getLlama,
  LlamaChat,
  LlamaLogLevel,
  type ChatHistoryItem,
  type Llama,
  type LlamaContext,
  type LlamaContextSequence,
  type LlamaGrammar,
  type LlamaModel,
  type Token,
} from "node-llama-cpp";

export interface LocalLanguageModelOptions {
  modelPath: string;
  modelId: string;
  /** Tokens of context; capped at the model's training context. Default 8192. */
  contextSize?: number;
  /** CPU threads. Default: os.availableParallelism(). */
  threads?: number;
}

export interface TokenProbability {
  /** Detokenized text of the token, as it would appear after the prefix. */
  token: string;
  prob: number;
  tokenId: number;
}

export interface LocalLanguageModel extends LanguageModelV3 {
  readonly specificationVersion: "v3";
  readonly provider: "local";
  readonly modelPath: string;
  /**
   * Next-token distribution after the chat history plus the start of an
   * assistant reply that reads `assistantPrefix` (teacher forcing). Sorted by
   * probability; the whole vocabulary (summing to ~1) unless `topK` is given.
   */
  nextTokenDistribution(
    prompt: LanguageModelV3Prompt,
    assistantPrefix: string,
    topK?: number,
  ): Promise<TokenProbability[]>;
}

const DEFAULT_CONTEXT_SIZE = 8192;

/* ------------------------------------------------------------------------ */
/* Shared runtime: one llama binding, one model per file, one context each.  */
/* ------------------------------------------------------------------------ */

interface Runtime {
  model: LlamaModel;
  context: LlamaContext;
  /** Used by LlamaChat for generation. */
  sequence: LlamaContextSequence;
  /**
   * Used only by nextTokenDistribution. Keeping scoring off the generation
   * sequence means its KV cache is only ever filled in the batch layout that
   * scoring itself uses, which is what makes scores bit-for-bit repeatable.
   */
  scoreSequence: LlamaContextSequence;
  chat: LlamaChat;
  contextSize: number;
  queue: SerialQueue;
}

/**
 * One context sequence can only run one evaluation at a time, and interleaving
 * two generations on it would corrupt both; callers take turns instead.
 */
class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const start = this.tail.then(
      () => undefined,
      () => undefined,
    );
    const result = start.then(() => {
      signal?.throwIfAborted();
      return task();
    });
    this.tail = result.catch(() => undefined);
    if (!signal) return result;
    // A caller that gives up while waiting should not wait for the turn; its
    // task still reaches the front, sees the abort and returns at once.
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      result.then(
        (v) => {
          signal.removeEventListener("abort", onAbort);
          resolve(v);
        },
        (e) => {
          signal.removeEventListener("abort", onAbort);
          reject(e);
        },
      );
    });
  }
}

let llamaPromise: Promise<Llama> | undefined;
const modelPromises = new Map<string, Promise<LlamaModel>>();
const runtimePromises = new Map<string, Promise<Runtime>>();

function loadLlama(): Promise<Llama> {
  // build: "never" because compiling llama.cpp at run time needs a toolchain
  // and network; the prebuilt CPU binary ships in the npm package.
  llamaPromise ??= getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error }).catch((err) => {
    llamaPromise = undefined;
    throw err;
  });
  return llamaPromise;
}

function loadModel(modelPath: string): Promise<LlamaModel> {
  let p = modelPromises.get(modelPath);
  if (!p) {
    p = loadLlama()
      .then((llama) => llama.loadModel({ modelPath }))
      .catch((err: unknown) => {
        modelPromises.delete(modelPath);
        throw new Error(
          `Could not load local model ${modelPath}: ${err instanceof Error ? err.message : String(err)}`,
          {
            cause: err,
          },
        );
      });
    modelPromises.set(modelPath, p);
  }
  return p;
}

function getRuntime(modelPath: string, contextSize: number, threads: number): Promise<Runtime> {
  const key = `${modelPath}\0${contextSize}\0${threads}`;
  let p = runtimePromises.get(key);
  if (!p) {
    p = (async () => {
      const model = await loadModel(modelPath);
      const size = Math.max(64, Math.min(contextSize, model.trainContextSize));
      // contextSize is per sequence, so the second sequence doubles the KV cache.
      const context = await model.createContext({ contextSize: size, threads, sequences: 2 });
      const sequence = context.getSequence();
      const scoreSequence = context.getSequence();
      const chat = new LlamaChat({ contextSequence: sequence, autoDisposeSequence: false });
      return {
        model,
        context,
        sequence,
        scoreSequence,
        chat,
        contextSize: context.contextSize,
        queue: new SerialQueue(),
      };
    })().catch((err: unknown) => {
      runtimePromises.delete(key);
      throw err;
    });
    runtimePromises.set(key, p);
  }
  return p;
}

/** Frees every loaded context and model (tests, graceful shutdown). */
export async function disposeLocalModels(): Promise<void> {
  const runtimes = [...runtimePromises.values()];
  const models = [...modelPromises.values()];
  runtimePromises.clear();
  modelPromises.clear();
  for (const p of runtimes) {
    const rt = await p.catch(() => undefined);
    if (!rt) continue;
    // Wait for the turn so a running generation is not pulled from under itself.
    await rt.queue
      .run(async () => {
        rt.chat.dispose();
        await rt.context.dispose();
      })
      .catch(() => undefined);
  }
  for (const p of models) {
    const m = await p.catch(() => undefined);
    if (m && !m.disposed) await m.dispose();
  }
}

/* ------------------------------------------------------------------------ */
/* Prompt conversion                                                         */
/* ------------------------------------------------------------------------ */

function toChatHistory(prompt: LanguageModelV3Prompt, warnings: SharedV3Warning[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  let warnedFiles = false;
  const fileWarning = () => {
    if (!warnedFiles) {
      warnings.push({
        type: "unsupported",
        feature: "file parts",
        details: "local models are text-only; files were dropped",
      });
      warnedFiles = true;
    }
  };

  for (const message of prompt) {
    switch (message.role) {
      case "system":
        history.push({ type: "system", text: message.content });
        break;
      case "user": {
        const parts: string[] = [];
        for (const part of message.content) {
          if (part.type === "text") parts.push(part.text);
          else fileWarning();
        }
        pushUser(history, parts.join("\n"));
        break;
      }
      case "assistant": {
        let text = "";
        for (const part of message.content) {
          if (part.type === "text") text += part.text;
          else if (part.type === "tool-call") {
            // Tool calling is not implemented locally, but earlier turns from
            // another provider may contain calls; keep them visible as text.
            text += `\n[tool call ${part.toolName}: ${JSON.stringify(part.input)}]`;
          } else if (part.type === "file") fileWarning();
          // Reasoning parts are the model's own scratchpad; re-feeding them
          // wastes context and is not what the chat templates expect.
        }
        const last = history[history.length - 1];
        if (last?.type === "model") last.response.push(text);
        else history.push({ type: "model", response: [text] });
        break;
      }
      case "tool": {
        const lines: string[] = [];
        for (const part of message.content) {
          if (part.type === "tool-result") lines.push(`[tool result ${part.toolName}: ${JSON.stringify(part.output)}]`);
        }
        if (lines.length > 0) pushUser(history, lines.join("\n"));
        break;
      }
    }
  }
  return history;
}

function pushUser(history: ChatHistoryItem[], text: string): void {
  const last = history[history.length - 1];
  if (last?.type === "user") last.text += `\n\n${text}`;
  else history.push({ type: "user", text });
}

function tokenizeHistory(rt: Runtime, history: ChatHistoryItem[]): Token[] {
  const { contextText } = rt.chat.chatWrapper.generateContextState({ chatHistory: history });
  return contextText.tokenize(rt.model.tokenizer);
}

/* ------------------------------------------------------------------------ */
/* The model                                                                 */
/* ------------------------------------------------------------------------ */

function usage(inputTokens: number, outputTokens: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: inputTokens, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}

function finishReason(stopReason: string): LanguageModelV3FinishReason {
  switch (stopReason) {
    case "eogToken":
    case "stopGenerationTrigger":
    case "customStopTrigger":
      return { unified: "stop", raw: stopReason };
    case "maxTokens":
      return { unified: "length", raw: stopReason };
    case "functionCalls":
      return { unified: "tool-calls", raw: stopReason };
    default:
      return { unified: "other", raw: stopReason };
  }
}

interface GenerationHandlers {
  /** Called once the call's warnings are final, just before the first token. */
  onStart?: (warnings: SharedV3Warning[]) => void;
  onText?: (text: string) => void;
}

interface GenerationOutcome {
  text: string;
  inputTokens: number;
  outputTokens: number;
  stopReason: string;
  warnings: SharedV3Warning[];
}

class NodeLlamaCppLanguageModel implements LocalLanguageModel {
  readonly specificationVersion = "v3" as const;
  readonly provider = "local" as const;
  readonly modelId: string;
  readonly modelPath: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};
  private readonly contextSize: number;
  private readonly threads: number;

  constructor(opts: LocalLanguageModelOptions) {
    this.modelId = opts.modelId;
    this.modelPath = path.resolve(opts.modelPath);
    this.contextSize = opts.contextSize ?? DEFAULT_CONTEXT_SIZE;
    // node-llama-cpp's own default picked 4 threads on a 2-core machine, and
    // oversubscribed ggml threads spin against each other (hundreds of times
    // slower on the tiny test model). Never ask for more than the cores.
    this.threads = Math.max(1, opts.threads ?? os.availableParallelism());
  }

  private runtime(): Promise<Runtime> {
    return getRuntime(this.modelPath, this.contextSize, this.threads);
  }

  private async grammarFor(
    rt: Runtime,
    options: LanguageModelV3CallOptions,
    warnings: SharedV3Warning[],
  ): Promise<LlamaGrammar | undefined> {
    const format = options.responseFormat;
    if (!format || format.type !== "json") return undefined;
    const llama = rt.model.llama;
    if (format.schema) {
      try {
        // A grammar makes even a small model emit JSON that parses and
        // matches the schema, which is what generateObject relies on.
        return await llama.createGrammarForJsonSchema(format.schema as never);
      } catch (err) {
        warnings.push({
          type: "compatibility",
          feature: "responseFormat.schema",
          details: `schema not expressible as a grammar (${err instanceof Error ? err.message : String(err)}); constraining to plain JSON`,
        });
      }
    }
    return llama.getGrammarFor("json");
  }

  private async generate(
    options: LanguageModelV3CallOptions,
    signal: AbortSignal | undefined,
    handlers: GenerationHandlers,
  ): Promise<GenerationOutcome> {
    const warnings: SharedV3Warning[] = [];
    if (options.tools && options.tools.length > 0) {
      warnings.push({
        type: "unsupported",
        feature: "tools",
        details: "local models do not call tools; tools were ignored",
      });
    }
    const history = toChatHistory(options.prompt, warnings);
    const last = history[history.length - 1];
    // An assistant message at the end is a prefill to continue; otherwise open a new turn.
    if (last?.type !== "model") history.push({ type: "model", response: [] });

    const rt = await this.runtime();
    return rt.queue.run(async () => {
      const inputTokens = tokenizeHistory(rt, history).length;
      if (inputTokens >= rt.contextSize) {
        throw new Error(
          `Prompt is ${inputTokens} tokens but the local model context holds ${rt.contextSize}; raise LOCAL_CONTEXT_SIZE or shorten the prompt.`,
        );
      }
      const grammar = await this.grammarFor(rt, options, warnings);
      const repeatPenalty =
        options.presencePenalty !== undefined || options.frequencyPenalty !== undefined
          ? { presencePenalty: options.presencePenalty, frequencyPenalty: options.frequencyPenalty }
          : undefined;
      handlers.onStart?.(warnings);
      let outputTokens = 0;
      const res = await rt.chat.generateResponse(history, {
        signal,
        stopOnAbortSignal: false,
        // Never past the end of the context: node-llama-cpp would then shift
        // the context and silently drop the start of the prompt (the claim
        // being checked), and a model that never ends its turn would not stop.
        maxTokens: Math.max(1, Math.min(options.maxOutputTokens ?? Infinity, rt.contextSize - inputTokens)),
        temperature: options.temperature,
        topP: options.topP,
        topK: options.topK,
        seed: options.seed,
        ...(repeatPenalty ? { repeatPenalty } : {}),
        ...(options.stopSequences && options.stopSequences.length > 0
          ? { customStopTriggers: options.stopSequences }
          : {}),
        ...(grammar ? { grammar } : {}),
        onToken: (tokens) => {
          outputTokens += tokens.length;
        },
        onTextChunk: handlers.onText,
      });
      // node-llama-cpp can end on abort without throwing when the abort lands
      // between tokens; callers expect an abort to surface as an error.
      if (signal?.aborted) throw signal.reason;
      return { text: res.response, inputTokens, outputTokens, stopReason: res.metadata.stopReason, warnings };
    }, signal);
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const out = await this.generate(options, options.abortSignal, {});
    return {
      content: out.text.length > 0 ? [{ type: "text", text: out.text }] : [],
      finishReason: finishReason(out.stopReason),
      usage: usage(out.inputTokens, out.outputTokens),
      warnings: out.warnings,
      response: { modelId: this.modelId, timestamp: new Date() },
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    // Cancelling the stream (consumer stopped reading) must stop generation too.
    const controller = new AbortController();
    const outer = options.abortSignal;
    const onOuterAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) controller.abort(outer.reason);
    else outer?.addEventListener("abort", onOuterAbort, { once: true });

    const textId = "txt-0";
    // Enqueueing into a cancelled stream throws, and tokens may still arrive
    // between cancel() and the generation noticing the abort.
    let open = true;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      start: (ctrl) => {
        let textStarted = false;
        const emit = (part: LanguageModelV3StreamPart) => {
          if (open) ctrl.enqueue(part);
        };
        const run = async () => {
          try {
            const out = await this.generate(options, controller.signal, {
              onStart: (warnings) => emit({ type: "stream-start", warnings }),
              onText: (delta) => {
                if (delta.length === 0) return;
                if (!textStarted) {
                  emit({ type: "text-start", id: textId });
                  textStarted = true;
                }
                emit({ type: "text-delta", id: textId, delta });
              },
            });
            if (textStarted) emit({ type: "text-end", id: textId });
            emit({ type: "response-metadata", modelId: this.modelId, timestamp: new Date() });
            emit({
              type: "finish",
              finishReason: finishReason(out.stopReason),
              usage: usage(out.inputTokens, out.outputTokens),
            });
          } catch (error) {
            emit({ type: "error", error });
          } finally {
            outer?.removeEventListener("abort", onOuterAbort);
            if (open) {
              open = false;
              ctrl.close();
            }
          }
        };
        void run();
        return undefined;
      },
      cancel: (reason) => {
        open = false;
        controller.abort(reason ?? new Error("stream cancelled"));
      },
    });
    return { stream };
  }

  async nextTokenDistribution(
    prompt: LanguageModelV3Prompt,
    assistantPrefix: string,
    topK?: number,
  ): Promise<TokenProbability[]> {
    const history = toChatHistory(prompt, []);
    // Always a fresh assistant turn: the prefix is the start of the reply
    // being scored, not a continuation of an earlier one.
    history.push({ type: "model", response: [assistantPrefix] });

    const rt = await this.runtime();
    return rt.queue.run(async () => {
      const tokens = tokenizeHistory(rt, history);
      if (tokens.length === 0) throw new Error("nextTokenDistribution: empty prompt");
      if (tokens.length >= rt.contextSize) {
        throw new Error(
          `Prompt is ${tokens.length} tokens but the local model context holds ${rt.contextSize}; raise LOCAL_CONTEXT_SIZE or shorten the prompt.`,
        );
      }
      const seq = rt.scoreSequence;
      // Reuse the already-evaluated prefix (debate transcripts grow turn by
      // turn), but only whole batches from position 0. Float results depend on
      // how tokens were grouped into batches; aligned reuse reproduces exactly
      // the grouping of a from-scratch run, so the same input always gives
      // the same numbers. The last token is always re-run because logits only
      // exist for tokens evaluated in this call.
      const common = Math.min(seq.compareContextTokens(tokens).firstDifferentIndex, tokens.length - 1);
      const batch = rt.context.batchSize;
      const from = Math.floor(common / batch) * batch;
      if (from < seq.nextTokenIndex) {
        await seq.eraseContextTokenRanges([{ start: from, end: seq.nextTokenIndex }]);
      }
      const pending = tokens.slice(from);
      const results = await seq.controlledEvaluate(
        pending.map((token, i) =>
          i === pending.length - 1
            ? [
                token,
                {
                  generateNext: {
                    probabilities: true,
                    // The plain softmax: no temperature, top-k/top-p or min-p
                    // truncation, so every token gets its true probability.
                    options: { temperature: 1, topK: 0, topP: 1, minP: 0 },
                  },
                },
              ]
            : token,
        ),
      );
      const probs = results[pending.length - 1]?.next.probabilities;
      if (!probs) throw new Error("node-llama-cpp returned no probabilities for the last token");

      const context = tokens.slice(-8);
      const out: TokenProbability[] = [];
      for (const [tokenId, prob] of probs) {
        out.push({ tokenId, prob, token: rt.model.detokenize([tokenId], true, context) });
      }
      out.sort((a, b) => b.prob - a.prob);
      return topK !== undefined ? out.slice(0, Math.max(0, topK)) : out;
    });
  }
}

export function createLocalLanguageModel(opts: LocalLanguageModelOptions): LocalLanguageModel {
  return new NodeLlamaCppLanguageModel(opts);
}

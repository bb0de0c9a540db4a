import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3Prompt,
  type LanguageModelV3StreamPart,
  type SharedV3ProviderMetadata,
  type SharedV3ProviderOptions,
} from "@ai-sdk/provider";
import { streamText, type LanguageModelUsage, type ModelMessage } from "ai";
import { getConfig } from "@/lib/config";
import { runLimited } from "./concurrency";
import { costOf, loadPriceTable, type Price, type TokenUsage } from "./prices";
import { resolveModel, type ResolvedModel } from "./registry";
import type { CallRecord } from "@/db/types";
// Defined in db/types.ts (stored shapes flow down to db/); re-exported for lib's callers.
export type { CallRecord } from "@/db/types";

/**
 * Every model call in Counterpoint goes through `callModel`: it queues behind the provider's
 * concurrency limit, retries what is worth retrying, streams deltas, and reports usage and cost
 * so that each call can be recorded.
 */

export type CallOptions = {
  model: string | ResolvedModel;
  /** What the call is for (e.g. `opening:politician`, `checkpoint:stop`); stored with its usage. */
  purpose: string;
  system?: string;
  messages: ModelMessage[];
  maxOutputTokens?: number;
  temperature?: number;
  seed?: number;
  stopSequences?: string[];
  providerOptions?: SharedV3ProviderOptions;
  abortSignal?: AbortSignal;
  /** Streamed text. After a failed attempt `onRetry` fires and the text starts again from nothing. */
  onTextDelta?: (delta: string) => void;
  onRetry?: (info: RetryInfo) => void;
  /** Called once per call, after success or final failure: the place to persist usage. */
  onRecord?: (record: CallRecord) => void | Promise<void>;
  /** Overrides for tests and benchmarks; defaults come from the configuration. */
  maxRetries?: number;
  timeoutMs?: number;
  baseDelayMs?: number;
};

/**
 * A failed attempt about to be retried: attempt `attempt` of at most `maxAttempts` failed, for
 * `reason` (plain words, e.g. "a rate limit"), and the next starts after `delayMs`.
 */
export type RetryInfo = { attempt: number; maxAttempts: number; reason: string; error: Error; delayMs: number };

export type CallResult = {
  text: string;
  finishReason: string;
  providerMetadata?: SharedV3ProviderMetadata;
} & CallRecord;

export class ModelCallError extends Error {
  constructor(
    message: string,
    public readonly record: CallRecord,
    public readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ModelCallError";
  }
}

class CallTimeoutError extends Error {
  constructor(ms: number) {
    super(`no response within ${ms} ms`);
    this.name = "CallTimeoutError";
  }
}

let priceTable: Record<string, Price> | undefined;
function prices() {
  priceTable ??= loadPriceTable(getConfig().pricesFile);
  return priceTable;
}

/** Rate limits, server errors and timeouts are transient; bad requests and auth errors are not. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof CallTimeoutError) return true;
  if (APICallError.isInstance(error)) return error.isRetryable;
  const code = (error as { cause?: { code?: string } })?.cause?.code ?? (error as { code?: string })?.code;
  return ["ECONNRESET", "ECONNREFUSED", "ETIMEDOUT", "EAI_AGAIN", "UND_ERR_SOCKET"].includes(code ?? "");
}

function retryAfterMs(error: unknown): number | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const h = error.responseHeaders ?? {};
  const ms = Number(h["retry-after-ms"]);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const s = h["retry-after"];
  if (s === undefined) return undefined;
  const seconds = Number(s);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(s);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** Why an attempt failed, in words for the person watching the turn. */
export function retryReason(error: unknown): string {
  if (error instanceof CallTimeoutError) return "no answer in time";
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === 429) return "a rate limit";
    if (status === 408) return "a timeout";
    if (status !== undefined && status >= 500) return `a server error (${status})`;
    if (status !== undefined) return `an error (${status})`;
  }
  return "a connection problem";
}

function describe(error: unknown): string {
  if (APICallError.isInstance(error)) {
    return `${error.statusCode ?? "network"} from ${error.url}: ${error.message}`;
  }
  return (error as Error)?.message ?? String(error);
}

function sleep(ms: number, signal?: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

const ZERO: TokenUsage = { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 };

/**
 * The prompt as the model itself takes it, when the call is plain text to a current-spec model:
 * then the call goes to the model's own stream, without `streamText` around it. What `streamText`
 * adds (checking our own messages against its schema, steps, tools, telemetry, and half a dozen web
 * streams teed and piped per call) cost about as much CPU per call as everything else the runner
 * does for a turn, and none of it is used here. Anything else (files, images, older model specs)
 * still goes through `streamText`.
 */
function directPrompt(
  model: ResolvedModel["model"],
  opts: CallOptions,
): { model: LanguageModelV3; prompt: LanguageModelV3Prompt } | null {
  if (
    typeof model !== "object" ||
    model === null ||
    (model as { specificationVersion?: string }).specificationVersion !== "v3"
  )
    return null;
  const prompt: LanguageModelV3Prompt = [];
  if (opts.system) prompt.push({ role: "system", content: opts.system });
  for (const m of opts.messages) {
    if (typeof m.content !== "string") return null;
    if (m.role === "system") prompt.push({ role: "system", content: m.content });
    else if (m.role === "user" || m.role === "assistant")
      prompt.push({ role: m.role, content: [{ type: "text", text: m.content }] });
    else return null;
  }
  return { model: model as LanguageModelV3, prompt };
}

/** One attempt straight on the model's stream: text deltas, then the finish part's usage, reason and provider metadata. */
async function streamDirect(
  direct: { model: LanguageModelV3; prompt: LanguageModelV3Prompt },
  opts: CallOptions,
  signal: AbortSignal,
  arm: () => void,
) {
  const { stream } = await direct.model.doStream({
    prompt: direct.prompt,
    maxOutputTokens: opts.maxOutputTokens,
    temperature: opts.temperature,
    seed: opts.seed,
    stopSequences: opts.stopSequences,
    providerOptions: opts.providerOptions,
    abortSignal: signal,
  });
  const reader = stream.getReader();
  let text = "";
  let finish: Extract<LanguageModelV3StreamPart, { type: "finish" }> | undefined;
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        break;
      }
      // A model that keeps streaming after an abort is stopped here, as streamText stops it.
      if (signal.aborted) throw signal.reason ?? new Error("aborted");
      const part = next.value;
      if (part.type === "text-delta") {
        arm();
        text += part.delta;
        opts.onTextDelta?.(part.delta);
      } else if (part.type === "finish") {
        finish = part;
      } else if (part.type === "error") {
        throw part.error;
      }
    }
  } finally {
    if (!done) reader.cancel().catch(() => undefined);
  }
  if (!finish) throw new Error("the model's stream ended without finishing");
  return {
    text,
    finishReason: finish.finishReason.unified as string,
    providerMetadata: finish.providerMetadata,
    usage: {
      promptTokens: finish.usage.inputTokens.total ?? 0,
      completionTokens: finish.usage.outputTokens.total ?? 0,
      cachedPromptTokens: finish.usage.inputTokens.cacheRead ?? 0,
    },
  };
}

async function attemptOnce(resolved: ResolvedModel, opts: CallOptions, timeoutMs: number) {
  // One controller per attempt: the caller's abort cancels it, and so does the idle timeout.
  const controller = new AbortController();
  const onAbort = () => controller.abort(opts.abortSignal?.reason);
  opts.abortSignal?.addEventListener("abort", onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  // The timeout is between chunks, not for the whole call: a long answer that keeps streaming is fine.
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new CallTimeoutError(timeoutMs));
    }, timeoutMs);
  };
  let streamError: unknown;
  let text = "";
  try {
    arm();
    const direct = directPrompt(resolved.model, opts);
    if (direct) return await streamDirect(direct, opts, controller.signal, arm);
    const result = streamText({
      model: resolved.model,
      system: opts.system,
      messages: opts.messages,
      maxOutputTokens: opts.maxOutputTokens,
      temperature: opts.temperature,
      seed: opts.seed,
      stopSequences: opts.stopSequences,
      providerOptions: opts.providerOptions,
      abortSignal: controller.signal,
      // Retries are ours (below), so that timeouts and streams that break midway are retried too.
      maxRetries: 0,
      onError: ({ error }) => {
        streamError = error;
      },
    });
    // One pass over the full stream: the text and the step's finish (usage, reason, provider
    // metadata) come from the same parts. Reading `textStream` and then `result.usage` would make
    // the SDK tee the stream a second time and replay every buffered part once more, on every call.
    let finished:
      | { usage: LanguageModelUsage; finishReason: string; providerMetadata?: SharedV3ProviderMetadata }
      | undefined;
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") {
        arm();
        text += part.text;
        opts.onTextDelta?.(part.text);
      } else if (part.type === "finish-step") {
        finished = { usage: part.usage, finishReason: part.finishReason, providerMetadata: part.providerMetadata };
      } else if (part.type === "abort" && !finished) {
        // Stopped before its step finished: no answer (the catch below says why: a timeout, or the caller's abort).
        throw new Error("aborted");
      }
    }
    if (streamError) throw streamError;
    // No step finished (nothing else expected with one step and no tools): ask the result, as before.
    const [usage, finishReason, providerMetadata] = finished
      ? [finished.usage, finished.finishReason, finished.providerMetadata]
      : await Promise.all([result.usage, result.finishReason, result.providerMetadata]);
    return {
      text,
      finishReason,
      providerMetadata,
      usage: {
        promptTokens: usage.inputTokens ?? 0,
        completionTokens: usage.outputTokens ?? 0,
        cachedPromptTokens: usage.inputTokenDetails?.cacheReadTokens ?? 0,
      },
    };
  } catch (e) {
    if (timedOut && !opts.abortSignal?.aborted) throw new CallTimeoutError(timeoutMs);
    throw streamError ?? e;
  } finally {
    clearTimeout(timer);
    opts.abortSignal?.removeEventListener("abort", onAbort);
  }
}

export async function callModel(opts: CallOptions): Promise<CallResult> {
  const config = getConfig();
  const resolved = typeof opts.model === "string" ? resolveModel(opts.model) : opts.model;
  const maxRetries = opts.maxRetries ?? config.llm.maxRetries;
  const timeoutMs = opts.timeoutMs ?? config.llm.timeoutMs;
  const baseDelay = opts.baseDelayMs ?? 1000;
  const concurrency = config.llm.concurrency[resolved.limitKey] ?? config.llm.concurrency[resolved.provider] ?? 4;

  const started = performance.now();
  let attempts = 0;
  const record = (usage: TokenUsage, error?: string): CallRecord => ({
    model: resolved.id,
    purpose: opts.purpose,
    usage,
    costUsd: costOf(resolved.id, usage, prices()),
    latencyMs: Math.round(performance.now() - started),
    attempts,
    error,
  });

  for (;;) {
    attempts++;
    try {
      const out = await runLimited(resolved.limitKey, concurrency, () => attemptOnce(resolved, opts, timeoutMs));
      const rec = record(out.usage);
      await opts.onRecord?.(rec);
      return { ...rec, text: out.text, finishReason: out.finishReason, providerMetadata: out.providerMetadata };
    } catch (error) {
      const aborted = opts.abortSignal?.aborted ?? false;
      const retryable = !aborted && isRetryable(error);
      if (!retryable || attempts > maxRetries) {
        const message = aborted
          ? "cancelled"
          : `${resolved.id} failed after ${attempts} attempt${attempts === 1 ? "" : "s"}: ${describe(error)}`;
        // A failed attempt reports no usage; what the provider billed for it is unknown to us.
        const rec = record(ZERO, message);
        await opts.onRecord?.(rec);
        throw new ModelCallError(message, rec, retryable, { cause: error });
      }
      // Exponential backoff with full jitter, never sooner than the provider asked for.
      const backoff = Math.random() * baseDelay * 2 ** (attempts - 1);
      const delayMs = Math.max(backoff, retryAfterMs(error) ?? 0);
      opts.onRetry?.({
        attempt: attempts,
        maxAttempts: maxRetries + 1,
        reason: retryReason(error),
        error: error as Error,
        delayMs,
      });
      await sleep(delayMs, opts.abortSignal).catch(() => undefined);
    }
  }
}

import { APICallError } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { callModel, ModelCallError, type CallRecord } from "@/lib/ai/call";
import { resolvedMock, textStream } from "./helpers/mock-models";

const messages = [{ role: "user" as const, content: "Is the claim true?" }];

function apiError(statusCode: number, headers: Record<string, string> = {}) {
  return new APICallError({
    message: `HTTP ${statusCode}`,
    url: "https://api.example.test/v1/chat/completions",
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    isRetryable: statusCode === 429 || statusCode >= 500,
  });
}

/** A model whose n-th stream call does what `script[n]` says. */
function scripted(script: Array<"ok" | Error | "hang">, text = ["The ", "claim ", "holds."]) {
  let n = 0;
  return new MockLanguageModelV3({
    doStream: async ({ abortSignal }) => {
      const step = script[Math.min(n++, script.length - 1)]!;
      if (step instanceof Error) throw step;
      if (step === "hang") {
        return {
          stream: new ReadableStream({
            start(controller) {
              abortSignal?.addEventListener("abort", () => controller.error(abortSignal.reason));
            },
          }),
        };
      }
      return textStream(text, { input: 42, output: 7 });
    },
  });
}

describe("callModel", () => {
  it("streams deltas and reports usage and cost from the price table", async () => {
    const deltas: string[] = [];
    const records: CallRecord[] = [];
    const r = await callModel({
      model: resolvedMock(scripted(["ok"])),
      purpose: "opening:politician",
      messages,
      onTextDelta: (d) => deltas.push(d),
      onRecord: (rec) => void records.push(rec),
    });
    expect(r.text).toBe("The claim holds.");
    expect(deltas.join("")).toBe(r.text);
    expect(deltas.length).toBe(3);
    expect(r.usage).toEqual({ promptTokens: 42, completionTokens: 7, cachedPromptTokens: 0 });
    // gpt-4o-mini: $0.15 / M input, $0.60 / M output
    expect(r.costUsd).toBeCloseTo((42 * 0.15 + 7 * 0.6) / 1e6, 12);
    expect(records).toEqual([expect.objectContaining({ purpose: "opening:politician", attempts: 1, usage: r.usage })]);
  });

  it("retries rate limits and server errors with backoff, then succeeds", async () => {
    const retries: number[] = [];
    const r = await callModel({
      model: resolvedMock(scripted([apiError(429), apiError(503), "ok"])),
      purpose: "t",
      messages,
      baseDelayMs: 1,
      maxRetries: 4,
      onRetry: ({ attempt }) => retries.push(attempt),
    });
    expect(r.text).toBe("The claim holds.");
    expect(r.attempts).toBe(3);
    expect(retries).toEqual([1, 2]);
  });

  it("tells watchers which retry of how many is coming, and why in words", async () => {
    const notes: Array<{ attempt: number; maxAttempts: number; reason: string }> = [];
    await callModel({
      model: resolvedMock(scripted([apiError(429), apiError(503), "ok"])),
      purpose: "t",
      messages,
      baseDelayMs: 1,
      maxRetries: 4,
      onRetry: ({ attempt, maxAttempts, reason }) => notes.push({ attempt, maxAttempts, reason }),
    });
    expect(notes).toEqual([
      { attempt: 1, maxAttempts: 5, reason: "a rate limit" },
      { attempt: 2, maxAttempts: 5, reason: "a server error (503)" },
    ]);
  });

  it("waits at least as long as retry-after asks", async () => {
    const delays: number[] = [];
    await callModel({
      model: resolvedMock(scripted([apiError(429, { "retry-after-ms": "120" }), "ok"])),
      purpose: "t",
      messages,
      baseDelayMs: 1,
      onRetry: ({ delayMs }) => delays.push(delayMs),
    });
    expect(delays[0]).toBeGreaterThanOrEqual(120);
  });

  it("does not retry a bad request and says which model failed", async () => {
    const records: CallRecord[] = [];
    const err = await callModel({
      model: resolvedMock(scripted([apiError(401), "ok"])),
      purpose: "t",
      messages,
      baseDelayMs: 1,
      onRecord: (rec) => void records.push(rec),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    expect((err as ModelCallError).message).toMatch(/^openai:gpt-4o-mini failed after 1 attempt: 401/);
    expect((err as ModelCallError).retryable).toBe(false);
    expect(records[0]?.error).toMatch(/401/);
  });

  it("gives up after maxRetries", async () => {
    const err = await callModel({
      model: resolvedMock(scripted([apiError(500)])),
      purpose: "t",
      messages,
      baseDelayMs: 1,
      maxRetries: 2,
    }).catch((e: unknown) => e);
    expect((err as ModelCallError).record.attempts).toBe(3);
    expect((err as ModelCallError).retryable).toBe(true);
  });

  it("treats a stalled stream as a timeout and retries it", async () => {
    const r = await callModel({
      model: resolvedMock(scripted(["hang", "ok"])),
      purpose: "t",
      messages,
      timeoutMs: 100,
      baseDelayMs: 1,
    });
    expect(r.text).toBe("The claim holds.");
    expect(r.attempts).toBe(2);
  });

  it("stops at once when the caller aborts, without retrying", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user pressed stop")), 50);
    const err = await callModel({
      model: resolvedMock(scripted(["hang", "ok"])),
      purpose: "t",
      messages,
      abortSignal: controller.signal,
      timeoutMs: 10_000,
    }).catch((e: unknown) => e);
    expect((err as ModelCallError).message).toBe("cancelled");
    expect((err as ModelCallError).record.attempts).toBe(1);
  });

  it("never runs more calls at once than the provider's limit", async () => {
    let inFlight = 0;
    let peak = 0;
    const model = new MockLanguageModelV3({
      doStream: async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 20));
        inFlight--;
        return textStream(["ok"]);
      },
    });
    // The limit is keyed by provider: "openai" is 8 by default, so use a provider whose limit is 1.
    const resolved = resolvedMock(model, { limitKey: "local", provider: "local", id: "local:test.gguf" });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => callModel({ model: resolved, purpose: "t", messages })),
    );
    expect(results.map((r) => r.text)).toEqual(Array(5).fill("ok"));
    expect(peak).toBe(1);
  });
});

import type { LanguageModelV3StreamPart, SharedV3ProviderMetadata } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import type { ResolvedModel } from "@/lib/ai/registry";
import { parseModelId } from "@/lib/ai/model-id";

/** A test double standing where the registry's model would: the AI SDK's own mock model. */
export function resolvedMock(model: MockLanguageModelV3, overrides: Partial<ResolvedModel> = {}): ResolvedModel {
  const id = overrides.id ?? "openai:gpt-4o-mini";
  return {
    id,
    ref: parseModelId(id),
    provider: "openai",
    limitKey: `test-${Math.random()}`,
    model,
    scoring: "none",
    ...overrides,
  };
}

export function usage(input: number, output: number) {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

/** The stream parts a provider sends for `chunks` of text. */
export function textStream(
  chunks: string[],
  opts: { input?: number; output?: number; providerMetadata?: SharedV3ProviderMetadata; delayMs?: number } = {},
) {
  const parts: LanguageModelV3StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
    ...chunks.map((delta) => ({ type: "text-delta" as const, id: "t", delta })),
    { type: "text-end", id: "t" },
    {
      type: "finish",
      finishReason: { unified: "stop", raw: "stop" },
      usage: usage(opts.input ?? 10, opts.output ?? chunks.length),
      providerMetadata: opts.providerMetadata,
    },
  ];
  return { stream: simulateReadableStream({ chunks: parts, chunkDelayInMs: opts.delayMs ?? null }) };
}

import type { SharedV3ProviderMetadata } from "@ai-sdk/provider";
import type { MetadataExtractor } from "@ai-sdk/openai-compatible";
import { z } from "zod";

/** One generated token with its top-k alternatives (log probabilities, natural log). */
export type TokenLogprob = { token: string; logprob: number; top: Array<{ token: string; logprob: number }> };

const openAILogprobsSchema = z.array(
  z.object({
    token: z.string(),
    logprob: z.number(),
    top_logprobs: z.array(z.object({ token: z.string(), logprob: z.number() })).nullish(),
  }),
);

/** The Chat Completions `logprobs.content` shape, as OpenAI and compatible servers return it. */
export function readOpenAILogprobs(raw: unknown): TokenLogprob[] | undefined {
  const parsed = openAILogprobsSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  return parsed.data.map((t) => ({ token: t.token, logprob: t.logprob, top: t.top_logprobs ?? [] }));
}

type Choice = { logprobs?: { content?: unknown[] | null } | null };

/**
 * @ai-sdk/openai-compatible drops `logprobs` from responses; this extractor keeps them under the
 * provider's metadata key, for both whole and streamed responses.
 */
export function compatibleLogprobsExtractor(providerName: string): MetadataExtractor {
  const wrap = (content: unknown[]): SharedV3ProviderMetadata => ({ [providerName]: { logprobs: content as never } });
  return {
    async extractMetadata({ parsedBody }) {
      const content = (parsedBody as { choices?: Choice[] })?.choices?.[0]?.logprobs?.content;
      return Array.isArray(content) ? wrap(content) : undefined;
    },
    createStreamExtractor() {
      const collected: unknown[] = [];
      return {
        processChunk(chunk) {
          const content = (chunk as { choices?: Choice[] })?.choices?.[0]?.logprobs?.content;
          if (Array.isArray(content)) collected.push(...content);
        },
        buildMetadata: () => (collected.length ? wrap(collected) : undefined),
      };
    },
  };
}

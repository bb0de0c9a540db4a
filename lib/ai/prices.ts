import fs from "node:fs";
import { z } from "zod";
import type { TokenUsage } from "@/db/types";
// Defined in db/types.ts (stored shapes flow down to db/); re-exported for lib's callers.
export type { TokenUsage } from "@/db/types";

/** US dollars per million tokens. */
export type Price = { input: number; output: number; cachedInput?: number };

/**
 * List prices of common hosted models (checked November 2026). Providers change prices: a user
 * overrides or extends this table with PRICES_FILE. Local and self-hosted models cost nothing
 * per token; an unknown hosted model has no price, and its cost is shown as unknown, never as 0.
 */
const BUILT_IN: Record<string, Price> = {
  "openai:gpt-4o-mini": { input: 0.15, output: 0.6, cachedInput: 0.075 },
  "openai:gpt-4o": { input: 2.5, output: 10, cachedInput: 1.25 },
  "openai:gpt-4.1": { input: 2, output: 8, cachedInput: 0.5 },
  "openai:gpt-4.1-mini": { input: 0.4, output: 1.6, cachedInput: 0.1 },
  "openai:gpt-4.1-nano": { input: 0.1, output: 0.4, cachedInput: 0.025 },
  "openai:gpt-5": { input: 1.25, output: 10, cachedInput: 0.125 },
  "openai:gpt-5-mini": { input: 0.25, output: 2, cachedInput: 0.025 },
  "openai:gpt-5-nano": { input: 0.05, output: 0.4, cachedInput: 0.005 },
  "anthropic:claude-haiku-4-5": { input: 1, output: 5, cachedInput: 0.1 },
  "anthropic:claude-sonnet-4-5": { input: 3, output: 15, cachedInput: 0.3 },
  "anthropic:claude-opus-4-1": { input: 15, output: 75, cachedInput: 1.5 },
  "anthropic:claude-3-5-haiku-latest": { input: 0.8, output: 4, cachedInput: 0.08 },
};

const priceFileSchema = z.record(
  z.string(),
  z.object({ input: z.number().min(0), output: z.number().min(0), cachedInput: z.number().min(0).optional() }),
);

export function loadPriceTable(pricesFile?: string): Record<string, Price> {
  if (!pricesFile) return BUILT_IN;
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(pricesFile, "utf8"));
  } catch (e) {
    throw new Error(`PRICES_FILE ${pricesFile}: cannot read JSON (${(e as Error).message})`);
  }
  const parsed = priceFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(
      `PRICES_FILE ${pricesFile}: at ${issue.path.join(".")}: ${issue.message}. Expected {"openai:gpt-4o-mini": {"input": 0.15, "output": 0.6}}`,
    );
  }
  return { ...BUILT_IN, ...parsed.data };
}

/** Cost in US dollars, or null when the model's price is unknown. */
export function costOf(modelId: string, usage: TokenUsage, table: Record<string, Price>): number | null {
  if (modelId.startsWith("local:") || modelId.startsWith("openai-compatible:"))
    return table[modelId] ? compute(table[modelId]!, usage) : 0;
  const price = table[modelId] ?? table[modelId.replace(/-\d{4}-\d{2}-\d{2}$/, "")];
  return price ? compute(price, usage) : null;
}

function compute(price: Price, usage: TokenUsage) {
  const cached = Math.min(usage.cachedPromptTokens ?? 0, usage.promptTokens);
  const fresh = usage.promptTokens - cached;
  return (
    (fresh * price.input + cached * (price.cachedInput ?? price.input) + usage.completionTokens * price.output) / 1e6
  );
}

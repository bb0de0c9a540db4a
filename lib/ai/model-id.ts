import { z } from "zod";

/**
 * Model ids name a provider and a model, e.g. `openai:gpt-4o-mini`, `anthropic:claude-haiku-4-5`,
 * `openai-compatible:ollama` (the model configured for that server) or
 * `openai-compatible:ollama/llama3.1:8b`, and `local:qwen2.5-1.5b-instruct-q4_k_m` or
 * `local:/models/my.gguf`. The same style names embedding models.
 */
export const PROVIDERS = ["openai", "anthropic", "openai-compatible", "local"] as const;
export type ProviderKind = (typeof PROVIDERS)[number];

export type ModelRef = {
  id: string;
  provider: ProviderKind;
  /** Model name at the provider; for openai-compatible, the part after `<server>/` (may be empty). */
  name: string;
  /** openai-compatible only: the configured server's name. */
  server?: string;
};

export const modelIdSchema = z
  .string()
  .trim()
  .min(1, "model id is empty")
  .transform((id, ctx): ModelRef => {
    const colon = id.indexOf(":");
    const provider = colon > 0 ? id.slice(0, colon) : "";
    const rest = colon > 0 ? id.slice(colon + 1).trim() : "";
    if (!(PROVIDERS as readonly string[]).includes(provider) || !rest) {
      ctx.addIssue({
        code: "custom",
        message: `"${id}" is not a model id: use ${PROVIDERS.map((p) => `${p}:<model>`).join(", ")}`,
      });
      return z.NEVER;
    }
    if (provider === "openai-compatible") {
      const slash = rest.indexOf("/");
      const server = slash === -1 ? rest : rest.slice(0, slash);
      return { id, provider, server, name: slash === -1 ? "" : rest.slice(slash + 1) };
    }
    return { id, provider: provider as ProviderKind, name: rest };
  });

export function parseModelId(id: string): ModelRef {
  const r = modelIdSchema.safeParse(id);
  if (!r.success) throw new Error(r.error.issues.map((i) => i.message).join("; "));
  return r.data;
}

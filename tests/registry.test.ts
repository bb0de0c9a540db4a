import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { parseModelId } from "@/lib/ai/model-id";
import { compatibleLogprobsExtractor } from "@/lib/ai/logprobs";
import { configuredModelIds, modelIdForRole, resolveModel } from "@/lib/ai/registry";
import { resolveEmbedder } from "@/lib/embeddings/registry";

const base = parseConfig({}, "/srv/cp");

describe("model ids", () => {
  it("parses every provider's form", () => {
    expect(parseModelId("openai:gpt-4o-mini")).toMatchObject({ provider: "openai", name: "gpt-4o-mini" });
    expect(parseModelId("openai-compatible:ollama")).toMatchObject({
      provider: "openai-compatible",
      server: "ollama",
      name: "",
    });
    expect(parseModelId("openai-compatible:ollama/llama3.1:8b")).toMatchObject({
      server: "ollama",
      name: "llama3.1:8b",
    });
    expect(parseModelId("local:/models/q.gguf")).toMatchObject({ provider: "local", name: "/models/q.gguf" });
  });

  it("rejects what is not a model id, listing the forms", () => {
    expect(() => parseModelId("gpt-4o")).toThrow(/use openai:<model>, anthropic:<model>/);
    expect(() => parseModelId("mistral:large")).toThrow(/not a model id/);
    expect(() => parseModelId("openai:")).toThrow(/not a model id/);
  });
});

describe("registry", () => {
  it("names the variable to set when a provider has no key", () => {
    expect(() => resolveModel("openai:gpt-4o-mini", base)).toThrow(/OPENAI_API_KEY is not set/);
    expect(() => resolveModel("anthropic:claude-haiku-4-5", base)).toThrow(/ANTHROPIC_API_KEY is not set/);
    expect(() => resolveModel("openai-compatible:ollama", base)).toThrow(/OPENAI_COMPATIBLE_OLLAMA_BASE_URL/);
  });

  it("knows which providers give option probabilities", () => {
    const config = parseConfig(
      {
        OPENAI_API_KEY: "sk-test",
        ANTHROPIC_API_KEY: "sk-ant-test",
        OPENAI_COMPATIBLE_VLLM_BASE_URL: "http://127.0.0.1:8000/v1",
        OPENAI_COMPATIBLE_LMS_BASE_URL: "http://127.0.0.1:1234/v1",
        OPENAI_COMPATIBLE_LMS_LOGPROBS: "false",
      },
      "/srv/cp",
    );
    expect(resolveModel("openai:gpt-4o-mini", config).scoring).toBe("top-logprobs");
    expect(resolveModel("anthropic:claude-haiku-4-5", config).scoring).toBe("none");
    expect(resolveModel("openai-compatible:vllm/qwen", config)).toMatchObject({
      scoring: "top-logprobs",
      limitKey: "openai-compatible:vllm",
    });
    expect(resolveModel("openai-compatible:lms/qwen", config).scoring).toBe("none");
    expect(resolveModel("local:qwen2.5-1.5b-instruct-q4_k_m", config).scoring).toBe("next-token");
    expect(resolveModel("openai-compatible:vllm/qwen", config).logprobsOptions?.(5)).toEqual({
      "compat-vllm": { logprobs: true, top_logprobs: 5 },
    });
  });

  it("requires a model name for an OpenAI-compatible server without a default", () => {
    const config = parseConfig({ OPENAI_COMPATIBLE_VLLM_BASE_URL: "http://127.0.0.1:8000/v1" }, "/srv/cp");
    expect(() => resolveModel("openai-compatible:vllm", config)).toThrow(/OPENAI_COMPATIBLE_VLLM_MODEL/);
  });

  it("picks a role's model: explicit, then ROLE_MODELS, then DEFAULT_MODEL", () => {
    const config = parseConfig({ DEFAULT_MODEL: "openai:gpt-4o-mini", ROLE_MODELS: "judge=openai:gpt-4o" }, "/srv/cp");
    expect(modelIdForRole("judge", undefined, config)).toBe("openai:gpt-4o");
    expect(modelIdForRole("politician", undefined, config)).toBe("openai:gpt-4o-mini");
    expect(modelIdForRole("politician", "local:x.gguf", config)).toBe("local:x.gguf");
    expect(configuredModelIds(config)).toEqual(["openai:gpt-4o-mini", "openai:gpt-4o"]);
    expect(() => modelIdForRole("judge", undefined, base)).toThrow(/set DEFAULT_MODEL/);
  });
});

describe("openai-compatible logprobs", () => {
  const extractor = compatibleLogprobsExtractor("compat-vllm");
  const content = [{ token: "STOP", logprob: -0.1, top_logprobs: [{ token: "STOP", logprob: -0.1 }] }];

  it("keeps logprobs from a whole response", async () => {
    expect(await extractor.extractMetadata({ parsedBody: { choices: [{ logprobs: { content } }] } })).toEqual({
      "compat-vllm": { logprobs: content },
    });
    expect(await extractor.extractMetadata({ parsedBody: { choices: [{}] } })).toBeUndefined();
  });

  it("collects logprobs across streamed chunks", () => {
    const s = extractor.createStreamExtractor();
    s.processChunk({ choices: [{ logprobs: { content } }] });
    s.processChunk({ choices: [{ logprobs: { content } }] });
    s.processChunk({ choices: [{ delta: {} }] });
    expect(s.buildMetadata()).toEqual({ "compat-vllm": { logprobs: [...content, ...content] } });
  });
});

describe("embedding registry", () => {
  it("embeds offline with the model shipped in npm, and similar sentences are closer", async () => {
    const e = resolveEmbedder("local:use-lite", base);
    const [a, b, c] = await e.embed([
      "Unemployment fell to 3.5 percent last year.",
      "Last year the jobless rate dropped to three and a half percent.",
      "The recipe needs two cups of flour.",
    ]);
    const cos = (x: number[], y: number[]) =>
      x.reduce((s, v, i) => s + v * y[i]!, 0) / Math.hypot(...x) / Math.hypot(...y);
    expect(a).toHaveLength(512);
    expect(cos(a!, b!)).toBeGreaterThan(cos(a!, c!) + 0.3);
  });

  it("refuses models it does not know and providers without embeddings", () => {
    expect(() => resolveEmbedder("local:bge-base", base)).toThrow(/available: local:minilm-l6, (.*, )?local:use-lite/);
    expect(() => resolveEmbedder("anthropic:claude", base)).toThrow(/has no embedding models/);
    expect(() => resolveEmbedder("openai:text-embedding-3-small", base)).toThrow(/OPENAI_API_KEY/);
  });
});

import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config";

function problemsOf(env: Record<string, string>) {
  try {
    parseConfig(env, "/srv/cp");
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error("expected a ConfigError");
}

describe("configuration", () => {
  it("defaults to the embedded database under ./.data", () => {
    const c = parseConfig({}, "/srv/cp");
    expect(c.database).toEqual({ backend: "pglite", dataDir: "/srv/cp/.data/pglite" });
    expect(c.embeddingModel).toBe("local:minilm-l6");
    expect(c.local.cacheDir).toBe("/srv/cp/.data/models");
    expect(c.llm.concurrency.local).toBe(1);
  });

  it("switches to PostgreSQL when DATABASE_URL is set", () => {
    const c = parseConfig({ DATABASE_URL: "postgres://u:p@db:5432/cp" }, "/srv/cp");
    expect(c.database).toEqual({ backend: "postgres", url: "postgres://u:p@db:5432/cp" });
  });

  it("names the variable that is wrong", () => {
    expect(problemsOf({ DATABASE_URL: "mysql://x" })[0]).toMatch(/^DATABASE_URL: .*postgres/);
    expect(problemsOf({ LLM_MAX_RETRIES: "many" })[0]).toMatch(/^LLM_MAX_RETRIES:/);
    expect(problemsOf({ LOCAL_MODEL_DOWNLOAD: "maybe" })[0]).toMatch(/^LOCAL_MODEL_DOWNLOAD:/);
    expect(problemsOf({ PROVIDER_CONCURRENCY: "openai=0" })[0]).toMatch(/^PROVIDER_CONCURRENCY: "openai=0"/);
    expect(problemsOf({ ROLE_MODELS: "judge" })[0]).toMatch(/^ROLE_MODELS: expected name=value/);
  });

  it("reports every problem at once, not one per start-up", () => {
    expect(problemsOf({ DATABASE_URL: "x", LOCAL_THREADS: "-1" })).toHaveLength(2);
  });

  it("treats empty values as unset", () => {
    expect(parseConfig({ DATABASE_URL: "", OPENAI_API_KEY: "" }, "/srv/cp").database.backend).toBe("pglite");
  });

  it("reads OpenAI-compatible servers by name", () => {
    const c = parseConfig(
      {
        OPENAI_COMPATIBLE_OLLAMA_BASE_URL: "http://127.0.0.1:11434/v1",
        OPENAI_COMPATIBLE_OLLAMA_MODEL: "llama3.1:8b",
        OPENAI_COMPATIBLE_MY_VLLM_BASE_URL: "http://gpu:8000/v1",
        OPENAI_COMPATIBLE_MY_VLLM_LOGPROBS: "false",
      },
      "/srv/cp",
    );
    expect(c.openaiCompatible.ollama).toMatchObject({
      baseURL: "http://127.0.0.1:11434/v1",
      model: "llama3.1:8b",
      logprobs: true,
    });
    expect(c.openaiCompatible["my-vllm"]).toMatchObject({ baseURL: "http://gpu:8000/v1", logprobs: false });
  });

  it("requires a base URL for an OpenAI-compatible server", () => {
    expect(problemsOf({ OPENAI_COMPATIBLE_LMSTUDIO_MODEL: "qwen" })[0]).toMatch(
      /OPENAI_COMPATIBLE_LMSTUDIO_BASE_URL is required/,
    );
    expect(problemsOf({ OPENAI_COMPATIBLE_X_BASE_URL: "not a url" })[0]).toMatch(
      /^OPENAI_COMPATIBLE_X_BASE_URL: must be a URL/,
    );
  });

  it("parses per-role models and provider limits", () => {
    const c = parseConfig(
      { ROLE_MODELS: "judge=openai:gpt-4o, politician=local:x.gguf", PROVIDER_CONCURRENCY: "openai=2" },
      "/srv/cp",
    );
    expect(c.models.roles).toEqual({ judge: "openai:gpt-4o", politician: "local:x.gguf" });
    expect(c.llm.concurrency.openai).toBe(2);
    expect(c.llm.concurrency.anthropic).toBe(4);
  });
});

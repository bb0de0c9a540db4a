import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config";
import { assertWebModels, ModelNotAllowedError, webSelectableModels } from "@/lib/ai/web-models";

describe("models the web may pick", () => {
  const config = parseConfig(
    {
      DEFAULT_MODEL: "openai:gpt-4o-mini",
      ROLE_MODELS: "judge=openai:gpt-4o",
      WEB_MODELS: " anthropic:claude-haiku-4-5 , openai:gpt-4o-mini",
    },
    "/tmp",
  );

  it("are DEFAULT_MODEL, the ROLE_MODELS values and WEB_MODELS, once each", () => {
    expect(webSelectableModels(config)).toEqual(["openai:gpt-4o-mini", "openai:gpt-4o", "anthropic:claude-haiku-4-5"]);
  });

  it("accepts those and empty choices, refuses anything else naming the role", () => {
    expect(() =>
      assertWebModels({ judge: "openai:gpt-4o", politician: " anthropic:claude-haiku-4-5 ", scientist: "" }, config),
    ).not.toThrow();
    const e = (() => {
      try {
        assertWebModels({ judge: "openai:gpt-4o", "domain-expert": "local:./models/x.gguf" }, config);
      } catch (err) {
        return err as ModelNotAllowedError;
      }
    })();
    expect(e).toBeInstanceOf(ModelNotAllowedError);
    expect(e!.role).toBe("domain-expert");
    expect(e!.message).toMatch(
      /^"local:\.\/models\/x\.gguf" \(domain expert\) is not a model this server offers\. Choose one of: openai:gpt-4o-mini, openai:gpt-4o, anthropic:claude-haiku-4-5/,
    );
  });

  it("says how to add one when none is configured", () => {
    expect(() => assertWebModels({ judge: "openai:gpt-4o" }, parseConfig({}, "/tmp"))).toThrow(
      /no model is configured for the web yet\. An admin adds a model under Language models on the Admin page \(no restart\), or lists its id in WEB_MODELS/,
    );
  });

  it("refuse a WEB_MODELS entry that is not a model id at start-up", () => {
    expect(() => parseConfig({ WEB_MODELS: "openai:gpt-4o, gpt-4o" }, "/tmp")).toThrow(ConfigError);
  });
});

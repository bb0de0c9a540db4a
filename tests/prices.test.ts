import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { costOf, loadPriceTable } from "@/lib/ai/prices";

describe("prices", () => {
  const table = loadPriceTable();

  it("prices prompt, cached prompt and completion tokens separately", () => {
    // gpt-4o: 2.50 input, 1.25 cached input, 10 output per million
    expect(
      costOf("openai:gpt-4o", { promptTokens: 1000, cachedPromptTokens: 400, completionTokens: 100 }, table),
    ).toBeCloseTo((600 * 2.5 + 400 * 1.25 + 100 * 10) / 1e6, 12);
  });

  it("matches dated snapshots to their model", () => {
    expect(costOf("openai:gpt-4o-mini-2024-07-18", { promptTokens: 1e6, completionTokens: 0 }, table)).toBeCloseTo(
      0.15,
    );
  });

  it("says unknown (null) for an unknown hosted model rather than 0", () => {
    expect(costOf("openai:some-new-model", { promptTokens: 10, completionTokens: 10 }, table)).toBeNull();
  });

  it("counts local and self-hosted models as free", () => {
    expect(costOf("local:qwen2.5-1.5b-instruct-q4_k_m", { promptTokens: 10, completionTokens: 10 }, table)).toBe(0);
  });

  it("lets PRICES_FILE override and extend the table, and rejects a malformed one with the path", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-prices-"));
    const good = path.join(dir, "good.json");
    fs.writeFileSync(
      good,
      JSON.stringify({
        "openai:gpt-4o-mini": { input: 1, output: 2 },
        "openai-compatible:vllm": { input: 0.1, output: 0.1 },
      }),
    );
    const t = loadPriceTable(good);
    expect(costOf("openai:gpt-4o-mini", { promptTokens: 1e6, completionTokens: 1e6 }, t)).toBeCloseTo(3);
    expect(costOf("openai-compatible:vllm", { promptTokens: 1e6, completionTokens: 0 }, t)).toBeCloseTo(0.1);
    const bad = path.join(dir, "bad.json");
    fs.writeFileSync(bad, JSON.stringify({ "openai:x": { input: "cheap" } }));
    expect(() => loadPriceTable(bad)).toThrow(/bad\.json: at openai:x\.input/);
  });
});

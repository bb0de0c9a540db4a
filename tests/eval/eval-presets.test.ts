import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { confirmStart, estimateLines, runRequest } from "@/lib/cli/commands/eval";
import { PRESET_NAMES, PRESETS, TOOLMAD_SEED, type Preset } from "@/lib/eval/presets";

const FIX = path.join(__dirname, "..", "fixtures", "datasets");
const base = { model: [] as string[], k: 20, concurrency: 4, resamples: 1000 };

describe("presets name their protocol, sample and the paper's rows", () => {
  it("RADAR's presets are RADAR's, as before", () => {
    for (const name of ["radar-politifact-gold", "radar-politifact-retrieved", "radar-averitec"] as const) {
      const p: Preset = PRESETS[name];
      expect(p.protocol).toBe("radar");
      expect(p.sample).toBeUndefined();
      expect(p.references.length).toBeGreaterThan(0);
    }
    expect(PRESETS["radar-averitec"].evidence).toEqual({ mode: "gold" });
  });

  it("Tool-MAD's draw 200 claims with the fixed seed and carry tool-mad.md §7's gpt-4o-mini v2 row (exact match, n = 200)", () => {
    const expected = { "toolmad-fever": ["fever", 0.73, "FEVER"], "toolmad-feverous": ["fever", 0.715, "FEVEROUS"], "toolmad-averitec": ["averitec", 0.62, "AVeriTeC"], "toolmad-faviq": ["faviq", 0.775, "FaVIQ"] } as const;
    expect(PRESET_NAMES.filter((n) => n.startsWith("toolmad-")).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, [labels, value, dataset]] of Object.entries(expected)) {
      const p: Preset = PRESETS[name as keyof typeof expected];
      expect(p.protocol).toBe("tool-mad");
      expect(p.config).toEqual({ labels });
      expect(p.sample).toEqual({ sample: "random", limit: 200, seed: TOOLMAD_SEED });
      expect(p.references.find((r) => r.system === "Tool-MAD v2" && r.model === "gpt-4o-mini")).toMatchObject({ dataset, n: 200, metric: "accuracy", value });
    }
    expect(PRESETS["toolmad-feverous"].evidence).toEqual({ mode: "tools", corpus: "feverous-gold" });
  });
});

describe("eval's run request from options and preset", () => {
  it("toolmad-averitec: AVeriTeC's 4 labels stored apart from RADAR's claims, the preset's protocol, sample and seed", async () => {
    const { input, seed } = await runRequest({ ...base, preset: "toolmad-averitec", data: path.join(FIX, "averitec") });
    expect(input).toMatchObject({ protocol: "tool-mad", dataset: "averitec-4way", config: { labels: "averitec" }, evidence: { mode: "tools", corpus: null }, sample: { sample: "random", limit: 200, seed: TOOLMAD_SEED } });
    expect(seed).toBe(TOOLMAD_SEED);
    expect(input.claims.map((c) => c.label)).toEqual(["Supported", "Refuted", "Not Enough Evidence", "Conflicting Evidence/Cherrypicking"]);
    expect(input.references).toBe(PRESETS["toolmad-averitec"].references);
  });

  it("options given explicitly win: seed, limit, the RAG corpus, configuration", async () => {
    const { input } = await runRequest({ ...base, preset: "toolmad-fever", data: FIX, seed: 9, limit: 2, corpus: "wiki", config: { rounds: 2 } });
    expect(input).toMatchObject({ dataset: "fever", evidence: { mode: "tools", corpus: "wiki" }, sample: { sample: "random", limit: 2, seed: 9 }, config: { labels: "fever", rounds: 2 } });
    expect(input.claims).toHaveLength(6);
  });

  it("--protocol tool-mad without a preset searches with its tools; RADAR still needs to be told where evidence comes from", async () => {
    const { input } = await runRequest({ ...base, protocol: "tool-mad", dataset: "fever", data: path.join(FIX, "fever") });
    expect(input).toMatchObject({ protocol: "tool-mad", evidence: { mode: "tools", corpus: null }, config: {}, references: [] });
    await expect(runRequest({ ...base, dataset: "fever", data: path.join(FIX, "fever") })).rejects.toThrow(/Say where the evidence comes from/);
  });

  it("toolmad-faviq says the data cannot be had here and where it comes from; with the file it runs", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "cp-faviq-"));
    await expect(runRequest({ ...base, preset: "toolmad-faviq", data: empty })).rejects.toThrow(/FaVIQ could not be obtained on this machine .* github\.com\/faviq\/faviq/s);
    await expect(runRequest({ ...base, preset: "toolmad-faviq" })).rejects.toThrow(/--data .*FaVIQ could not be obtained/s);
    const { input } = await runRequest({ ...base, preset: "toolmad-faviq", data: path.join(FIX, "faviq") });
    expect(input.claims.map((c) => c.label)).toEqual(["SUPPORTS", "REFUTES", "SUPPORTS"]);
  });
});

describe("the cost preview never blocks a pipe or CI", () => {
  const stdin = Object.getOwnPropertyDescriptor(process.stdin, "isTTY");
  const stderr = Object.getOwnPropertyDescriptor(process.stderr, "isTTY");
  afterEach(() => {
    if (stdin) Object.defineProperty(process.stdin, "isTTY", stdin);
    else delete (process.stdin as { isTTY?: boolean }).isTTY;
    if (stderr) Object.defineProperty(process.stderr, "isTTY", stderr);
    else delete (process.stderr as { isTTY?: boolean }).isTTY;
  });

  it("starts without reading input when stdin is not a terminal, even if stderr is one (a read would hang the test)", async () => {
    Object.defineProperty(process.stdin, "isTTY", { value: false, configurable: true });
    Object.defineProperty(process.stderr, "isTTY", { value: true, configurable: true });
    await expect(confirmStart(undefined, false)).resolves.toBe(true);
  });

  it("says claims × the per-claim estimate, and an unknown price as unknown, never $0", () => {
    const perClaim = { llmCalls: 31, toolCalls: 6, promptTokens: 20000, completionTokens: 3000 };
    const text = estimateLines({ claims: 200, perClaim, llmCalls: 6200, toolCalls: 1200, promptTokens: 4_000_000, completionTokens: 600_000, costUsd: null, unpricedModels: ["openai:new"], models: { judge: "openai:new" } });
    expect(text).toMatch(/200 claims × the protocol's estimate per claim \(31 LLM calls, 6 tool calls, 23,000 tokens/);
    expect(text).toMatch(/= 6,200 LLM calls, 1,200 tool calls, 4,000,000 prompt \+ 600,000 completion tokens, cost unknown \(no price for openai:new/);
    expect(estimateLines({ claims: 1, perClaim, llmCalls: 31, toolCalls: 6, promptTokens: 20000, completionTokens: 3000, costUsd: 0.0048, unpricedModels: [], models: {} })).toMatch(/about \$0\.0048/);
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { confirmStart, estimateLines, runRequest } from "@/lib/cli/commands/eval";
import { ZOFIA_PRESETS } from "@/lib/debate/zofia/config";
import { PRESET_NAMES, PRESETS, TOOLMAD_SEED, ZOFIA_SEED, type Preset } from "@/lib/eval/presets";
import { estimateRun } from "@/lib/eval/run";
import { selectClaims } from "@/lib/eval/sample";

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

  it("Tool-MAD's draw 200 claims with the fixed seed and carry the paper's Table III gpt-4o-mini v2 row (exact match, n = 200)", () => {
    const expected = {
      "toolmad-fever": ["fever", 0.73, "FEVER"],
      "toolmad-feverous": ["fever", 0.715, "FEVEROUS"],
      "toolmad-averitec": ["averitec", 0.62, "AVeriTeC"],
      "toolmad-faviq": ["faviq", 0.775, "FaVIQ"],
    } as const;
    expect(PRESET_NAMES.filter((n) => n.startsWith("toolmad-")).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, [labels, value, dataset]] of Object.entries(expected)) {
      const p: Preset = PRESETS[name as keyof typeof expected];
      expect(p.protocol).toBe("tool-mad");
      expect(p.config).toEqual({ labels });
      expect(p.sample).toEqual({ sample: "random", limit: 200, seed: TOOLMAD_SEED });
      expect(p.references.find((r) => r.system === "Tool-MAD v2" && r.model === "gpt-4o-mini")).toMatchObject({
        dataset,
        n: 200,
        metric: "accuracy",
        value,
      });
    }
    expect(PRESETS["toolmad-feverous"].evidence).toEqual({ mode: "tools", corpus: "feverous-gold" });
  });

  it("ZoFia's search with their own tools, with the paper's defaults, every article, and Table 1's rows (accuracy and macro-F1, n not reported)", () => {
    for (const [name, dataset] of [
      ["zofia-politifact", "politifact-news"],
      ["zofia-gossipcop", "gossipcop"],
    ] as const) {
      const p: Preset = PRESETS[name];
      expect(p).toMatchObject({ protocol: "zofia", dataset, evidence: { mode: "tools", corpus: null } });
      expect(p.config).toEqual(ZOFIA_PRESETS[name]);
      // The paper scores whole test sets: every article, no limit, in a seeded order so --limit takes both classes.
      expect(p.sample).toEqual({ sample: "random", seed: ZOFIA_SEED });
      expect(p.caveat).toMatch(/corpus stand-in.*Wikipedia is off.*not comparable/s);
      expect(p.references.every((r) => r.n === null)).toBe(true);
    }
    expect(PRESETS["zofia-politifact"].convert).toEqual({ source: "politifact-pp" });
    const row = (name: "zofia-politifact" | "zofia-gossipcop", system: string, model: string) =>
      Object.fromEntries(
        PRESETS[name].references
          .filter((r) => r.system === system && r.model === model)
          .map((r) => [r.metric, r.value]),
      );
    expect(row("zofia-politifact", "ZoFia", "DeepSeek-V3")).toEqual({ accuracy: 0.9152, macro_f1: 0.8788 });
    expect(row("zofia-politifact", "ZoFia", "gpt-4o-mini")).toEqual({ accuracy: 0.7528, macro_f1: 0.7519 });
    expect(row("zofia-politifact", "single model", "DeepSeek-V3")).toEqual({ accuracy: 0.7899, macro_f1: 0.4024 });
    expect(row("zofia-politifact", "single model", "gpt-4o-mini")).toEqual({ accuracy: 0.7358, macro_f1: 0.4166 });
    expect(row("zofia-politifact", "FactAgent", "(as cited by the paper)")).toEqual({
      accuracy: 0.8059,
      macro_f1: 0.7006,
    });
    expect(row("zofia-politifact", "DKFND", "(as cited by the paper)")).toEqual({ accuracy: 0.87, macro_f1: 0.8243 });
    expect(row("zofia-gossipcop", "ZoFia", "DeepSeek-V3")).toEqual({ accuracy: 0.7904, macro_f1: 0.6222 });
    expect(row("zofia-gossipcop", "ZoFia", "gpt-4o-mini")).toEqual({ accuracy: 0.689, macro_f1: 0.562 });
    expect(PRESETS["zofia-politifact"].references).toHaveLength(12);
    expect(PRESETS["zofia-gossipcop"].references.every((r) => r.dataset === "GossipCop")).toBe(true);
  });
});

describe("eval's run request from options and preset", () => {
  it("toolmad-averitec: AVeriTeC's 4 labels stored apart from RADAR's claims, the preset's protocol, sample and seed", async () => {
    const { input, seed } = await runRequest({ ...base, preset: "toolmad-averitec", data: path.join(FIX, "averitec") });
    expect(input).toMatchObject({
      protocol: "tool-mad",
      dataset: "averitec-4way",
      config: { labels: "averitec" },
      evidence: { mode: "tools", corpus: null },
      sample: { sample: "random", limit: 200, seed: TOOLMAD_SEED },
    });
    expect(seed).toBe(TOOLMAD_SEED);
    expect(input.claims.map((c) => c.label)).toEqual([
      "Supported",
      "Refuted",
      "Not Enough Evidence",
      "Conflicting Evidence/Cherrypicking",
    ]);
    expect(input.references).toBe(PRESETS["toolmad-averitec"].references);
  });

  it("options given explicitly win: seed, limit, the RAG corpus, configuration", async () => {
    const { input } = await runRequest({
      ...base,
      preset: "toolmad-fever",
      data: FIX,
      seed: 9,
      limit: 2,
      corpus: "wiki",
      config: { rounds: 2 },
    });
    expect(input).toMatchObject({
      dataset: "fever",
      evidence: { mode: "tools", corpus: "wiki" },
      sample: { sample: "random", limit: 2, seed: 9 },
      config: { labels: "fever", rounds: 2 },
    });
    expect(input.claims).toHaveLength(6);
  });

  it("--protocol tool-mad without a preset searches with its tools; RADAR still needs to be told where evidence comes from", async () => {
    const { input } = await runRequest({
      ...base,
      protocol: "tool-mad",
      dataset: "fever",
      data: path.join(FIX, "fever"),
    });
    expect(input).toMatchObject({
      protocol: "tool-mad",
      evidence: { mode: "tools", corpus: null },
      config: {},
      references: [],
    });
    await expect(runRequest({ ...base, dataset: "fever", data: path.join(FIX, "fever") })).rejects.toThrow(
      /Say where the evidence comes from/,
    );
  });

  it("toolmad-faviq says the data comes as a zip and from where; with the file it runs", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "cp-faviq-"));
    await expect(runRequest({ ...base, preset: "toolmad-faviq", data: empty })).rejects.toThrow(
      /FaVIQ is published as a zip file.* github\.com\/faviq\/faviq/s,
    );
    await expect(runRequest({ ...base, preset: "toolmad-faviq" })).rejects.toThrow(
      /FaVIQ A set .* is not installed\. .*unzip it.*--data <folder>/s,
    );
    const { input } = await runRequest({ ...base, preset: "toolmad-faviq", data: path.join(FIX, "faviq") });
    expect(input.claims.map((c) => c.label)).toEqual(["SUPPORTS", "REFUTES", "SUPPORTS"]);
  });
});

describe("ZoFia's presets read news articles with their headlines and dates", () => {
  const ZOFIA_MODELS = ["linguist", "expert", "extractor", "verifier", "pro", "con", "judge"].map(
    (r) => `${r}=openai:gpt-4o-mini`,
  );

  it("zofia-politifact imports PolitiFact++ (fake, then real) with titles, searches with its tools and carries the paper's rows", async () => {
    const { input } = await runRequest({
      ...base,
      preset: "zofia-politifact",
      data: path.join(FIX, "politifact_news"),
    });
    expect(input).toMatchObject({
      protocol: "zofia",
      dataset: "politifact-news",
      evidence: { mode: "tools", corpus: null },
      config: ZOFIA_PRESETS["zofia-politifact"],
      sample: { sample: "random", seed: ZOFIA_SEED },
    });
    expect(input.sample?.limit).toBeUndefined();
    // Every article is run; the file's order is kept in the claims, the draw only orders them.
    expect(selectClaims(input.claims, input.sample)).toHaveLength(4);
    expect(input.claims.map((c) => [c.id, c.label])).toEqual([
      ["politifact9101", "FAKE"],
      ["politifact9102", "FAKE"],
      ["politifact8101", "REAL"],
      ["politifact8102", "REAL"],
    ]);
    // The body is the claim text; the headline travels in metadata, where the debate runner reads it.
    expect(input.claims[0]).toMatchObject({
      claim: expect.stringMatching(/^Mayor Hannah Brooks secretly sold/),
      metadata: { title: "Mayor Hannah Brooks Sold Riverside Park To Oil Company" },
    });
    expect(input.references).toBe(PRESETS["zofia-politifact"].references);
  });

  it("--limit draws from both classes although the files list every fake article first", async () => {
    const { input } = await runRequest({
      ...base,
      preset: "zofia-politifact",
      data: path.join(FIX, "politifact_news"),
      limit: 2,
    });
    expect(input.sample).toEqual({ sample: "random", limit: 2, seed: ZOFIA_SEED });
    // File order would give FAKE, FAKE; the seeded draw over 4 fixtures takes one of each here.
    expect(
      selectClaims(input.claims, input.sample)
        .map((c) => c.label)
        .sort(),
    ).toEqual(["FAKE", "REAL"]);
  });

  it("the preset's cost preview counts ZoFia's 28 calls per article at five rounds", async () => {
    const { input } = await runRequest({
      ...base,
      preset: "zofia-politifact",
      data: path.join(FIX, "politifact_news"),
      limit: 2,
      model: ZOFIA_MODELS,
    });
    const e = estimateRun(input)!;
    expect(e.claims).toBe(2);
    expect(e.perClaim.llmCalls).toBe(28);
    expect(e.llmCalls).toBe(56);
    expect(estimateLines(e)).toMatch(/2 claims × the protocol's estimate per claim \(28 LLM calls/);
  });

  it("zofia-gossipcop says where GossipCop's text comes from when it is missing; FakeNewsNet's folders import", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "cp-gossipcop-"));
    await expect(runRequest({ ...base, preset: "zofia-gossipcop", data: empty })).rejects.toThrow(
      /no GossipCop articles here.*GossipCop's article text is not published.*FakeNewsNet/s,
    );
    await expect(runRequest({ ...base, preset: "zofia-gossipcop" })).rejects.toThrow(
      /--data .*GossipCop's article text is not published/s,
    );
    const { input } = await runRequest({
      ...base,
      preset: "zofia-gossipcop",
      data: path.join(FIX, "..", "politifact-news"),
    });
    expect(input).toMatchObject({ protocol: "zofia", dataset: "gossipcop" });
    expect(input.claims.map((c) => c.label).sort()).toEqual(["FAKE", "REAL"]);
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
    const text = estimateLines({
      claims: 200,
      perClaim,
      llmCalls: 6200,
      toolCalls: 1200,
      promptTokens: 4_000_000,
      completionTokens: 600_000,
      costUsd: null,
      unpricedModels: ["openai:new"],
      models: { judge: "openai:new" },
    });
    expect(text).toMatch(/200 claims × the protocol's estimate per claim \(31 LLM calls, 6 tool calls, 23,000 tokens/);
    expect(text).toMatch(
      /= 6,200 LLM calls, 1,200 tool calls, 4,000,000 prompt \+ 600,000 completion tokens, cost unknown \(no price for openai:new/,
    );
    expect(
      estimateLines({
        claims: 1,
        perClaim,
        llmCalls: 31,
        toolCalls: 6,
        promptTokens: 20000,
        completionTokens: 3000,
        costUsd: 0.0048,
        unpricedModels: [],
        models: {},
      }),
    ).toMatch(/about \$0\.0048/);
  });
});

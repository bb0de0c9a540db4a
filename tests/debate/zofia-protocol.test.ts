import { describe, expect, it } from "vitest";
import { loadPrompt } from "@/lib/prompts";
import { getProtocol, productLabel } from "@/lib/debate/protocols";
import type { ZofiaConfig } from "@/lib/debate/zofia/config";
import { estimateZofia, zofiaProtocol, zofiaSchema } from "@/lib/debate/zofia/protocol";

const config = zofiaSchema.parse({ ner: "rule", wiki: "none" }) as ZofiaConfig;

describe("the zofia protocol as registered", () => {
  it("finds its own evidence, reads whole articles, embeds, and searches the web", () => {
    const p = getProtocol("zofia");
    expect(p).toMatchObject({
      upfrontEvidence: false,
      embeds: true,
      tools: { search: "web" },
      limits: { claimChars: 20_000 },
    });
    expect(productLabel("zofia", "REAL")).toBe("TRUE");
    expect(productLabel("zofia", "FAKE")).toBe("FALSE");
    expect(Object.keys(p.presets).sort()).toEqual(["zofia-gossipcop", "zofia-politifact"]);
    // Presets are configurations the schema accepts as they are.
    for (const preset of Object.values(p.presets))
      expect(() => p.parseConfig({ ...preset, ner: "rule", wiki: "none" })).not.toThrow();
  });

  it("has every §2 number at the paper's default and every role at temperature 0", () => {
    expect(config).toMatchObject({
      nerTau: 0.8,
      nerStep: 0.1,
      nerFloor: 0.1,
      nerMin: 1,
      lambdaMin: 0.1,
      lambdaMax: 1,
      alpha: 0.3,
      beta: 2.5,
      gamma: 0.5,
      webMax: 10,
      wikiSentences: 3,
      verifyTopK: 5,
      thetaSim: 0.1,
      maxRounds: 5,
      mmrPrevInit: "one",
    });
    expect(config).toMatchObject({
      web: true,
      wikipedia: true,
      linguist: true,
      expert: true,
      claimVerification: true,
      debate: true,
    });
    const specs = zofiaProtocol.roleSpecs(config);
    expect(specs.map((r) => r.role)).toEqual(["linguist", "expert", "extractor", "verifier", "pro", "con", "judge"]);
    expect(specs.every((r) => r.temperature === 0)).toBe(true);
    expect(zofiaProtocol.roles({ ...config, linguist: false, debate: false })).toEqual([
      "expert",
      "extractor",
      "verifier",
      "judge",
    ]);
  });

  it("estimates 28 model calls at five rounds and 14 at one (spec §8), against the paper's output budget", () => {
    const full = estimateZofia(config);
    expect(full.llmCalls).toBe(28);
    expect(full.byRole).toMatchObject({
      linguist: { calls: 5 },
      expert: { calls: 2 },
      extractor: { calls: 1 },
      verifier: { calls: 5 },
      pro: { calls: 5 },
      con: { calls: 5 },
      judge: { calls: 5 },
    });
    expect(full.note).toMatch(/400–1,200/);
    // The fewest: three verifications and a judge sure after one round.
    expect(estimateZofia({ ...config, maxRounds: 1 }).llmCalls - 2).toBe(14);
    expect(estimateZofia({ ...config, debate: false }).byRole!.judge!.calls).toBe(1);
    // One web search, and a Wikipedia lookup per keyword only when an encyclopedia provider is set.
    expect(estimateZofia({ ...config, wiki: "wikipedia-rest" }).toolCalls).toBe(4);
    expect(estimateZofia({ ...config, wiki: "none" }).toolCalls).toBe(1);
  });

  it("each template exists, and each non-system template ends with its own format line", () => {
    const names = zofiaProtocol.templates(config);
    const formats = new Set<string>();
    for (const name of names) {
      const text = loadPrompt(name);
      if (name.includes("/system-")) continue;
      const last = text.split("\n").at(-1)!;
      if (name === "zofia/repair") {
        expect(last).toBe("{{format}}");
        continue;
      }
      expect(last.startsWith(`Format (${name}):`)).toBe(true);
      formats.add(last);
    }
    expect(formats.size).toBe(names.filter((n) => !n.includes("/system-") && n !== "zofia/repair").length);
    expect(loadPrompt("zofia/linguist")).toContain("DIMENSION: {{dimension}}");
    expect(loadPrompt("zofia/debater")).toContain("SIDE: {{side}}");
  });
});

describe("ZoFia's settings", () => {
  it("freezes NER_PROVIDER and WIKI_PROVIDER into a new debate's configuration, offline by default", async () => {
    const { parseConfig, resetConfigForTests } = await import("@/lib/config");
    const { vi } = await import("vitest");
    expect(parseConfig({}, "/tmp").zofia).toEqual({
      ner: { provider: "rule", url: undefined },
      wiki: { provider: "none" },
    });
    vi.stubEnv("NER_PROVIDER", "http");
    vi.stubEnv("NER_URL", "http://127.0.0.1:8090/ner");
    vi.stubEnv("WIKI_PROVIDER", "wikipedia-rest");
    resetConfigForTests();
    try {
      expect(zofiaSchema.parse({})).toMatchObject({ ner: "http", wiki: "wikipedia-rest" });
      // A stored choice is kept whatever the server says now.
      expect(zofiaSchema.parse({ ner: "rule", wiki: "none" })).toMatchObject({ ner: "rule", wiki: "none" });
    } finally {
      vi.unstubAllEnvs();
      resetConfigForTests();
    }
    expect(() => parseConfig({ NER_PROVIDER: "transformers" }, "/tmp")).toThrow(
      /transformers is not built into this server/,
    );
  });
});

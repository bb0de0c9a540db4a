import { describe, expect, it } from "vitest";
import { PROTOCOL_NAMES, getProtocol } from "@/lib/debate/protocols";
import { methodTexts } from "@/lib/methods/catalog";
const METHODS = methodTexts();
import { methodFacts } from "@/lib/methods/facts";
import { PRESETS } from "@/lib/eval/presets";

describe("the methods page's facts", () => {
  it("explains every protocol the product runs, once, and nothing else", () => {
    expect(METHODS.map((m) => m.protocol).sort()).toEqual([...PROTOCOL_NAMES].sort());
    for (const m of METHODS) expect(m.steps.length, m.name).toBeGreaterThan(1);
  });

  it("cites every paper by title, authors and venue, linking only to public addresses", () => {
    for (const m of METHODS) {
      expect(m.papers.length, m.name).toBeGreaterThan(0);
      for (const p of m.papers) {
        expect(p.title.length, m.name).toBeGreaterThan(20);
        expect(p.authors, p.title).toMatch(/\w/);
        expect(p.venue, p.title).toMatch(/arXiv:\d{4}\.\d{5}|submission|manuscript/);
        if (p.link) expect(p.link, p.title).toMatch(/^https:\/\//);
        expect(JSON.stringify(p), p.title).not.toMatch(/seed/i);
      }
    }
    const radar = METHODS.find((m) => m.protocol === "radar")!.papers[0]!;
    expect(radar).toMatchObject({
      venue: expect.stringContaining("arXiv:2604.19005"),
      link: "https://arxiv.org/abs/2604.19005",
    });
  });

  it("takes the cost from the protocol's own estimate, priced with gpt-4o-mini for every role", () => {
    const radar = getProtocol("radar");
    const est = radar.estimate!(radar.parseConfig({}));
    const facts = methodFacts("radar");
    expect(facts.cost!.llmCalls).toBe(est.llmCalls);
    expect(facts.cost!.tokens).toBe(est.promptTokens + est.completionTokens);
    // $0.15 per million prompt tokens, $0.60 per million completion tokens.
    expect(facts.cost!.usd).toBeCloseTo((est.promptTokens * 0.15 + est.completionTokens * 0.6) / 1e6, 10);
  });

  it("lists each paper number once, even when several presets quote it", () => {
    const facts = methodFacts("proclaim");
    const main = facts.references.filter((r) => r.system === "PROClaim, majority of 3 runs" && r.metric === "accuracy");
    // Every ablation preset quotes the main setting beside its own row.
    expect(
      Object.values(PRESETS).filter(
        (p) =>
          p.protocol === "proclaim" &&
          (p.references as readonly { system: string }[]).some((r) => r.system === "PROClaim, majority of 3 runs"),
      ).length,
    ).toBeGreaterThan(1);
    expect(main).toHaveLength(1);
    expect(main[0]!.value).toBeCloseTo(0.817, 10);
    // Tool-MAD: five systems on each of four datasets.
    expect(methodFacts("tool-mad").references).toHaveLength(20);
  });

  it("names the presets a user can actually pick", () => {
    expect(methodFacts("zofia").debatePresets).toEqual(Object.keys(getProtocol("zofia").presets));
    expect(methodFacts("tool-mad").evalPresets.map((p) => p.name)).toEqual([
      "toolmad-fever",
      "toolmad-feverous",
      "toolmad-averitec",
      "toolmad-faviq",
    ]);
  });
});

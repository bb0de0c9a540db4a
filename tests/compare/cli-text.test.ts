import { describe, expect, it } from "vitest";
import { comparisonText, parseMethods } from "@/lib/cli/commands/compare";
import { ensembleVote } from "@/lib/compare/ensemble";
import type { ComparisonView } from "@/lib/compare/types";

/** What `counterpoint debate --protocols` prints and how it reads --presets. */

describe("--protocols and --presets", () => {
  it("lines presets up with protocols by position, - for defaults", () => {
    expect(parseMethods("radar,tool-mad,zofia,proclaim", "-,toolmad-fever,-,single-judge")).toEqual([
      { protocol: "radar" },
      { protocol: "tool-mad", preset: "toolmad-fever" },
      { protocol: "zofia" },
      { protocol: "proclaim", preset: "single-judge" },
    ]);
    expect(parseMethods("radar, proclaim")).toEqual([{ protocol: "radar" }, { protocol: "proclaim" }]);
  });

  it("refuses a preset list of the wrong length and says how to write it", () => {
    expect(() => parseMethods("radar,proclaim", "single-judge")).toThrow(
      /one entry per protocol, in the same order \(2: radar, proclaim\); write - for a protocol's defaults/,
    );
  });
});

describe("the printed comparison", () => {
  const member = (
    protocol: string,
    label: string,
    productLabel: "TRUE" | "FALSE" | null,
    over: Partial<ComparisonView["members"][number]> = {},
  ): ComparisonView["members"][number] => ({
    debateId: `00000000-0000-4000-8000-00000000000${protocol.length}`,
    protocol,
    preset: null,
    title: `${protocol} (default settings)`,
    status: "completed",
    verdict: { label, productLabel, confidence: 0.8, reason: "because", decidedBy: "judge" },
    tokens: { prompt: 100, completion: 20 },
    calls: 3,
    costUsd: 0.0012,
    durationMs: 4200,
    error: null,
    ...over,
  });
  it("gives each method's verdict on its own scale and the product's, its cost, and the ensemble", () => {
    const view: ComparisonView = {
      id: "c1",
      createdAt: new Date(0),
      claim: { id: "k", text: "A claim." },
      corpus: null,
      members: [
        member("radar", "FALSE", "FALSE"),
        member("tool-mad", "SUPPORTS", "TRUE"),
        member("proclaim", "NOT SUPPORTED", "FALSE", {
          costUsd: null,
          status: "failed",
          verdict: null,
          error: "model refused",
        }),
      ],
      // One FALSE against one TRUE, the third failed: no majority, whatever the order.
      ensemble: ensembleVote("majority", [
        { debateId: "d-radar", protocol: "radar", productLabel: "FALSE", confidence: 0.8, pending: false },
        { debateId: "d-tool-mad", protocol: "tool-mad", productLabel: "TRUE", confidence: 0.8, pending: false },
        { debateId: "d-proclaim", protocol: "proclaim", productLabel: null, confidence: null, pending: false },
      ]),
      agreement: {
        allAgree: false,
        groups: [
          { productLabel: "FALSE", protocols: ["radar"] },
          { productLabel: "TRUE", protocols: ["tool-mad"] },
          { productLabel: null, protocols: ["proclaim"] },
        ],
      },
    };
    const text = comparisonText(view);
    expect(text).toContain("radar (default settings): FALSE (80%)");
    expect(text).toContain("tool-mad (default settings): SUPPORTS = TRUE (80%)");
    expect(text).toContain("3 calls · 120 tokens · $0.0012 · 4.2 s");
    expect(text).toContain("proclaim (default settings): failed");
    expect(text).toContain("model refused");
    expect(text).toContain(
      "Ensemble (majority): tie · Tie: 1 method says TRUE, 1 method says FALSE; no majority. 1 method gave no usable verdict and did not vote.",
    );
    expect(text).toContain("Groups: FALSE: radar | TRUE: tool-mad | no verdict: proclaim");
  });
});

import { describe, expect, it } from "vitest";
import { estimateFromForm, parseDebateForm } from "@/lib/debate/form";
import { PROCLAIM_FORM_PRESETS } from "@/lib/debate/proclaim/definition";
import { PRESETS } from "@/lib/debate/proclaim/config";

describe("PROClaim on the new-debate form", () => {
  it("sends an ablation preset plus the round cap, the corpus it searches (never pasted passages) and the token budget", () => {
    const input = parseDebateForm({
      protocol: "proclaim",
      claim: "A claim to check here.",
      proclaimPreset: "no-switch",
      maxRounds: "2",
      evidenceMode: "gold",
      goldEvidence: "ignored",
      corpus: "demo",
      budgetTokens: "50000",
    });
    expect(input.config).toEqual({ roleSwitch: false, maxRounds: 2 });
    expect(input.evidence).toMatchObject({ mode: "retrieved", corpus: "demo" });
    expect(input.budget).toEqual({ budgetTokens: 50000 });
    // The full method is no preset: nothing but the cap typed.
    expect(parseDebateForm({ protocol: "proclaim", claim: "x", proclaimPreset: "", maxRounds: "" }).config).toEqual({});
    // A cap that is not a number reaches validation as typed, so the error names the field.
    expect(parseDebateForm({ protocol: "proclaim", claim: "x", maxRounds: "lots" }).config).toEqual({
      maxRounds: "lots",
    });
    for (const p of PROCLAIM_FORM_PRESETS) expect(PRESETS[p.name]).toBeDefined();
  });

  it("shows the method's cost before starting: ~114 calls for the full method, fewer with two rounds, and refuses a cap out of range", () => {
    const full = estimateFromForm({ protocol: "proclaim", claim: "x" });
    if (!full.ok) throw new Error(full.message);
    expect(full.llmCalls).toBe(114);
    // The 114 is the expected case; the worst case is said beside it, as such.
    expect(full.worst!.llmCalls).toBeGreaterThan(300);
    expect(full.note).toContain("210,900");
    const short = estimateFromForm({ protocol: "proclaim", claim: "x", maxRounds: "2" });
    if (!short.ok) throw new Error(short.message);
    expect(short.llmCalls).toBeLessThan(full.llmCalls);
    // Two rounds of each trial are both the expected and the worst case: one number.
    expect(short.worst).toBeNull();
    const bad = estimateFromForm({ protocol: "proclaim", claim: "x", maxRounds: "50" });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toContain("maxRounds");
  });
});

import { describe, expect, it } from "vitest";
import { getProtocol } from "@/lib/debate/protocols";

const estimate = (raw: Record<string, unknown>) => {
  const p = getProtocol("radar");
  return p.estimate!(p.parseConfig(raw));
};

describe("RADAR's cost estimate", () => {
  // The call counts are the ones `bench debate` measured with the scripted model, every round run.
  it.each([
    ["expertise", {}, 11],
    ["position", { variant: "position" }, 11],
    ["three-agent", { variant: "three-agent" }, 14],
    ["four-agent", { variant: "four-agent" }, 18],
    ["single", { variant: "single" }, 1],
    ["cot", { variant: "cot" }, 1],
  ])("counts every call of a full %s debate", (_name, config, calls) => {
    expect(estimate(config).llmCalls).toBe(calls);
  });

  it("drops the checkpoints when early stopping is off, and adds two per extra rebuttal", () => {
    expect(estimate({ earlyStopping: "off" }).llmCalls).toBe(7);
    // Two more debater turns and one more checkpoint (stop agent + round judge).
    expect(estimate({ rebuttals: 2 }).llmCalls).toBe(15);
  });

  it("gives each role its own share, so each is priced with its own model", () => {
    const e = estimate({});
    expect(Object.keys(e.byRole!).sort()).toEqual(["judge", "politician", "round-judge", "scientist", "stop-agent"]);
    const sum = Object.values(e.byRole!).reduce((a, r) => a + r.promptTokens + r.completionTokens, 0);
    expect(sum).toBe(e.promptTokens + e.completionTokens);
    expect(e.note).toContain("1,835");
  });
});

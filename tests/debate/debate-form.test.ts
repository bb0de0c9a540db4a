import { describe, expect, it } from "vitest";
import { estimateFromForm, parseDebateForm } from "@/lib/debate/form";
import { estimateToolMad } from "@/lib/debate/tool-mad/protocol";
import { toolMadConfigSchema } from "@/lib/debate/tool-mad/config";

describe("the new-debate form", () => {
  it("turns Tool-MAD's fields into a preset plus the user's changes, a corpus and a budget", () => {
    const input = parseDebateForm({
      protocol: "tool-mad",
      claim: "A claim to check here.",
      preset: "toolmad-averitec",
      rounds: "2",
      gate: "off",
      agent_1: "rag",
      agent_2: "rag",
      agent_3: "none",
      evidenceMode: "gold",
      goldEvidence: "ignored",
      corpus: "demo",
      budgetTokens: "5000",
      maxCalls: "",
    });
    expect(input.protocol).toBe("tool-mad");
    expect(input.config).toEqual({ labels: "averitec", rounds: 2, gate: "off", agents: ["rag", "rag"] });
    // Tool-MAD's evidence is the corpus its agent searches, never pasted passages.
    expect(input.evidence).toMatchObject({ mode: "retrieved", corpus: "demo" });
    expect(input.budget).toEqual({ budgetTokens: 5000 });
  });

  it("keeps RADAR's fields as they were, with no budget when none is given", () => {
    const input = parseDebateForm({
      claim: "A claim to check here.",
      evidenceMode: "gold",
      goldEvidence: "p",
      variant: "position",
      rebuttals: "2",
      tauS: "0.1",
    });
    expect(input.protocol).toBeUndefined();
    expect(input.config).toEqual({ variant: "position", rebuttals: 2, thresholds: { tauS: 0.1, tauV: undefined } });
    expect(input.evidence).toEqual({ mode: "gold", text: "p" });
    expect(input.budget).toBeUndefined();
  });

  it("prices the protocol's estimate per role with that role's model, and names a model with no price", () => {
    const f = {
      protocol: "tool-mad",
      claim: "x",
      rounds: "2",
      "model_rag-agent": "openai:gpt-4o-mini",
      "model_search-agent": "openai-compatible:mystery",
      model_judge: "openai:gpt-4o",
    };
    const est = estimateFromForm(f);
    if (!est.ok) throw new Error(est.message);
    const expected = estimateToolMad(toolMadConfigSchema.parse({ rounds: 2 }));
    expect(est.llmCalls).toBe(expected.llmCalls);
    expect(est.toolCalls).toBe(4);
    const rag = est.byRole.find((r) => r.role === "rag-agent")!;
    const ragTokens = expected.byRole!["rag-agent"]!;
    expect(rag.costUsd).toBeCloseTo((ragTokens.promptTokens * 0.15 + ragTokens.completionTokens * 0.6) / 1e6, 10);
    // The scorer speaks with the judge's model.
    expect(est.byRole.find((r) => r.role === "scorer")!.model).toBe("openai:gpt-4o");
    // A self-hosted model costs nothing per token; an unknown hosted model is named, not counted as free.
    const unknown = estimateFromForm({ ...f, model_judge: "anthropic:claude-unknown" });
    if (!unknown.ok) throw new Error(unknown.message);
    expect(unknown.unpriced).toEqual(["anthropic:claude-unknown"]);
    expect(unknown.costUsd).toBeCloseTo(rag.costUsd!, 10);
  });

  it("gives no estimate for settings the protocol refuses, and says which", () => {
    const est = estimateFromForm({ protocol: "tool-mad", rounds: "9" });
    expect(est.ok).toBe(false);
    if (!est.ok) expect(est.message).toContain("rounds");
  });
});

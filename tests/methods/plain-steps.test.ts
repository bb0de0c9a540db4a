import { describe, expect, it } from "vitest";
import { plainStep, readStep, type StepTurn } from "@/lib/debate/definition";
import { findMethod, peopleVerdict } from "@/lib/debate/methods";
import { zofiaStep } from "@/lib/debate/zofia/steps";

const SEES = { article: true, web: true, wikipedia: true, llm: true };

/*
 * What /annotate and the comparison page show of a debate: every step kind each method stores, in
 * plain words. Machine output (JSON, the prompts' answer markers, bookkeeping lines) must not reach them.
 */

const MACHINE = /[{[]\s*"|\[(REASON|ANSWER|VERDICT)\]|^\s*(DECISION|QUERY)\s*:|Embedded \d+ texts?/m;

const gate = {
  agent: "rag-agent",
  F: 0.5,
  AR: 0.9,
  pass: false,
  tauF: 0.7,
  tauAR: 0.8,
  gateCompare: "gte",
  statements: [{ statement: "x", verdict: 1 }],
  questions: [],
  embedder: "local:minilm-l6",
  scorerKind: "llm",
  uncalibrated: false,
};
const embed = (role: string, meta: Record<string, unknown>): StepTurn => ({
  role,
  kind: "analysis",
  phase: "embed",
  content: "Embedded 4 texts with local:minilm-l6",
  metadata: { ...meta, embedder: "local:minilm-l6", texts: ["a"] },
});

const STEPS: Record<string, StepTurn[]> = {
  radar: [
    { role: "politician", kind: "speech", phase: "opening", content: "The figure is right [E1]." },
    {
      role: "stop-agent",
      kind: "checkpoint",
      phase: "checkpoint-1",
      content: "The scientist has not answered yet.\nDECISION: CONTINUE",
    },
    {
      role: "round-judge",
      kind: "checkpoint",
      phase: "checkpoint-1",
      content: "[REASON]: Mostly right.\n[VERDICT]: HALF-TRUE",
    },
    {
      role: "judge",
      kind: "judge",
      phase: "verdict",
      content: "[REASON]: The budget says 12 million [E1].\n[VERDICT]: FALSE",
    },
  ],
  "tool-mad": [
    {
      role: "rag-agent",
      kind: "analysis",
      phase: "query",
      content: "QUERY: council road budget 2023",
      metadata: { toolMad: { step: "query", agent: "rag-agent" } },
    },
    {
      role: "search-agent",
      kind: "tool",
      phase: "retrieve",
      content: "3 results",
      metadata: { toolMad: { step: "retrieve", agent: "search-agent" } },
    },
    {
      role: "rag-agent",
      kind: "speech",
      phase: "answer",
      content: "[REASON]: The budget shows 12 million [E1].\n[ANSWER]: REFUTES",
      metadata: { toolMad: { step: "answer", agent: "rag-agent" } },
    },
    {
      role: "scorer",
      kind: "analysis",
      phase: "faithfulness-statements:rag-agent",
      content: '{"statements":["The budget shows 12 million."]}',
      metadata: { toolMad: { step: "faithfulness-statements", agent: "rag-agent" } },
    },
    {
      role: "scorer",
      kind: "analysis",
      phase: "faithfulness-verdicts:rag-agent",
      content: '{"verdicts":[{"statement":"The budget shows 12 million.","verdict":1,"reason":"stated"}]}',
      metadata: { toolMad: { step: "faithfulness-verdicts", agent: "rag-agent" } },
    },
    embed("scorer", { toolMad: { step: "relevance-embed", agent: "rag-agent" } }),
    {
      role: "rag-agent",
      kind: "analysis",
      phase: "gate",
      content: "Gate failed for rag-agent",
      metadata: { toolMad: { step: "gate", agent: "rag-agent" }, value: gate },
    },
    {
      role: "consensus",
      kind: "analysis",
      phase: "consensus",
      content: '{"labels":{"rag-agent":"REFUTES"},"agreed":false}',
      metadata: { toolMad: { step: "consensus" } },
    },
    {
      role: "judge",
      kind: "judge",
      phase: "verdict",
      content: "[REASON]: Both found 12 million.\n[VERDICT]: REFUTES",
      metadata: { toolMad: { step: "verdict" } },
    },
  ],
  zofia: [
    {
      role: "ner",
      kind: "analysis",
      phase: "ner",
      content: '{"units":[{"text":"Kyiv","type":"LOC"}]}',
      metadata: zofiaStep("ner", {}),
    },
    embed("keywords", zofiaStep("embed-units", { contexts: 1, units: 1 })),
    { role: "linguist", kind: "analysis", phase: "linguist:tone", content: "The tone is alarmist." },
    {
      role: "extractor",
      kind: "analysis",
      phase: "claims",
      content: '{"core":"A medal was sold.","sub":["In Kyiv."]}',
      metadata: zofiaStep("claims", { sees: SEES }),
    },
    {
      role: "pro",
      kind: "speech",
      phase: "argument",
      content: "The article names its sources.",
      metadata: zofiaStep("argument", { sees: SEES, side: "REAL", round: 1 }),
    },
    {
      role: "judge",
      kind: "judge",
      phase: "judge",
      content: "I",
      metadata: zofiaStep("judge", { sees: SEES, answer: "I", round: 1 }),
    },
    {
      role: "judge",
      kind: "judge",
      phase: "judge-final",
      content: "F",
      metadata: zofiaStep("judge-final", { sees: SEES, answer: "F" }),
    },
  ],
  proclaim: [
    {
      role: "miner",
      kind: "analysis",
      phase: "premises",
      content: "P1. The council spent money.\nP2. It was 40 million.",
      metadata: { proclaim: { step: "premises" } },
    },
    {
      role: "plaintiff",
      kind: "speech",
      phase: "negotiation",
      content: '{"disclose":["C1"],"challenge":["C2"],"note":"C2 is an opinion piece."}',
      metadata: { proclaim: { step: "negotiation" } },
    },
    {
      role: "arbiter",
      kind: "analysis",
      phase: "admissibility",
      content: '{"relevance":0.9,"credibility":0.7,"reason":"An official budget."}',
      metadata: { proclaim: { step: "admissibility" } },
    },
    {
      role: "plaintiff",
      kind: "analysis",
      phase: "reflection",
      content:
        '{"scores":{"logic":0.8,"novelty":0.4,"rebuttal":0.6},"flaws_identified":["no source"],"discovery_need":"the audit","refined_stance":"partly"}',
      metadata: { proclaim: { step: "reflection" } },
    },
    {
      role: "critic",
      kind: "analysis",
      phase: "critic",
      content: '```json\n{"debate_resolved":false,"unresolved_premises":["P2"]}\n```',
      metadata: { proclaim: { step: "critic" } },
    },
    {
      role: "prag",
      kind: "analysis",
      phase: "prag",
      content: "NEED: the audit\nQUERY: council audit 2023",
      metadata: { proclaim: { step: "prag" } },
    },
    embed("prag", { proclaim: { step: "embed-pool" } }),
    {
      role: "judge-2",
      kind: "judge",
      phase: "panel",
      content: '{"verdict":"NOT SUPPORTED","confidence":0.7,"reasoning":"P2 fails."}',
      metadata: { proclaim: { step: "panel" } },
    },
  ],
};

describe("every step of every method reads in plain words", () => {
  for (const [method, turns] of Object.entries(STEPS)) {
    it(`${method}: no JSON, no answer markers, no bookkeeping; roles by their names`, () => {
      const def = findMethod(method)!;
      const shown = turns.map((t) => plainStep(def, t, {})).filter((x) => x !== null);
      expect(shown.length).toBe(turns.filter((t) => !/^Embedded/.test(t.content)).length);
      for (const s of shown) {
        expect(s.text, `${method}: ${s.text}`).not.toMatch(MACHINE);
        expect(s.text.trim()).not.toBe("");
        expect(s.speaker).not.toMatch(/-agent|^Ner$|judge-\d/);
      }
    });
  }

  it("names steps as the debate pages do, and says what it could not read", () => {
    const tm = findMethod("tool-mad")!;
    const t = STEPS["tool-mad"]!;
    expect(plainStep(tm, t[0]!)).toEqual({ speaker: "Corpus agent", text: "Searches for: council road budget 2023" });
    expect(plainStep(tm, t[4]!)!.text).toBe("1 of 1 statement is backed by the agent's documents.");
    expect(plainStep(tm, t[6]!)!.text).toMatch(
      /^Corpus agent's answer failed the checks: faithfulness to its documents 0\.50 \(needs 0\.7\)/,
    );
    // An old row whose gate value is not in the schema's form.
    expect(plainStep(tm, { ...t[6]!, metadata: { toolMad: { step: "gate" }, value: { F: "high" } } })!.text).toBe(
      "Could not read this step.",
    );
    expect(readStep(tm, { toolMad: { step: "no-such-step" } })).toEqual({ step: "no-such-step", ok: false });
    expect(plainStep(findMethod("radar")!, STEPS.radar![1]!)!.text).toBe(
      "Says the question is still open: keep debating. The scientist has not answered yet.",
    );
    expect(plainStep(findMethod("zofia")!, STEPS.zofia![6]!)).toEqual({
      speaker: "Judge",
      text: "Rules the article fake.",
    });
    // An older judge turn, from before the step recorded what the judge was given.
    expect(
      plainStep(findMethod("zofia")!, {
        ...STEPS.zofia![6]!,
        metadata: { zofia: { step: "judge-final", answer: "F" } },
      })!.text,
    ).toMatch(/Could not read this step's details/);
    expect(plainStep(findMethod("proclaim")!, STEPS.proclaim![1]!)).toEqual({
      speaker: "Plaintiff (for the claim)",
      text: "Discloses C1; challenges C2. C2 is an opinion piece.",
    });
  });

  it("one verdict shape for people: product label, own label, reason without markers, the evidence it rests on", () => {
    const v = peopleVerdict(
      "radar",
      { label: "FALSE", reason: "[REASON]: The budget lists 12 million [E1]. More text [E2].", confidence: 0.8 },
      [],
      [{ rank: 1, title: "Council budget", url: "https://example.org/b" }],
    );
    expect(v).toMatchObject({
      product: "FALSE",
      label: "FALSE",
      methodTitle: "RADAR",
      confidence: 0.8,
      reason: "The budget lists 12 million.",
      evidence: [{ rank: 1, title: "Council budget", url: "https://example.org/b" }],
    });
    const z = peopleVerdict("zofia", { label: "FAKE", reason: null, confidence: null }, STEPS.zofia!);
    expect(z).toMatchObject({ product: "FALSE", labelWords: "Fake news", reason: null });
    const z2 = peopleVerdict("zofia", { label: "REAL", reason: null, confidence: null }, STEPS.zofia!);
    expect(z2.reason).toBe("The article names its sources.");
    expect(z2.reasonNote).toMatch(/judge answers with a label only/);
  });
});

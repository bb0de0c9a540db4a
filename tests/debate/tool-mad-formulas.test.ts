import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadPrompt, placeholders, renderPrompt } from "@/lib/prompts";
import { trusted } from "@/lib/prompts/text";
import { getProtocol, productLabel } from "@/lib/debate/protocols";
import { agentsOf, toolMadConfigSchema } from "@/lib/debate/tool-mad/config";
import { answerRelevance, cosine, faithfulness, gatePasses, meanOf, sentences } from "@/lib/debate/tool-mad/gate";
import { labelFromText, labelSchemeFor, parseLabelled } from "@/lib/debate/tool-mad/labels";
import { estimateToolMad, parseQuery, toolMadProtocol } from "@/lib/debate/tool-mad/protocol";
import { clipQuery } from "@/lib/tools/types";
import { scoreDetails, scoresBlock, type RoundRecord } from "@/lib/debate/tool-mad/history";
import { questionsSchema, verdictsSchema } from "@/lib/debate/tool-mad/scorer";
import { readJsonAnswer } from "@/lib/debate/json-answer";

const cfg = (c: Record<string, unknown> = {}) => toolMadConfigSchema.parse(c);

describe("Tool-MAD formulas", () => {
  it("faithfulness is the share of supported statements; none at all is null, not 0 or 1", () => {
    expect(faithfulness([1, 1, 0, 1])).toBe(0.75);
    expect(faithfulness([0, 0])).toBe(0);
    expect(faithfulness([])).toBeNull();
  });

  it("answer relevance is the mean cosine of the claim to each question", () => {
    // Unit vectors at known angles to the claim (1,0): cosines 1, 0.6, 0.
    const { AR, cosines } = answerRelevance(
      [1, 0],
      [
        [1, 0],
        [0.6, 0.8],
        [0, 1],
      ],
    );
    expect(cosines.map((c) => Number(c.toFixed(6)))).toEqual([1, 0.6, 0]);
    expect(AR).toBeCloseTo(1.6 / 3, 10);
    expect(answerRelevance([1, 0], []).AR).toBeNull();
    expect(cosine([3, 4], [6, 8])).toBeCloseTo(1, 12);
    expect(() => cosine([1], [1, 2])).toThrow(/vector dimensions differ: 1 vs 2/);
  });

  it("gates at the thresholds: ≥ passes by default, > under gt, and a missing score always fails", () => {
    const t = { tauF: 0.7, tauAR: 0.8, gateCompare: "gte" as const };
    expect(gatePasses(0.7, 0.8, t)).toBe(true);
    expect(gatePasses(0.69, 0.95, t)).toBe(false);
    expect(gatePasses(0.9, 0.79, t)).toBe(false);
    expect(gatePasses(0.7, 0.8, { ...t, gateCompare: "gt" })).toBe(false);
    expect(gatePasses(0.71, 0.81, { ...t, gateCompare: "gt" })).toBe(true);
    expect(gatePasses(null, 0.99, t)).toBe(false);
    expect(gatePasses(1, null, t)).toBe(false);
  });

  it("means leave out rounds without a score", () => {
    expect(meanOf([0.5, null, 1])).toBe(0.75);
    expect(meanOf([null])).toBeNull();
  });

  it("splits answers into sentences for the embedding scorer", () => {
    expect(sentences("[REASON]: Paris is in France. It has 2.1 million people!  Is it big? yes")).toEqual([
      "[REASON]: Paris is in France.",
      "It has 2.1 million people!",
      "Is it big? yes",
    ]);
  });
});

describe("Tool-MAD labels", () => {
  const fever = labelSchemeFor({ labels: "fever" });
  const averitec = labelSchemeFor({ labels: "averitec" });
  const faviq = labelSchemeFor({ labels: "faviq" });

  it("reads each scheme's labels and the usual ways of writing them", () => {
    expect(labelFromText("NEI", fever)).toBe("NOT ENOUGH INFO");
    expect(labelFromText("not enough info.", fever)).toBe("NOT ENOUGH INFO");
    expect(labelFromText("**Supported**", fever)).toBe("SUPPORTS");
    expect(labelFromText("REFUTES — the dates differ", fever)).toBe("REFUTES");
    expect(labelFromText("Not Enough Evidence", averitec)).toBe("Not Enough Evidence");
    expect(labelFromText("Conflicting Evidence/Cherrypicking", averitec)).toBe("Conflicting Evidence/Cherrypicking");
    expect(labelFromText("cherry-picking", averitec)).toBe("Conflicting Evidence/Cherrypicking");
    expect(labelFromText("SUPPORTS", averitec)).toBe("Supported");
  });

  it("never guesses: negations, other schemes' labels and free text are null", () => {
    expect(labelFromText("not supported", fever)).toBeNull();
    expect(labelFromText("NEI", faviq)).toBeNull();
    expect(labelFromText("TRUE", fever)).toBeNull();
    expect(labelFromText("mostly", fever)).toBeNull();
    expect(labelFromText("SUPPORTSX", fever)).toBeNull();
  });

  it("takes the answer's own last [ANSWER] line, not a quoted one", () => {
    const text =
      "[REASON]: The claim says <<claim-0123456789ab>>\n[ANSWER]: SUPPORTS\n<</claim-0123456789ab>> but [E2] shows otherwise.\n[ANSWER]: REFUTES";
    expect(parseLabelled(text, fever, "ANSWER")).toEqual({
      label: "REFUTES",
      reason: expect.stringMatching(/^The claim says/),
    });
    expect(parseLabelled("[REASON]: x\n[ANSWER]:\nNot enough info", fever, "ANSWER").label).toBe("NOT ENOUGH INFO");
    expect(parseLabelled("[REASON]: x\n[VERDICT]: REFUTES", fever, "ANSWER").label).toBeNull();
    expect(parseLabelled("[REASON]: x\n[VERDICT]: REFUTES", fever, "VERDICT").label).toBe("REFUTES");
  });

  it("maps every scheme's labels to the product's scale; NEI has no product label", () => {
    expect(productLabel("tool-mad", "SUPPORTS")).toBe("TRUE");
    expect(productLabel("tool-mad", "Refuted")).toBe("FALSE");
    expect(productLabel("tool-mad", "Conflicting Evidence/Cherrypicking")).toBe("HALF-TRUE");
    expect(productLabel("tool-mad", "HALF-TRUE")).toBe("HALF-TRUE");
    expect(productLabel("tool-mad", "NOT ENOUGH INFO")).toBeNull();
    expect(productLabel("tool-mad", "Not Enough Evidence")).toBeNull();
    expect(productLabel("tool-mad", "UNPARSED")).toBeNull();
  });
});

describe("Tool-MAD queries", () => {
  it("reads the QUERY line, strips quotes, and falls back to the claim", () => {
    expect(parseQuery('Thinking...\nQUERY: "Guardian Media Limited ANSA McAL"', "c")).toBe(
      "Guardian Media Limited ANSA McAL",
    );
    expect(parseQuery("**Query:** Mel Ott career RBIs", "c")).toBe("Mel Ott career RBIs");
    expect(parseQuery("", "The claim itself.")).toBe("The claim itself.");
    const long = clipQuery(`${"word ".repeat(120)}end`);
    expect(long.length).toBeLessThanOrEqual(400);
    expect(long.endsWith("word")).toBe(true);
  });
});

describe("Tool-MAD configuration", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("has the paper's defaults and names duplicate agents apart", () => {
    const c = cfg();
    expect(c).toMatchObject({
      rounds: 3,
      topK: 3,
      tauF: 0.7,
      tauAR: 0.8,
      gateCompare: "gte",
      arQuestions: 3,
      queryFormulation: "on",
      gate: "on",
      variant: "v2",
      agents: ["rag", "search"],
      labels: "fever",
      scorer: "llm",
    });
    expect(agentsOf(cfg({ agents: ["rag", "rag", "vanilla"] })).map((a) => a.role)).toEqual([
      "rag-agent",
      "rag-agent-2",
      "vanilla-agent",
    ]);
    expect(toolMadProtocol.roles(c)).toEqual(["rag-agent", "search-agent", "judge"]);
    const p = getProtocol("tool-mad");
    expect(p.roleSpecs(c).find((r) => r.role === "scorer")).toEqual({
      role: "scorer",
      usesModelOf: "judge",
      temperature: 0,
    });
    expect(p.roleSpecs(c).every((r) => r.temperature === 0)).toBe(true);
    expect(p.tools).toEqual({ rag: "corpus", search: "web" });
    expect(p.upfrontEvidence).toBe(false);
    expect(p.embeds).toBe(true);
  });

  it("takes the scorer's default from FAITHFULNESS_SCORER and refuses a value it does not know", () => {
    vi.stubEnv("FAITHFULNESS_SCORER", "embedding");
    expect(cfg().scorer).toBe("embedding");
    expect(cfg({ scorer: "llm" }).scorer).toBe("llm");
    vi.stubEnv("FAITHFULNESS_SCORER", "ragas");
    expect(() => cfg()).toThrow(/FAITHFULNESS_SCORER is "ragas"; set it to llm or embedding/);
    expect(estimateToolMad(cfg({ scorer: "embedding" })).byRole!.scorer!.calls).toBe(6);
  });

  it("presets choose the dataset's label scheme", () => {
    const p = getProtocol("tool-mad");
    const scheme = (name: string) => labelSchemeFor(cfg(p.presets[name])).labels;
    expect(scheme("toolmad-fever")).toEqual(["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]);
    // FEVEROUS-S's gold has no NEI, but the models may still answer it (and lose), as in the paper.
    expect(scheme("toolmad-feverous")).toEqual(["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]);
    expect(scheme("toolmad-faviq")).toEqual(["SUPPORTS", "REFUTES"]);
    expect(scheme("toolmad-averitec")).toHaveLength(4);
  });

  it("estimates the worst case: 5 calls per agent-round plus the judge, a tool call per tool agent-round", () => {
    const e = estimateToolMad(cfg());
    expect(e.llmCalls).toBe(2 * 3 * 5 + 1);
    expect(e.toolCalls).toBe(6);
    expect(e.byRole!.judge!.calls).toBe(1);
    expect(e.byRole!.scorer!.calls).toBe(18);
    expect(e.note).toMatch(/paper reports no token figures/);
    const lean = estimateToolMad(cfg({ queryFormulation: "off", gate: "off", agents: ["rag", "vanilla"], rounds: 2 }));
    expect(lean.llmCalls).toBe(2 * 2 + 1);
    expect(lean.toolCalls).toBe(2);
  });

  it("has every template it names, each ending with one unique format line", () => {
    const all = new Set<string>();
    for (const c of [cfg(), cfg({ scorer: "embedding" }), cfg({ variant: "v1" }), cfg({ queryFormulation: "off" })])
      for (const t of toolMadProtocol.templates(c)) all.add(t);
    for (const t of all) expect(() => loadPrompt(t)).not.toThrow();
    const files = fs
      .readdirSync(path.resolve("lib/debate/tool-mad/prompts"))
      .filter((f) => f.endsWith(".md") && f !== "README.md");
    const markers = new Map<string, string[]>();
    for (const f of files) {
      const text = loadPrompt(`tool-mad/${f.slice(0, -3)}`);
      if (f.startsWith("system-")) {
        expect(text).toContain("{{fence_rule}}");
        continue;
      }
      const last = text.split("\n").at(-1)!;
      const m = /^Format \(tool-mad\/([a-z-]+)\):/.exec(last);
      expect(m, `${f} ends with a format line`).not.toBeNull();
      expect(text.match(/Format \(tool-mad\//g)).toHaveLength(1);
      markers.set(m![1]!, [...(markers.get(m![1]!) ?? []), f]);
    }
    expect(Object.fromEntries(markers)).toEqual({
      query: ["query-initial.md", "query-update.md"],
      answer: ["answer-debate.md", "answer-initial.md"],
      statements: ["faithfulness-statements.md"],
      verdicts: ["faithfulness-verdicts.md"],
      questions: ["relevance-questions.md"],
      judge: ["judge.md"],
      "repair-label": ["repair-label.md"],
    });
    expect(placeholders(loadPrompt("tool-mad/judge")).sort()).toEqual(["claim", "history", "labels", "scores"]);
    expect(
      renderPrompt("tool-mad/answer-initial", {
        claim: trusted("c"),
        documents: trusted("d"),
        labels: trusted("SUPPORTS / REFUTES"),
      }),
    ).toMatch(/\[ANSWER\]: <one of SUPPORTS \/ REFUTES>"$/);
  });
});

describe("the judge's scores", () => {
  it("lists per-round F and AR and their means for v2, and CS for v1", () => {
    const gate = (F: number | null, AR: number | null, pass: boolean) => ({
      agent: "a",
      F,
      AR,
      pass,
      tauF: 0.7,
      tauAR: 0.8,
      gateCompare: "gte" as const,
      statements: [],
      questions: [],
      embedder: "x",
      scorerKind: "llm" as const,
      uncalibrated: true,
    });
    const rounds: RoundRecord[] = [
      {
        round: 1,
        agents: [
          {
            agent: "rag-agent",
            tool: "t",
            query: "q",
            documents: [],
            answer: "a",
            label: "SUPPORTS",
            gate: gate(0.5, 0.9, false),
          },
        ],
      },
      {
        round: 2,
        agents: [
          {
            agent: "rag-agent",
            tool: "t",
            query: "q",
            documents: [],
            answer: "a",
            label: "SUPPORTS",
            gate: gate(1, 0.7, false),
          },
        ],
      },
    ];
    const d = scoreDetails(rounds, ["rag-agent"], "v2", true);
    expect(d.means["rag-agent"]).toEqual({ F: 0.75, AR: 0.8 });
    const text = scoresBlock(d, { tauF: 0.7, tauAR: 0.8 });
    expect(text).toContain(
      "round 1: faithfulness 0.50 (threshold 0.7), answer relevance 0.90 (threshold 0.8), gate failed",
    );
    expect(text).toContain("mean over rounds: faithfulness 0.75, answer relevance 0.80");
    const v1 = scoreDetails(
      [
        {
          round: 1,
          agents: [
            {
              agent: "rag-agent",
              tool: "t",
              query: "q",
              documents: [],
              answer: "a",
              label: "X",
              consistency: { agent: "rag-agent", cs: 0.4, method: "embedding" },
            },
          ],
        },
      ],
      ["rag-agent"],
      "v1",
      false,
    );
    expect(scoresBlock(v1, { tauF: 0.7, tauAR: 0.8 })).toContain("CS (mean consistency over rounds): 0.40");
  });
});

describe("the scorer's JSON answers", () => {
  it('want one verdict per statement, reading 1, "1" and true alike; a count mismatch is a problem the repair is told', () => {
    const ok = readJsonAnswer(
      '```json\n[{"statement":"a","verdict":1,"reason":"r"},{"statement":"b","verdict":"0"},{"statement":"c","verdict":true}]\n```',
      verdictsSchema(3),
    );
    expect(ok).toEqual({
      ok: true,
      value: [
        { statement: "a", verdict: 1, reason: "r" },
        { statement: "b", verdict: 0, reason: "" },
        { statement: "c", verdict: 1, reason: "" },
      ],
    });
    const short = readJsonAnswer('[{"statement":"a","verdict":1,"reason":"r"}]', verdictsSchema(2));
    expect(short).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/expected exactly 2 verdicts, one per statement/),
    });
    expect(readJsonAnswer('[{"statement":"a","verdict":2,"reason":"r"}]', verdictsSchema(1)).ok).toBe(false);
    expect(readJsonAnswer('{"questions":["a?","b?"],"noncommittal":false}', questionsSchema(3))).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/expected exactly 3 questions/),
    });
  });
});

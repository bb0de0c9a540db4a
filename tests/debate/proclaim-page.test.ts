import { describe, expect, it } from "vitest";
import { proclaimStep } from "@/lib/debate/proclaim/steps";
import {
  confidenceSteps,
  partialBallot,
  evidenceRows,
  panelBallots,
  premiseChecklist,
  readTrial,
  splitPhase,
  stopWords,
  tokensUsed,
  verdictWords,
  type PTurn,
} from "@/lib/debate/proclaim/views/read";

let seq = 0;
const turn = (round: number, phase: string, role: string, kind: string, extra: Partial<PTurn> = {}): PTurn => ({
  seq: ++seq,
  round,
  phase,
  role,
  kind,
  status: "completed",
  model: "m",
  content: "",
  citations: [],
  metadata: null,
  ...extra,
});
const critic = (round: number, phase: string, unresolved: string[]) =>
  turn(round, phase, "critic", "analysis", {
    metadata: {
      proclaim: { step: "critic" },
      json: { plaintiff: { logic: 6 }, defense: { logic: 7 }, unresolved_premises: unresolved, debate_resolved: false },
    },
  });

describe("PROClaim page reading", () => {
  it("marks the premises the critic's last review left open, matching its words or a P# reference", () => {
    seq = 0;
    const premises = turn(0, "premises", "miner", "analysis", {
      metadata: proclaimStep("premises", {
        premises: ["The auction took place.", "The money went to flood families."],
      }),
    });
    expect(premiseChecklist([premises]).premises.map((p) => p.unresolved)).toEqual([false, false]);
    expect(premiseChecklist([premises]).criticSeen).toBe(false);
    // An earlier review's open premise is superseded by the later one.
    const turns = [premises, critic(1, "critic", ["P1"]), critic(2, "critic", ["the money went to flood families"])];
    expect(premiseChecklist(turns).premises.map((p) => p.unresolved)).toEqual([false, true]);
    expect(premiseChecklist([premises, critic(1, "critic", ["P1"])]).premises.map((p) => p.unresolved)).toEqual([
      true,
      false,
    ]);
    // An empty premise answer is said to be unread, not shown as an empty checklist.
    expect(
      premiseChecklist([
        turn(0, "premises", "miner", "analysis", { metadata: proclaimStep("premises", { premises: [] }) }),
      ]).unparsed,
    ).toBe(true);
  });

  it("separates the pre-trial weighing from passages found during the trial, with their numbers", () => {
    const { pretrial, prag } = evidenceRows([
      {
        rank: 1,
        text: "a",
        title: "Report",
        metadata: {
          r: 0.9,
          c: 0.8,
          w: 0.72,
          status: "admitted",
          reason: "dated report",
          debate: "pre-trial",
          eta: null,
        },
      },
      {
        rank: 2,
        text: "b",
        title: null,
        metadata: { r: 0.2, c: 0.3, w: 0.06, status: "discarded", reason: "off topic", debate: "pre-trial" },
      },
      {
        rank: 3,
        text: "c",
        title: "New",
        metadata: { eta: 0.41, accepted: true, status: "accepted", debate: "primary", side: "for" },
      },
    ]);
    expect(pretrial.map((r) => [r.rank, r.status, r.w])).toEqual([
      [1, "admitted", 0.72],
      [2, "discarded", 0.06],
    ]);
    expect(pretrial[1]!.title).toBe("b");
    expect(prag).toEqual([
      expect.objectContaining({ rank: 3, eta: 0.41, status: "accepted", side: "for", trial: "primary" }),
    ]);
  });

  it("reads each trial apart: switched phases only in the switched trial, searches with η, experts joined to their ruling and testimony, the stop reason", () => {
    seq = 0;
    const pragValue = (side: string) => ({
      proclaim: { step: "prag" },
      value: {
        side,
        need: "date",
        query: "q",
        refined: "q2",
        results: [
          { rank: 4, title: "t", eta: 0.3, accepted: true },
          { rank: 5, title: null, eta: 0.05, accepted: false },
        ],
        meanEta: 0.3,
        etaMin: 0.2,
      },
    });
    const turns = [
      turn(1, "prag", "plaintiff", "analysis", { metadata: pragValue("for") }),
      turn(1, "argument", "plaintiff", "speech", { content: "for [E1]" }),
      turn(1, "argument", "defense", "speech", { content: "against" }),
      turn(1, "expert-request", "plaintiff", "analysis", {
        metadata: proclaimStep("expert-request", {
          debate: "primary",
          side: "for",
          request: { expert_type: "auditor", reasoning: "accounts" },
        }),
      }),
      turn(1, "expert-ruling", "court", "analysis", {
        metadata: proclaimStep("expert-ruling", {
          debate: "primary",
          side: "for",
          ruling: "GRANTED",
          expertType: "auditor",
        }),
      }),
      turn(1, "testimony", "expert", "speech", {
        content: "filings",
        metadata: proclaimStep("testimony", {
          debate: "primary",
          side: "for",
          expert: "Charity auditor",
          personaUnparsed: false,
        }),
      }),
      turn(2, "convergence", "court", "analysis", {
        metadata: {
          value: {
            S: 1.2,
            deltaS: 0,
            meanEta: 0.3,
            stopReason: "plateau",
            reflections: { for: { sRef: 0.6, scores: { logic: 0.7, novelty: 0.5, rebuttal: 0.6 } }, against: null },
          },
        },
      }),
      turn(1, "switched:argument", "defense", "speech", { content: "now for" }),
      turn(1, "switched:convergence", "court", "analysis", {
        metadata: { value: { S: 1, stopReason: null, reflections: {} } },
      }),
      turn(2, "panel", "judge-1", "judge"),
    ];
    const p = readTrial(turns, "primary");
    expect(p.speeches.map((t) => t.content)).toEqual(["for [E1]", "against", "filings"]);
    expect(p.prag[0]!.results.map((r) => [r.rank, r.accepted])).toEqual([
      [4, true],
      [5, false],
    ]);
    expect(p.experts).toEqual([
      expect.objectContaining({
        request: "auditor",
        reasoning: "accounts",
        ruling: "GRANTED",
        expert: "Charity auditor",
      }),
    ]);
    expect(p.reflections[0]).toEqual(
      expect.objectContaining({
        round: 2,
        deltaS: 0,
        for: { sRef: 0.6, logic: 0.7, novelty: 0.5, rebuttal: 0.6 },
        against: null,
      }),
    );
    expect(p.stopReason).toBe("plateau");
    const s = readTrial(turns, "switched");
    expect(s.speeches.map((t) => t.content)).toEqual(["now for"]);
    expect(s.stopReason).toBeNull();
    expect(splitPhase("switched:critic")).toEqual({ trial: "switched", step: "critic" });
  });

  it("shows each judge's ballot: waiting, streaming text, the read answer, or an abstention when unreadable", () => {
    seq = 0;
    const turns = [
      turn(3, "panel", "judge-1", "judge", {
        metadata: {
          json: {
            verdict: "NOT SUPPORTED",
            evidence_strength: 8,
            argument_validity: 7,
            scientific_reliability: 8,
            reasoning: "2019 [E1]",
          },
        },
      }),
      turn(3, "panel", "judge-2", "judge", { status: "streaming", content: '{"claim_summary": "x' }),
    ];
    const [one, two, three] = panelBallots([
      ...turns,
      turn(3, "panel", "judge-3", "judge", { metadata: { json: null } }),
    ]);
    expect(one).toEqual(
      expect.objectContaining({
        label: "NOT SUPPORTED",
        scores: { evidence: 8, validity: 7, reliability: 8 },
        reasoning: "2019 [E1]",
      }),
    );
    expect(two).toEqual(expect.objectContaining({ status: "streaming", label: null, text: '{"claim_summary": "x' }));
    expect(three).toEqual(expect.objectContaining({ label: "UNPARSED", scores: null }));
    expect(panelBallots(turns)[2]).toEqual(expect.objectContaining({ status: "waiting", seq: null }));
    expect(panelBallots(turns, ["judge-1"])).toHaveLength(1);
    // A ballot half written: the vote once it is there, the reasoning so far with its escapes read.
    expect(partialBallot('{"claim_summary": "x", "evidence_strength": 7')).toEqual({
      verdict: null,
      reasoning: null,
      chars: 45,
    });
    expect(partialBallot('{"verdict": "NOT SUPPORTED", "reasoning": "The \\"gala\\" was in 20')).toEqual(
      expect.objectContaining({ verdict: "NOT SUPPORTED", reasoning: 'The "gala" was in 20' }),
    );
  });

  it("explains the confidence step by step with the stored numbers, and names the verdict and stop in words", () => {
    const steps = confidenceSteps("NOT SUPPORTED", {
      votes: { SUPPORTED: 1, "NOT SUPPORTED": 2, INCONCLUSIVE: 0 },
      tieBreak: false,
      abstained: [],
      sigma: 0.666667,
      q: 0.666667,
      cBase: 0.733333,
      deltaRs: 0.1,
      deltaRef: -0.05,
      cFinal: 0.783333,
      gamma: 8,
    });
    expect(steps.map((s) => [s.name, s.value])).toEqual([
      ["Votes", "2 of 3"],
      ["Agreement σ", "0.67"],
      ["Quality q", "0.67"],
      ["Base c_base", "0.73"],
      ["Role switch δ_rs", "+0.10"],
      ["Self-assessment δ_ref", "−0.05"],
      ["Confidence c_final", "78%"],
    ]);
    expect(steps[0]!.words).toBe("The judges voted 1 supported, 2 not supported.");
    expect(steps[4]!.words).toContain("8/10");
    expect(
      confidenceSteps("SUPPORTED", { votes: { SUPPORTED: 1 }, tieBreak: true, abstained: ["judge-3"] })[0]!.words,
    ).toMatch(/judge-3 gave no readable ballot.*chief justice/);
    expect(verdictWords("NOT SUPPORTED")).toEqual(expect.objectContaining({ word: "Not supported", product: "FALSE" }));
    expect(verdictWords("INCONCLUSIVE").product).toBeNull();
    expect(stopWords("budget:tokens")).toContain("token budget");
    expect(stopWords("plateau")).toContain("levelled off");
    expect(
      tokensUsed([
        turn(1, "a", "x", "speech", { promptTokens: 10, completionTokens: 5 }),
        turn(1, "b", "x", "speech", { status: "streaming", promptTokens: 99 }),
      ]),
    ).toBe(15);
  });
});

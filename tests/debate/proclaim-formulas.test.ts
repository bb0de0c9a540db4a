import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadPrompt } from "@/lib/prompts";
import { getProtocol, productLabel } from "@/lib/debate/protocols";
import {
  judgeSchema,
  readDecision,
  readNeed,
  readPremises,
  readQuery,
  readRuling,
  declinesExpert,
} from "@/lib/debate/proclaim/answers";
import { PRESETS, proclaimConfigSchema } from "@/lib/debate/proclaim/config";
import { estimateProclaim } from "@/lib/debate/proclaim/estimate";
import {
  admissibility,
  confidence,
  deltaRs,
  firstStop,
  novelty,
  plurality,
  pragDiagnostics,
  reflectionScore,
  type Ballot,
  type RoundSignals,
} from "@/lib/debate/proclaim/formulas";
import { proclaimProtocol } from "@/lib/debate/proclaim/protocol";

const cfg = (c: Record<string, unknown> = {}) => proclaimConfigSchema.parse(c);

describe("PROClaim admissibility (w = r × c)", () => {
  it("admits above 0.5, shows 0.1 < w ≤ 0.5 as disputed, discards w ≤ 0.1", () => {
    expect(admissibility(0.9, 0.6)).toEqual({ w: 0.54, status: "admitted" });
    expect(admissibility(0.5, 1)).toEqual({ w: 0.5, status: "disputed" });
    expect(admissibility(1, 0.5).status).toBe("disputed");
    expect(admissibility(0.3, 0.3)).toEqual({ w: 0.09, status: "discarded" });
    expect(admissibility(1, 0.1)).toEqual({ w: 0.1, status: "discarded" });
    expect(admissibility(0.6, 0.2).status).toBe("disputed");
  });
});

describe("PROClaim novelty η", () => {
  it("is 0 for a duplicate (rejected), accepts exactly 0.20, and is 1 against an empty pool", () => {
    const v = [0.6, 0.8];
    expect(novelty(v, [v])).toBe(0);
    // cos 0.8 to the pool: η = 0.2, on the threshold, accepted (η ≥ 0.20).
    const at = novelty([1, 0], [[0.8, 0.6]]);
    expect(at).toBe(0.2);
    expect(at >= cfg().etaMin).toBe(true);
    expect(novelty([1, 0], [[0.81, Math.sqrt(1 - 0.81 ** 2)]]) < 0.2).toBe(true);
    expect(novelty([1, 0], [])).toBe(1);
    // The nearest pool item decides.
    expect(
      novelty(
        [1, 0],
        [
          [0, 1],
          [1, 0],
        ],
      ),
    ).toBe(0);
  });
});

describe("PROClaim reflection score", () => {
  it("s_ref = 0.4·logic + 0.3·novelty + 0.3·rebuttal and δ = (s_ref − 0.5) × 0.6", () => {
    expect(reflectionScore({ logic: 0.8, novelty: 0.5, rebuttal: 0.6 })).toEqual({ sRef: 0.65, delta: 0.09 });
    expect(reflectionScore({ logic: 1, novelty: 1, rebuttal: 1 })).toEqual({ sRef: 1, delta: 0.3 });
    expect(reflectionScore({ logic: 0, novelty: 0, rebuttal: 0 })).toEqual({ sRef: 0, delta: -0.3 });
  });
});

describe("PROClaim stopping rules", () => {
  const r = (round: number, S: number | null, criticResolved = false, meanEta: number | null = 0.5): RoundSignals => ({
    round,
    S,
    criticResolved,
    meanEta,
  });
  it("never stops in round 1, even when the critic calls it resolved and nothing was new", () => {
    expect(firstStop([r(1, 1.0, true, 0)]).reason).toBeNull();
  });
  it("plateau fires at ΔS 0.049, not at 0.05", () => {
    expect(firstStop([r(1, 1.0), r(2, 1.049)])).toEqual({ reason: "plateau", deltaS: 0.049 });
    expect(firstStop([r(1, 1.0), r(2, 1.05)])).toEqual({ reason: null, deltaS: 0.05 });
    expect(firstStop([r(1, 1.2), r(2, 1.151)]).reason).toBe("plateau");
  });
  it("checks (i) plateau, then (ii) critic, then (iii) novelty, in that order", () => {
    // All three true: plateau wins.
    expect(firstStop([r(1, 1.0, false, 0.05), r(2, 1.0, true, 0.05)]).reason).toBe("plateau");
    // No plateau: the critic.
    expect(firstStop([r(1, 1.0, false, 0.05), r(2, 1.5, true, 0.05)]).reason).toBe("critic");
    // Only novelty below 0.10 in two consecutive rounds.
    expect(firstStop([r(1, 1.0, false, 0.05), r(2, 1.5, false, 0.09)]).reason).toBe("novelty");
    // One low round is not enough.
    expect(firstStop([r(1, 1.0, false, 0.3), r(2, 1.5, false, 0.0)]).reason).toBeNull();
    // Without P-RAG there is no novelty to measure: the rule never fires.
    expect(firstStop([r(1, 1.0, false, null), r(2, 1.5, false, null)]).reason).toBeNull();
    // An unread reflection (S null) cannot make a plateau.
    expect(firstStop([r(1, null), r(2, 1.0)]).reason).toBeNull();
  });
  it("a plateau over 2 rounds needs two small steps", () => {
    const t = { plateauDelta: 0.05, plateauRounds: 2, noveltyStopEta: 0.1 };
    expect(firstStop([r(1, 1.0), r(2, 1.01)], t).reason).toBeNull();
    expect(firstStop([r(1, 1.0), r(2, 1.01), r(3, 1.02)], t).reason).toBe("plateau");
  });
});

describe("PROClaim panel", () => {
  const b = (label: Ballot["label"], s = 8): Ballot => ({
    label,
    scores: label === "UNPARSED" ? null : { evidence: s, validity: s, reliability: s },
    gamma: null,
  });
  it("S, S, N → SUPPORTED with σ 2/3", () => {
    const v = plurality([b("SUPPORTED"), b("SUPPORTED"), b("NOT SUPPORTED")]);
    expect(v).toMatchObject({ label: "SUPPORTED", winningVotes: 2, tieBreak: false });
    expect(
      confidence({
        winningVotes: 2,
        panelSize: 3,
        ballots: [b("SUPPORTED"), b("SUPPORTED"), b("NOT SUPPORTED")],
        gamma: null,
        winnerDelta: null,
      }).sigma,
    ).toBeCloseTo(2 / 3, 5);
  });
  it("S, N, I → judge-1's label (the chief justice breaks the tie)", () => {
    expect(plurality([b("NOT SUPPORTED"), b("SUPPORTED"), b("INCONCLUSIVE")])).toMatchObject({
      label: "NOT SUPPORTED",
      tieBreak: true,
      winningVotes: 1,
    });
    expect(plurality([b("INCONCLUSIVE"), b("SUPPORTED"), b("NOT SUPPORTED")]).label).toBe("INCONCLUSIVE");
  });
  it("an abstaining judge does not vote; all abstaining gives UNPARSED", () => {
    expect(plurality([b("UNPARSED"), b("SUPPORTED"), b("SUPPORTED")])).toMatchObject({
      label: "SUPPORTED",
      votes: { SUPPORTED: 2, "NOT SUPPORTED": 0, INCONCLUSIVE: 0 },
    });
    expect(plurality([b("UNPARSED"), b("UNPARSED"), b("UNPARSED")]).label).toBe("UNPARSED");
  });
  it("δ_rs is +0.10 at γ 7, 0 at 6.9 and 5, −0.05 at 4.9", () => {
    expect(deltaRs(7)).toBe(0.1);
    expect(deltaRs(6.9)).toBe(0);
    expect(deltaRs(5)).toBe(0);
    expect(deltaRs(4.9)).toBe(-0.05);
  });
  it("unanimous 8/8/8 → confidence 1.0 (c_base 0.8 + 0.24 clamped)", () => {
    const ballots = [b("SUPPORTED"), b("SUPPORTED"), b("SUPPORTED")];
    const c = confidence({ winningVotes: 3, panelSize: 3, ballots, gamma: 8, winnerDelta: 0.06 });
    expect(c).toMatchObject({ sigma: 1, q: 0.8, cBase: 1.04, deltaRs: 0.1, deltaRef: 0.06, cFinal: 1 });
  });
  it("floors at 0.10 when σ ≥ 2/3, not below; δ_ref is floored at −0.15", () => {
    const ballots = [b("NOT SUPPORTED", 0), b("NOT SUPPORTED", 0), b("SUPPORTED", 0)];
    const c = confidence({ winningVotes: 2, panelSize: 3, ballots, gamma: 0, winnerDelta: -0.3 });
    // 0.8 × 2/3 = 0.533; q 0; δ_rs −0.05; δ_ref −0.15 → 0.333.
    expect(c.deltaRef).toBe(-0.15);
    expect(c.cFinal).toBeCloseTo(0.333333, 5);
    const low = confidence({
      winningVotes: 1,
      panelSize: 3,
      ballots: [b("SUPPORTED", 0), b("NOT SUPPORTED", 0), b("INCONCLUSIVE", 0)],
      gamma: 0,
      winnerDelta: -0.3,
    });
    // 0.8/3 − 0.05 − 0.15 = 0.0667: σ 1/3, no floor.
    expect(low.cFinal).toBeCloseTo(0.066667, 5);
    // A forced case where σ = 2/3 but everything else drags it down: the floor holds it at 0.10.
    const forced = confidence({ winningVotes: 2, panelSize: 3, ballots, gamma: 0, winnerDelta: -0.3 });
    expect(forced.cFinal).toBeGreaterThanOrEqual(0.1);
  });
  it("floor: a 2/3 majority whose sum falls under 0.10 is lifted to exactly 0.10; a 1/3 plurality is not", () => {
    const ballots = [b("SUPPORTED", 0), b("SUPPORTED", 0), b("NOT SUPPORTED", 0)];
    // With a small σ weight: 0.1 × 2/3 − 0.05 − 0.15 < 0 → clamped to 0 → floored to 0.10.
    expect(
      confidence({ winningVotes: 2, panelSize: 3, ballots, gamma: 0, winnerDelta: -0.3, sigmaWeight: 0.1 }).cFinal,
    ).toBe(0.1);
    expect(
      confidence({ winningVotes: 1, panelSize: 3, ballots, gamma: 0, winnerDelta: -0.3, sigmaWeight: 0.1 }).cFinal,
    ).toBe(0);
  });
});

describe("PROClaim answers", () => {
  it("reads line formats and refuses what is not there", () => {
    expect(readQuery("Thinking...\nQUERY: masks reduce transmission")).toBe("masks reduce transmission");
    expect(readQuery("no query here")).toBeNull();
    expect(readNeed("NEED: NONE")).toBe("none");
    expect(readNeed("**NEED:** trial data on children")).toBe("trial data on children");
    expect(readRuling("The request is fine.\nRULING: GRANTED")).toBe("GRANTED");
    expect(readDecision("DECISION: CLOSE")).toBe("CLOSE");
    expect(readDecision("maybe")).toBeNull();
    expect(readPremises("1. Masks were worn.\n- Transmission fell.\n\nP3: The fall was caused by masks.")).toEqual([
      "Masks were worn.",
      "Transmission fell.",
      "The fall was caused by masks.",
    ]);
    expect(readPremises(Array.from({ length: 15 }, (_, i) => `premise ${i}`).join("\n"))).toHaveLength(12);
    expect(declinesExpert("NONE")).toBe(true);
    expect(declinesExpert('{"expert_type":"virologist","reasoning":"x"}')).toBe(false);
  });
  it("the judge schema normalises verdict spellings and refuses others", () => {
    const ok = judgeSchema.safeParse({
      evidence_strength: 7,
      argument_validity: 6,
      scientific_reliability: 8,
      verdict: "not_supported",
      reasoning: "r",
    });
    expect(ok.success && ok.data.verdict).toBe("NOT SUPPORTED");
    expect(
      judgeSchema.safeParse({ evidence_strength: 7, argument_validity: 6, scientific_reliability: 8, verdict: "TRUE" })
        .success,
    ).toBe(false);
  });
});

describe("PROClaim protocol surface", () => {
  it("is registered, maps SUPPORTED/NOT SUPPORTED to the product scale and leaves INCONCLUSIVE unmapped", () => {
    expect(getProtocol("proclaim").name).toBe("proclaim");
    expect(productLabel("proclaim", "SUPPORTED")).toBe("TRUE");
    expect(productLabel("proclaim", "NOT SUPPORTED")).toBe("FALSE");
    expect(productLabel("proclaim", "INCONCLUSIVE")).toBeNull();
    expect(productLabel("proclaim", "UNPARSED")).toBeNull();
  });
  it("has the contract's presets and every template it names exists", () => {
    expect(Object.keys(PRESETS).sort()).toEqual([
      "no-prag",
      "no-reflection",
      "no-switch",
      "proclaim-checkcovid",
      "proclaim-feverous",
      "proclaim-healthver",
      "proclaim-scifact",
      "single-judge",
      "standard-mad",
    ]);
    for (const p of Object.values(PRESETS))
      for (const t of proclaimProtocol.templates(cfg(p))) expect(() => loadPrompt(t)).not.toThrow();
    const files = fs
      .readdirSync(path.resolve("lib/debate/proclaim/prompts"))
      .filter((f) => f.endsWith(".md") && f !== "README.md");
    const formats = files
      .map((f) => /Format \(proclaim\/([a-z-]+)\):/.exec(loadPrompt(`proclaim/${f.slice(0, -3)}`))?.[1])
      .filter(Boolean);
    // Every non-system template ends with its own unique format line.
    expect(new Set(formats).size).toBe(formats.length);
    expect(formats.length).toBe(files.filter((f) => !f.startsWith("system-")).length);
  });
  it("estimates ~120 calls per claim for the full preset and far fewer for standard MAD", () => {
    const full = estimateProclaim(cfg());
    expect(full.llmCalls).toBeGreaterThan(90);
    expect(full.llmCalls).toBeLessThan(150);
    const std = estimateProclaim(cfg(PRESETS["standard-mad"]));
    expect(std.llmCalls).toBe(7);
    expect(full.note).toMatch(/210,900/);
  });
  it("P-RAG diagnostics fire on redundancy above 0.70 and on 10 calls", () => {
    expect(
      pragDiagnostics({ cosinesToPool: [0.9, 0.9, 0.9], meanScore: null, previousMeanScore: null, round: 1, calls: 1 }),
    ).toMatchObject({ redundancy: 1, fires: true });
    expect(
      pragDiagnostics({ cosinesToPool: [0.9, 0.2, 0.3], meanScore: null, previousMeanScore: null, round: 1, calls: 1 })
        .fires,
    ).toBe(false);
    expect(
      pragDiagnostics({ cosinesToPool: [], meanScore: null, previousMeanScore: null, round: 3, calls: 10 })
        .tooManyCalls,
    ).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { ABSTENTIONS, abstentionGold, applyPolicy, countedAs, policySentence } from "@/lib/eval/inconclusive";
import { UNPARSED } from "@/lib/eval/metrics";
import { PRESETS, PRESET_NAMES, PROCLAIM_ABLATION_CONFIGS, type Preset } from "@/lib/eval/presets";
import { headlineScores, runLabels, scoreRun } from "@/lib/eval/report";
import { aggregateRepeats, majorityLabel, type RepeatRun } from "@/lib/eval/repeats";

const A = ABSTENTIONS.proclaim!;
const S = "SUPPORTED";
const N = "NOT SUPPORTED";
const I = "INCONCLUSIVE";

describe("the INCONCLUSIVE reporting policy", () => {
  it("support counts INCONCLUSIVE as SUPPORTED (burden of refutation), refute as NOT SUPPORTED, exclude leaves it out; other labels stay", () => {
    expect(countedAs(A, "support", I)).toBe(S);
    expect(countedAs(A, "refute", I)).toBe(N);
    expect(countedAs(A, "exclude", I)).toBeNull();
    for (const p of ["support", "refute", "exclude"] as const) {
      expect(countedAs(A, p, N)).toBe(N);
      expect(countedAs(A, p, S)).toBe(S);
      // An unreadable verdict is never given a side by the policy.
      expect(countedAs(A, p, UNPARSED)).toBe(UNPARSED);
      expect(countedAs(A, p, null)).toBe(UNPARSED);
    }
  });

  it("reads gold labels as importers may write them, and nothing else", () => {
    expect(abstentionGold(A, "SUPPORT")).toBe(S);
    expect(abstentionGold(A, "refutes")).toBe(N);
    expect(abstentionGold(A, "TRUE")).toBe(S);
    expect(abstentionGold(A, "NOT SUPPORTED")).toBe(N);
    expect(abstentionGold(A, "somelabel", "REFUTE")).toBe(N);
    expect(abstentionGold(A, "NOTENOUGHINFO")).toBeNull();
    expect(abstentionGold(A, "INCONCLUSIVE")).toBeNull();
  });

  it("changes the numbers the way the paper's policy does, and counts what it did", () => {
    const items = [
      { gold: S, predicted: I },
      { gold: N, predicted: I },
      { gold: S, predicted: S },
      { gold: N, predicted: N },
    ];
    const sup = applyPolicy(A, "support", items);
    expect(sup.items.filter((x) => x.gold === x.predicted)).toHaveLength(3);
    expect(sup.outcome).toEqual({ policy: "support", label: I, counted_as: S, verdicts: 2, excluded: 0 });
    const ref = applyPolicy(A, "refute", items);
    expect(ref.items.filter((x) => x.gold === x.predicted)).toHaveLength(3);
    expect(ref.items[0]).toEqual({ gold: S, predicted: N });
    const exc = applyPolicy(A, "exclude", items);
    expect(exc.items).toHaveLength(2);
    expect(exc.outcome).toMatchObject({ counted_as: null, verdicts: 2, excluded: 2 });
    expect(policySentence(exc.outcome)).toMatch(
      /INCONCLUSIVE verdicts: 2, left out \(2 claims\) under the reporting policy "exclude".*stored verdicts keep their label/,
    );
    expect(policySentence(sup.outcome)).toMatch(
      /counted as SUPPORTED under the reporting policy "support" \(the paper's burden of refutation/,
    );
  });

  it("a PROClaim run is scored on SUPPORTED / NOT SUPPORTED with the run's stored policy; other protocols are untouched", () => {
    const rows = [
      { status: "done", gold: S, native_label: "SUPPORT", label: I },
      { status: "done", gold: N, native_label: "REFUTE", label: I },
      { status: "done", gold: N, native_label: "REFUTE", label: N },
      { status: "done", gold: S, native_label: "SUPPORT", label: null },
      { status: "pending", gold: S, native_label: "SUPPORT", label: null },
    ];
    const run = (reporting?: unknown) => ({
      protocol: "proclaim",
      config: { proclaim: {}, ...(reporting ? { reporting } : {}) },
    });
    expect(runLabels(run())).toMatchObject({ scheme: null, labels: [S, N] });
    // Default support: the first INCONCLUSIVE is right, the second wrong, the missing verdict is UNPARSED (wrong).
    expect(headlineScores(rows, run())).toMatchObject({ n: 4, accuracy: 0.5 });
    expect(headlineScores(rows, run({ inconclusive: "refute" }))).toMatchObject({ n: 4, accuracy: 0.5 });
    expect(headlineScores(rows, run({ inconclusive: "exclude" }))).toMatchObject({ n: 2, accuracy: 0.5 });
    // An explicit policy (eval report --inconclusive) wins over the stored one.
    expect(scoreRun(rows, run({ inconclusive: "exclude" }), "support").inconclusive).toMatchObject({
      policy: "support",
      verdicts: 2,
      excluded: 0,
    });
    expect(
      scoreRun(rows.slice(0, 3), { protocol: "tool-mad", config: { "tool-mad": { labels: "faviq" } } }).inconclusive,
    ).toBeNull();
  });
});

const item = (claim_id: string, gold: string, predicted: string | null, tokens = 100, status = "done") => ({
  claim_id,
  gold,
  status,
  predicted: status === "done" ? (predicted ?? UNPARSED) : null,
  tokens,
});
const runOf = (index: number, items: RepeatRun["items"]): RepeatRun => ({
  run_id: `r${index}`,
  index,
  status: "completed",
  items,
});

describe("majority over repeated runs", () => {
  it("takes the most frequent label; a tie is the tie label; unparsed is no vote; nothing finished is UNPARSED", () => {
    expect(majorityLabel([S, S, N], I)).toEqual({ label: S, tie: false });
    expect(majorityLabel([S, N, I], I)).toEqual({ label: I, tie: true });
    expect(majorityLabel([S, N], I)).toEqual({ label: I, tie: true });
    expect(majorityLabel([S, UNPARSED, UNPARSED], I)).toEqual({ label: S, tie: false });
    expect(majorityLabel([I, I, S], I)).toEqual({ label: I, tie: false });
    expect(majorityLabel([null, UNPARSED], I)).toEqual({ label: UNPARSED, tie: false });
  });

  it("gives the majority, the best-of oracle, each run's accuracy and tokens per claim", () => {
    // c1 gold S: S,S,N → S right. c2 gold N: S,N,I → tie → INCONCLUSIVE → support → S wrong; oracle right.
    // c3 gold N: I,I,N → I → support → S wrong; oracle right. c4 gold S: N,N,N wrong everywhere.
    const runs = [
      runOf(1, [item("c1", S, S, 100), item("c2", N, S, 200), item("c3", N, I, 300), item("c4", S, N, 400)]),
      runOf(2, [item("c1", S, S, 100), item("c2", N, N, 200), item("c3", N, I, 300), item("c4", S, N, 400)]),
      runOf(3, [item("c1", S, N, 100), item("c2", N, I, 200), item("c3", N, N, 300), item("c4", S, N, 400)]),
    ];
    const g = aggregateRepeats("g", 3, runs, { labels: [S, N], abstention: A, policy: "support" });
    expect(g.claims.map((c) => [c.claim_id, c.majority, c.counted_as, c.correct, c.any_correct])).toEqual([
      ["c1", S, S, true, true],
      ["c2", I, S, false, true],
      ["c3", I, S, false, true],
      ["c4", N, N, false, false],
    ]);
    expect(g.majority).toMatchObject({ n: 4, accuracy: 0.25, ties: 1, excluded: 0 });
    expect(g.best_of).toEqual({ n: 4, accuracy: 0.75 });
    // Run 1: c1 right, c2 wrong, c3 (I → S) wrong, c4 wrong; run 2: c1, c2 right; run 3: c3 right, c2 (I → S) wrong.
    expect(g.runs.map((r) => r.accuracy)).toEqual([0.25, 0.5, 0.25]);
    expect(g.mean_run_accuracy).toBeCloseTo(1 / 3, 10);
    expect(g.tokens).toEqual({ per_debate: 250, per_claim_all_runs: 750 });

    // Refute reads the same ties the other way: c2 and c3 become right.
    const r = aggregateRepeats("g", 3, runs, { labels: [S, N], abstention: A, policy: "refute" });
    expect(r.majority.accuracy).toBe(0.75);
    const e = aggregateRepeats("g", 3, runs, { labels: [S, N], abstention: A, policy: "exclude" });
    expect(e.majority).toMatchObject({ n: 2, accuracy: 0.5, excluded: 2 });
  });

  it("scores a claim over the runs that finished it and says how many were incomplete", () => {
    const runs = [
      runOf(1, [item("c1", S, S), item("c2", N, N)]),
      runOf(2, [item("c1", S, N), item("c2", N, null, 0, "pending")]),
    ];
    const g = aggregateRepeats("g", 2, runs, { labels: [S, N], abstention: A, policy: "support" });
    expect(g.claims.find((c) => c.claim_id === "c2")).toMatchObject({ votes: [N, null], majority: N, correct: true });
    // c1 is S vs N over two runs: a tie.
    expect(g.claims.find((c) => c.claim_id === "c1")).toMatchObject({ majority: I, tie: true });
    expect(g.incomplete).toBe(1);
    expect(g.tokens.per_debate).toBe(100);
  });

  it("a protocol without a no-side label records a tie as UNPARSED (wrong)", () => {
    const runs = [runOf(1, [item("c1", "SUPPORTS", "SUPPORTS")]), runOf(2, [item("c1", "SUPPORTS", "REFUTES")])];
    const g = aggregateRepeats("g", 2, runs, { labels: ["SUPPORTS", "REFUTES"], abstention: null, policy: null });
    expect(g.claims[0]).toMatchObject({ majority: UNPARSED, tie: true, correct: false, any_correct: true });
    expect(g.majority.accuracy).toBe(0);
    expect(g.best_of.accuracy).toBe(1);
  });
});

describe("PROClaim presets", () => {
  it("the four datasets: the shared subsets, 3 runs with the majority only for Check-COVID over the closed-world corpus, §7's rows", () => {
    const cc: Preset = PRESETS["proclaim-checkcovid"];
    expect(cc).toMatchObject({
      protocol: "proclaim",
      dataset: "proclaim-checkcovid",
      evidence: { mode: "tools", corpus: "check-covid" },
      config: {},
      repeats: 3,
    });
    expect(cc.caveat).toMatch(/^closed-world corpus, not comparable/);
    expect(cc.corpusHint).toMatch(/dataset download check-covid, then npx counterpoint ingest --dataset check-covid/);
    const maj = cc.references.find((r) => r.aggregate === "majority")!;
    expect(maj).toMatchObject({ metric: "accuracy", value: 0.817, n: 120, tokensPerClaim: 210_900 });
    expect(cc.references.find((r) => r.aggregate === "best-of")).toMatchObject({ metric: "accuracy", value: 0.958 });
    expect(cc.references.find((r) => r.model === "gpt-5-mini")).toMatchObject({ value: 0.858 });
    expect(PRESETS["proclaim-healthver"].references).toEqual([
      expect.objectContaining({ dataset: "HealthVer", n: 100, value: 0.72 }),
    ]);
    expect(PRESETS["proclaim-feverous"].references).toEqual([
      expect.objectContaining({ dataset: "FEVEROUS", n: 60, value: 0.783 }),
    ]);
    expect(PRESETS["proclaim-scifact"].references).toEqual([]);
    for (const name of ["proclaim-healthver", "proclaim-feverous", "proclaim-scifact"] as const) {
      const p: Preset = PRESETS[name];
      expect(p).toMatchObject({ protocol: "proclaim", dataset: name, config: {} });
      expect(p.repeats).toBeUndefined();
      expect(p.caveat).toMatch(/not comparable/);
    }
  });

  it("the ablations: the contract's configurations on Check-COVID, with Table 5 / 13's accuracy, macro-F1 and tokens per claim", () => {
    const expected = {
      "proclaim-standard-mad": [0.717, 0.707, 18_900],
      "proclaim-no-switch": [0.775, 0.775, 147_251],
      "proclaim-single-judge": [0.783, 0.782, 195_895],
      "proclaim-no-prag": [0.742, 0.741, 188_875],
      "proclaim-no-reflection": [0.808, 0.808, 247_300],
    } as const;
    expect(
      PRESET_NAMES.filter(
        (n) =>
          n.startsWith("proclaim-") &&
          !["proclaim-checkcovid", "proclaim-healthver", "proclaim-feverous", "proclaim-scifact"].includes(n),
      ).sort(),
    ).toEqual(Object.keys(expected).sort());
    for (const [name, [acc, mf1, tokens]] of Object.entries(expected)) {
      const p: Preset = PRESETS[name as keyof typeof expected];
      expect(p).toMatchObject({
        protocol: "proclaim",
        dataset: "proclaim-checkcovid",
        evidence: { mode: "tools", corpus: "check-covid" },
      });
      expect(p.caveat).toMatch(/^closed-world corpus, not comparable/);
      const own = p.references.filter((r) => r.aggregate === undefined);
      expect(Object.fromEntries(own.map((r) => [r.metric, r.value]))).toEqual({ accuracy: acc, macro_f1: mf1 });
      expect(own.every((r) => r.tokensPerClaim === tokens)).toBe(true);
    }
    expect(PRESETS["proclaim-standard-mad"].config).toEqual({
      mode: "standard-mad",
      fixedRounds: 3,
      prag: false,
      roleSwitch: false,
      experts: false,
      reflection: false,
      critic: false,
      adaptiveStop: false,
      panelSize: 1,
    });
    expect(PRESETS["proclaim-no-switch"].config).toEqual({ roleSwitch: false });
    expect(PRESETS["proclaim-single-judge"].config).toEqual({ panelSize: 1 });
    expect(PRESETS["proclaim-no-prag"].config).toEqual({ prag: false, fixedRounds: 3 });
    expect(PRESETS["proclaim-no-reflection"].config).toEqual({ reflection: false });
    expect(Object.keys(PROCLAIM_ABLATION_CONFIGS)).toHaveLength(5);
  });
});

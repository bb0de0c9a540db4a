import type { CostEstimate } from "../types";
import { judgesOf, roundLimit, type ProclaimConfig } from "./config";

/** The paper's mean rounds per claim, primary and switched together (§7: 5.47). */
const PAPER_ROUNDS_PER_CLAIM = 5.47;
/** Candidates weighed before the trial: ~4 premises × 3 plus 2 stance queries × 3, after dedupe. */
const CANDIDATES = 12;
const PASSAGE_TOKENS = 125; // 500 characters per pool item
const ENTRY_TOKENS = 400; // one argument or testimony

/**
 * A cost preview for one claim: the expected case at the paper's mean rounds (5.47 over both
 * trials, or the fixed rounds of an ablation), with the worst case (every round of both trials)
 * in the note. Token counts are guesses per call kind; the paper reports ~210,900 tokens per claim.
 */
export function estimateProclaim(config: ProclaimConfig): CostEstimate {
  const trials = config.roleSwitch ? 2 : 1;
  const expected =
    config.fixedRounds !== null || !config.adaptiveStop
      ? roundLimit(config) * trials
      : Math.min(PAPER_ROUNDS_PER_CLAIM * (trials / 2), roundLimit(config) * trials);
  const worst = roundLimit(config) * trials;
  const perRound = callsPerRound(config);
  const build = (rounds: number) => {
    const byRole: NonNullable<CostEstimate["byRole"]> = {};
    const add = (role: string, calls: number, p: number, c: number) => {
      const r = (byRole[role] ??= { calls: 0, promptTokens: 0, completionTokens: 0 });
      r.calls += calls;
      r.promptTokens += Math.round(calls * p);
      r.completionTokens += Math.round(calls * c);
    };
    const pool = config.mode === "standard-mad" ? config.seedK : CANDIDATES * 0.6 + (config.prag ? 4 : 0);
    let toolCalls = 1;
    if (config.mode === "full") {
      add("miner", 1, 300, 120);
      add("plaintiff", 1, 450, 40);
      add("defense", 1, 450, 40);
      add("plaintiff", 1, 400 + CANDIDATES * PASSAGE_TOKENS, 150);
      add("defense", 1, 400 + CANDIDATES * PASSAGE_TOKENS, 150);
      add("arbiter", CANDIDATES, 550, 60);
      toolCalls += 4 + 2;
    }
    for (const [role, calls, p, c] of perRound)
      add(role, calls * rounds, p + (role === "plaintiff" || role === "defense" ? pool * PASSAGE_TOKENS : 0), c);
    if (config.prag) toolCalls += 2 * rounds;
    if (config.roleSwitch) add("consistency", 1, 600 + rounds * 2 * ENTRY_TOKENS, 500);
    for (const j of judgesOf(config)) add(j, 1, 1500 + 10 * PASSAGE_TOKENS + (rounds + 1) * 2 * ENTRY_TOKENS, 600);
    const totals = Object.values(byRole).reduce(
      (s, r) => ({ calls: s.calls + r.calls, p: s.p + r.promptTokens, c: s.c + r.completionTokens }),
      { calls: 0, p: 0, c: 0 },
    );
    return { byRole, toolCalls, totals };
  };
  const e = build(expected);
  const w = build(worst);
  return {
    llmCalls: Math.round(e.totals.calls),
    toolCalls: Math.round(e.toolCalls),
    promptTokens: e.totals.p,
    completionTokens: e.totals.c,
    byRole: Object.fromEntries(
      Object.entries(e.byRole).map(([k, v]) => [k, { ...v, calls: Math.round(v.calls * 10) / 10 }]),
    ),
    ...(worst > expected
      ? { worst: { llmCalls: Math.round(w.totals.calls), tokens: Math.round(w.totals.p + w.totals.c) } }
      : {}),
    note: `Expected case at ${expected.toFixed(2)} rounds over ${trials === 2 ? "both trials" : "one trial"}${config.fixedRounds === null && config.adaptiveStop ? " (the paper's mean)" : ""}; the worst case runs every round of ${trials === 2 ? "both trials" : "the trial"}. Token counts are guesses per call kind; PROClaim's paper reports ~210,900 tokens per claim for the full method (18,900 for a plain two-sided debate).`,
  };
}

/** Model calls per round of one trial, by role: [role, calls, prompt tokens, completion tokens]. */
function callsPerRound(config: ProclaimConfig): Array<[string, number, number, number]> {
  const rows: Array<[string, number, number, number]> = [];
  const recent = 4 * ENTRY_TOKENS;
  // Sides alternate models across the two trials; per round each counsel model speaks once per step.
  const counsel = (calls: number, p: number, c: number) => {
    rows.push(["plaintiff", calls / 2, p, c], ["defense", calls / 2, p, c]);
  };
  if (config.prag) {
    counsel(2, 500 + recent, 40);
    rows.push(["prag", 2, 500 + recent, 40], ["court", 2, 400 + recent, 40]);
  }
  counsel(2, 500 + 5 * ENTRY_TOKENS, 450);
  if (config.experts) {
    // Both sides are asked; about one request per round is granted.
    counsel(2, 700, 60);
    rows.push(["court", 1, 300, 30], ["expert", 1, 300, 150], ["expert", 1, 600 + ENTRY_TOKENS, 350]);
  }
  if (config.reflection) counsel(2, 500 + recent, 200);
  if (config.critic) rows.push(["critic", 1, 600 + recent, 450]);
  if (config.adaptiveStop && config.fixedRounds === null) rows.push(["court", 1, 500 + 2 * ENTRY_TOKENS, 20]);
  return rows;
}

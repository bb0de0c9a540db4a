import type { CostEstimate } from "../types";
import type { RadarConfig } from "./protocol";

/** The shared evidence every prompt repeats: a top-20 pool of short passages (RADAR's Stage I). */
const EVIDENCE_TOKENS = 20 * 70;
/** A debater's statement as the others and the judge read it back, about half its cap on average. */
const statementTokens = (c: RadarConfig) => Math.round(c.maxTurnTokens / 2);

/**
 * Worst case for one claim: every round run (no early stop), one call per checkpoint question
 * (a provider with token probabilities), no repairs. Token counts are guesses per call kind; the
 * paper's own figure (1,835 tokens per claim with Llama-3-8B over retrieved evidence, 1,551 with
 * early stopping) is quoted beside it.
 */
export function estimateRadar(config: RadarConfig, debaters: readonly string[]): CostEstimate {
  const byRole: NonNullable<CostEstimate["byRole"]> = {};
  const add = (role: string, calls: number, p: number, c: number) => {
    const r = (byRole[role] ??= { calls: 0, promptTokens: 0, completionTokens: 0 });
    r.calls += calls;
    r.promptTokens += calls * p;
    r.completionTokens += calls * c;
  };
  const say = statementTokens(config);
  if (debaters.length === 0) {
    // Single agent and chain of thought: one judge call over the claim and its evidence.
    add("judge", 1, 500 + EVIDENCE_TOKENS, config.maxJudgeTokens / 2);
  } else {
    const n = debaters.length;
    const rounds = config.rebuttals + 2;
    if (config.variant === "four-agent") add("judge", 1, 150, 5);
    for (const d of debaters) {
      add(d, 1, 400 + EVIDENCE_TOKENS, say);
      // A rebuttal reads the opponent's last statement (the journalist's too, in its variants).
      add(d, config.rebuttals, 450 + EVIDENCE_TOKENS + say * (n > 2 ? 2 : 1), say);
      add(d, 1, 400 + EVIDENCE_TOKENS, say);
    }
    if (config.earlyStopping !== "off") {
      // After the opening and after each rebuttal: the stop agent and a round judge read the transcript so far.
      for (let k = 1; k <= config.rebuttals + 1; k++) {
        const transcript = k * n * say;
        add("stop-agent", 1, 400 + transcript, 5);
        add("round-judge", 1, 400 + EVIDENCE_TOKENS + transcript, 5);
      }
    }
    add("judge", 1, 600 + EVIDENCE_TOKENS + rounds * n * say, config.maxJudgeTokens / 2);
  }
  const totals = Object.values(byRole).reduce(
    (s, r) => ({ calls: s.calls + r.calls, p: s.p + r.promptTokens, c: s.c + r.completionTokens }),
    { calls: 0, p: 0, c: 0 },
  );
  const sampling = config.scoringFallback.kind === "sampling" && config.earlyStopping !== "off" && debaters.length > 0;
  return {
    llmCalls: totals.calls,
    toolCalls: 0,
    promptTokens: totals.p,
    completionTokens: totals.c,
    byRole,
    note: [
      "Worst case: every round run, no repairs. Token counts are guesses per call kind.",
      sampling
        ? `A provider without token probabilities asks each checkpoint question ${config.scoringFallback.kind === "sampling" ? config.scoringFallback.samples : 1} times.`
        : null,
      "The paper: 1,835 tokens per claim (Llama-3-8B, retrieved evidence), 1,551 with early stopping.",
    ]
      .filter(Boolean)
      .join(" "),
  };
}

import type { MethodEvalScores, RunNoteRows } from "../capabilities";
import { readNotes } from "../view-notes";
import type { ScoredClaim } from "@/lib/eval/calibrate";
import { CHECKPOINT_NOTE, checkpointSchema } from "./checkpoint";

/**
 * RADAR's calibration input (its server definition's `evalScores`, found by evaluation, its CLI
 * and its page through the protocol registry): a score-only run's checkpoints in the shape of a
 * `calibrate --scores` file. A checkpoint's `tokens` is what the debate would have cost had it
 * stopped there: the tokens so far (the checkpoint's own stop-agent and round-judge calls
 * included) plus a final judgement, estimated as the round judge's tokens at that checkpoint,
 * since after a stop the final judge reads the same partial transcript with the same prompt.
 */
export function scoresFromRunNotes({ debates, notes, turns }: RunNoteRows): ScoredClaim[] {
  const notScoreOnly = debates.filter(
    (d) => (d.config as { earlyStopping?: string }).earlyStopping !== "score-only",
  ).length;
  if (notScoreOnly) {
    throw new Error(
      `${notScoreOnly} of the run's debates were not run with early stopping "score-only": a debate that stopped has no later checkpoints to replay. Run the dev set with --early-stopping score-only.`,
    );
  }
  const tok = (t: { promptTokens: number | null; completionTokens: number | null }) =>
    (t.promptTokens ?? 0) + (t.completionTokens ?? 0);
  return debates.map((d) => {
    const mine = turns.filter((t) => t.debateId === d.debateId);
    const cps = readNotes(
      notes.filter((n) => n.debateId === d.debateId),
      CHECKPOINT_NOTE,
      checkpointSchema,
    ).sort((a, b) => a.round - b.round);
    const rebuttals = (d.config as { rebuttals?: number }).rebuttals ?? 1;
    return {
      id: d.claimId ?? d.claimUuid,
      gold: d.gold ?? "(none)",
      final_verdict: d.label ?? null,
      rounds: rebuttals + 2,
      total_tokens: mine.reduce((a, t) => a + tok(t), 0),
      checkpoints: cps.map((c) => {
        const judge = mine.find((t) => t.role === "round-judge" && t.phase === `checkpoint-${c.after}`);
        return {
          after: c.after,
          p_stop: c.pStop,
          p_continue: c.pContinue,
          label_probs: c.labelProbs,
          verdict: c.verdict,
          tokens: c.tokensSoFar === null ? null : c.tokensSoFar + (judge ? tok(judge) : 0),
        };
      }),
    };
  });
}

export const radarEvalScores: MethodEvalScores = {
  noteKind: CHECKPOINT_NOTE,
  // Only a score-only run scores every checkpoint without stopping, so only it can be replayed.
  appliesTo: (config) => config?.earlyStopping === "score-only",
  fromRun: scoresFromRunNotes,
};

import type { Database } from "@/db/client";
import { getRun, runNoteRows } from "@/db/queries/eval";
import { CHECKPOINT_NOTE, checkpointSchema } from "@/lib/debate/radar/checkpoint";
import { readNotes } from "@/lib/debate/view-notes";
import type { ScoredClaim } from "./calibrate";

/**
 * A score-only run's checkpoints as calibration input (the same shape as a `--scores` file).
 * A checkpoint's `tokens` is what the debate would have cost had it stopped there: the tokens so
 * far (the checkpoint's own stop-agent and round-judge calls included) plus a final judgement,
 * estimated as the round judge's tokens at that checkpoint, since after a stop the final judge
 * reads the same partial transcript with the same prompt.
 */
export async function scoresFromRun(db: Database, runId: string): Promise<ScoredClaim[]> {
  const run = await getRun(db, runId);
  if (!run) throw new Error(`no evaluation run ${runId}`);
  // Calibration is RADAR's: its checkpoints are its notes, read with its schema.
  const { debates, notes, turns } = await runNoteRows(db, runId, CHECKPOINT_NOTE);
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

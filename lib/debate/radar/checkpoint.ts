import { z } from "zod";

/**
 * RADAR's early-stopping checkpoint: after the opening and after each rebuttal, the stop agent's
 * and the round judge's scores against the thresholds, and what was decided. The run writes it as
 * a method note (ctx.note("checkpoint", ...), keyed by the phase it follows), stored by the engine
 * in the generic notes table and drawn on the page by RADAR's own view. Client-safe.
 */
export const checkpointSchema = z.object({
  after: z.string(),
  round: z.number().int(),
  pStop: z.number().nullable(),
  pContinue: z.number().nullable(),
  stopMargin: z.number().nullable(),
  labelProbs: z.record(z.string(), z.number()).nullable(),
  confidence: z.number().nullable(),
  confidenceEmitted: z.number().nullable(),
  verdict: z.string().nullable(),
  tauS: z.number(),
  tauV: z.number(),
  decision: z.enum(["stop", "continue", "unscored"]),
  scoringMethod: z.string().nullable(),
  tokensSoFar: z.number(),
});
export type CheckpointRecord = z.infer<typeof checkpointSchema>;

/** The note's name in ctx.note and in the `note` event. */
export const CHECKPOINT_NOTE = "checkpoint";

/** A checkpoint in one line for the terminal (`debate` command). */
export function checkpointLine(c: CheckpointRecord): string {
  const num = (x: number | null) => (x === null ? "—" : x.toFixed(2));
  return `checkpoint after ${c.after}: s=${num(c.stopMargin)} (τs ${c.tauS}), c=${num(c.confidence)} (τv ${c.tauV}) → ${c.decision}`;
}

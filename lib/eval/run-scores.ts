import { z } from "zod";
import type { Database } from "@/db/client";
import { getRun, runNoteRows } from "@/db/queries/eval";
import { getProtocol, PROTOCOL_NAMES, protocolsWith } from "@/lib/debate/protocols";
import { scoredClaimSchema, type ScoredClaim } from "./calibrate";

/**
 * A run's calibration input (the same shape as a `--scores` file), read by the run's method from
 * its own notes: the method's protocol declares which notes and how (`evalScores`,
 * lib/debate/capabilities.ts; RADAR's score-only checkpoints), so evaluation names no method.
 */
export async function scoresFromRun(db: Database, runId: string): Promise<ScoredClaim[]> {
  const run = await getRun(db, runId);
  if (!run) throw new Error(`no evaluation run ${runId}`);
  const method = PROTOCOL_NAMES.includes(run.protocol) ? getProtocol(run.protocol) : undefined;
  const scores = method?.evalScores;
  if (!scores) {
    const able = protocolsWith("evalScores").map((p) => p.name);
    throw new Error(
      `run ${runId} is a ${method?.title ?? run.protocol} run, which keeps no scores to calibrate on; calibration needs a run of ${able.length ? able.join(" or ") : "a method that keeps them"}.`,
    );
  }
  const claims = scores.fromRun(await runNoteRows(db, runId, scores.noteKind));
  // The method's answer is checked like a scores file's lines, so calibration can rely on its shape.
  const parsed = z.array(scoredClaimSchema).safeParse(claims);
  if (!parsed.success)
    throw new Error(
      `${run.protocol}'s calibration scores for run ${runId} are malformed: ${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".")}: ${i.message}`)
        .join("; ")}`,
    );
  return parsed.data;
}

/** Whether a run's method keeps calibration scores under the configuration it ran with (its page offers the grid). */
export function runHasScores(run: { protocol: string; config: unknown }): boolean {
  if (!PROTOCOL_NAMES.includes(run.protocol)) return false;
  const methodConfig = (run.config as Record<string, unknown> | null)?.[run.protocol];
  return getProtocol(run.protocol).evalScores?.appliesTo(methodConfig as Record<string, unknown> | undefined) ?? false;
}

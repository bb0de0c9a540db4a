import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { listRuns } from "@/db/queries/eval";
import { calibrate, type CalibrationResult } from "./calibrate";
import { itemVerdicts } from "@/db/queries/eval-scores";
import { buildReport, headlineScores, runProgress, type EvalReport, type Progress } from "./report";
import { runHasScores, scoresFromRun } from "./run-scores";
import { verdictHealth, type VerdictHealth } from "./verdict-health";

/** What the /eval pages show, computed here so the pages only render (and tests can check the data). */

export type RunListRow = {
  id: string;
  name: string;
  status: string;
  dataset: string | null;
  variant: string | null;
  created_at: string;
  progress: Progress;
  /** Scored claims so far, and their point scores: the same numbers as the run's page (headlineScores). */
  n: number;
  accuracy: number | null;
  macro_f1: number | null;
  /** Unparsed and failed verdicts; an unreadable run's accuracy is not the method's. */
  verdicts: VerdictHealth;
  /** Average tokens per finished claim, for the accuracy-vs-tokens chart. */
  avg_tokens: number | null;
};

export async function evalRunList(db: Database): Promise<RunListRow[]> {
  const runs = await listRuns(db);
  const verdicts = await itemVerdicts(
    db,
    runs.map((r) => r.id),
  );
  const byRun = new Map<string, typeof verdicts>();
  for (const v of verdicts) {
    const list = byRun.get(v.run_id);
    if (list) list.push(v);
    else byRun.set(v.run_id, [v]);
  }
  return Promise.all(
    runs.map(async (r) => {
      const progress = await runProgress(db, r.id);
      const m = headlineScores(byRun.get(r.id) ?? [], r);
      return {
        id: r.id,
        name: r.name,
        status: r.status,
        dataset: r.dataset,
        variant: r.variant,
        created_at: r.createdAt.toISOString(),
        progress,
        n: m.n,
        accuracy: m.accuracy,
        macro_f1: m.macro_f1,
        verdicts: verdictHealth({ scored: m.n, unparsed: m.unparsed, failed: progress.failed }),
        avg_tokens: progress.done ? progress.tokens / progress.done : null,
      };
    }),
  );
}

export type RunView = {
  report: EvalReport;
  /** For runs made with early stopping "score-only": the calibration grid over their checkpoints. */
  calibration: CalibrationResult | null;
  calibrationError: string | null;
  /** Thresholds stored for this run's judge model, if any. */
  savedThresholds: { tauS: number; tauV: number; evalRunId: string | null } | null;
};

export async function evalRunView(
  db: Database,
  runId: string,
  opts: { resamples?: number } = {},
): Promise<RunView | null> {
  const report = await buildReport(db, runId, { resamples: opts.resamples ?? 1000 });
  if (!report) return null;
  let calibration: CalibrationResult | null = null;
  let calibrationError: string | null = null;
  // The run's method says whether it kept scores to calibrate on (RADAR's score-only checkpoints).
  if (runHasScores(report.run) && report.progress.done > 0) {
    try {
      calibration = calibrate(await scoresFromRun(db, runId));
    } catch (e) {
      calibrationError = (e as Error).message;
    }
  }
  const judge = (report.run.config as { models?: Record<string, string> } | null)?.models?.judge;
  const [saved] = judge ? await db.select().from(s.modelThresholds).where(eq(s.modelThresholds.model, judge)) : [];
  return {
    report,
    calibration,
    calibrationError,
    savedThresholds: saved ? { tauS: saved.tauS, tauV: saved.tauV, evalRunId: saved.evalRunId } : null,
  };
}

/** White to accent for 0..1 (heatmaps): readable text colour chosen with it. */
export function heat(t: number): { background: string; color: string } {
  const x = Math.max(0, Math.min(1, Number.isFinite(t) ? t : 0));
  // Interpolate paper (#fafaf7) to accent (#b4471f).
  const mix = (a: number, b: number) => Math.round(a + (b - a) * x);
  return {
    background: `rgb(${mix(250, 180)}, ${mix(250, 71)}, ${mix(247, 31)})`,
    color: x > 0.55 ? "#fff" : "#111827",
  };
}

export function formatDuration(sec: number | null): string {
  if (sec === null) return "—";
  if (sec >= 3600) return `${(sec / 3600).toFixed(1)} h`;
  if (sec >= 60) return `${Math.round(sec / 60)} min`;
  return `${Math.round(sec)} s`;
}

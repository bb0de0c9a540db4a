import { z } from "zod";
import { readJsonLines, ClaimsFileError } from "@/lib/datasets/claims";
import { VERDICT_LABELS } from "@/lib/debate/verdict";
import { summarize, UNPARSED } from "./metrics";

/**
 * Offline threshold calibration (RADAR appendix C, shared/specs/radar.md "Calibration"). A dev set
 * is debated once with early stopping "score-only", so every checkpoint is scored and no debate
 * stops; here every (tau_s, tau_v) on the grid replays those scores without calling a model. For
 * one pair, a claim's simulated verdict is the round judge's verdict at the first checkpoint where
 * s = p_stop - p_continue >= tau_s and c = max p(label) >= tau_v, else the full debate's verdict.
 */

export const CALIBRATION_METRICS = ["accuracy", "macro-f1"] as const;
export type CalibrationMetric = (typeof CALIBRATION_METRICS)[number];

const probs = z.record(z.string(), z.number().min(0).max(1));

export const scoredCheckpointSchema = z.object({
  after: z.string().regex(/^(opening|rebuttal-\d+)$/, 'expected "opening" or "rebuttal-<n>"'),
  p_stop: z.number().min(0).max(1).nullable(),
  p_continue: z.number().min(0).max(1).nullable(),
  label_probs: probs.nullable(),
  verdict: z.string().nullable(),
  /** Tokens the debate would have used had it stopped here, its final judgement included. */
  tokens: z.number().min(0).nullable().optional(),
});

export const scoredClaimSchema = z.object({
  id: z.string().min(1),
  gold: z.string().min(1),
  final_verdict: z.string().nullable(),
  checkpoints: z.array(scoredCheckpointSchema),
  /** Rounds of the full debate; default: the round after the last checkpoint (the closing). */
  rounds: z.number().int().min(1).optional(),
  /** Tokens of the full debate. */
  total_tokens: z.number().min(0).nullable().optional(),
});

export type ScoredCheckpoint = z.infer<typeof scoredCheckpointSchema>;
export type ScoredClaim = z.infer<typeof scoredClaimSchema>;

export async function loadScoresFile(file: string): Promise<ScoredClaim[]> {
  const out: ScoredClaim[] = [];
  for await (const { line, value } of readJsonLines(file)) {
    const r = scoredClaimSchema.safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new ClaimsFileError(file, line, `${issue.path.join(".") || "(record)"}: ${issue.message}`);
    }
    out.push(r.data);
  }
  return out;
}

/** "opening" is round 1, "rebuttal-k" round k + 1. */
export function roundOf(after: string): number {
  if (after === "opening") return 1;
  const m = /^rebuttal-(\d+)$/.exec(after);
  if (!m) throw new Error(`unknown checkpoint "${after}"`);
  return Number(m[1]) + 1;
}

/** tau_s from -1 to 1 and tau_v from 0 to 1 in steps of 0.05, built from integers so 0.7 is exactly 0.7. */
export const TAU_S_GRID: readonly number[] = Array.from({ length: 41 }, (_, i) => (i - 20) / 20);
export const TAU_V_GRID: readonly number[] = Array.from({ length: 21 }, (_, i) => i / 20);

/**
 * Stored scores are float4 (p_stop 0.7 comes back as 0.69999999), so a comparison at a grid value
 * allows float4's rounding; the live rule compares the float64 values it computed, which is the
 * same decision for every value representable in the grid's steps.
 */
const EPS = 1e-6;

export type GridCell = { tau_s: number; tau_v: number; accuracy: number | null; macro_f1: number | null; avg_rounds: number | null; avg_tokens: number | null; stopped_early: number };

export const TIE_BREAK = "highest metric, then fewest average rounds, then highest tau_v, then highest tau_s (the most conservative thresholds among equals)";

export type CalibrationResult = {
  metric: CalibrationMetric;
  n: number;
  excluded: number;
  labels: readonly string[];
  tie_break: string;
  best: Omit<GridCell, "stopped_early">;
  grid: GridCell[];
};

type Prepared = { gold: string; final: string | null; rounds: number; total: number | null; cps: Array<{ s: number; c: number; verdict: string | null; round: number; tokens: number | null }> };

function prepare(claim: ScoredClaim): Prepared {
  const cps = claim.checkpoints
    .map((cp) => ({ cp, round: roundOf(cp.after) }))
    .sort((a, b) => a.round - b.round)
    // An unscored checkpoint cannot fire, as in a live debate.
    .filter(({ cp }) => cp.p_stop !== null && cp.p_continue !== null && cp.label_probs && Object.keys(cp.label_probs).length)
    .map(({ cp, round }) => ({ s: cp.p_stop! - cp.p_continue!, c: Math.max(...Object.values(cp.label_probs!)), verdict: cp.verdict, round, tokens: cp.tokens ?? null }));
  const lastRound = claim.checkpoints.reduce((m, cp) => Math.max(m, roundOf(cp.after)), 0);
  return { gold: claim.gold, final: claim.final_verdict, rounds: claim.rounds ?? lastRound + 1, total: claim.total_tokens ?? null, cps };
}

export function simulate(claims: readonly ScoredClaim[], tauS: number, tauV: number, labels: readonly string[] = VERDICT_LABELS) {
  return simulatePrepared(claims.filter((c) => labels.includes(c.gold)).map(prepare), tauS, tauV, labels);
}

function simulatePrepared(prepared: readonly Prepared[], tauS: number, tauV: number, labels: readonly string[]): GridCell {
  const items: Array<{ gold: string; predicted: string | null }> = [];
  let rounds = 0;
  let tokens = 0;
  let tokensKnown = true;
  let stopped = 0;
  for (const p of prepared) {
    const hit = p.cps.find((cp) => cp.s >= tauS - EPS && cp.c >= tauV - EPS);
    if (hit) {
      stopped++;
      items.push({ gold: p.gold, predicted: hit.verdict ?? UNPARSED });
      rounds += hit.round;
      if (hit.tokens === null) tokensKnown = false;
      else tokens += hit.tokens;
    } else {
      items.push({ gold: p.gold, predicted: p.final ?? UNPARSED });
      rounds += p.rounds;
      if (p.total === null) tokensKnown = false;
      else tokens += p.total;
    }
  }
  const s = summarize(items, labels);
  const n = prepared.length;
  return {
    tau_s: tauS,
    tau_v: tauV,
    accuracy: s.accuracy,
    macro_f1: s.macro_f1,
    avg_rounds: n ? rounds / n : null,
    avg_tokens: n && tokensKnown ? tokens / n : null,
    stopped_early: stopped,
  };
}

const TIE = 1e-12;

/** Negative when `a` is the better pair under TIE_BREAK. */
export function compareCells(a: GridCell, b: GridCell, metric: CalibrationMetric): number {
  const score = (c: GridCell) => (metric === "accuracy" ? c.accuracy : c.macro_f1) ?? -Infinity;
  const d = score(b) - score(a);
  if (Math.abs(d) > TIE) return d;
  const r = (a.avg_rounds ?? Infinity) - (b.avg_rounds ?? Infinity);
  if (Math.abs(r) > TIE) return r;
  if (a.tau_v !== b.tau_v) return b.tau_v - a.tau_v;
  return b.tau_s - a.tau_s;
}

export function calibrate(claims: readonly ScoredClaim[], opts: { metric?: CalibrationMetric; labels?: readonly string[] } = {}): CalibrationResult {
  const metric = opts.metric ?? "accuracy";
  const labels = opts.labels ?? VERDICT_LABELS;
  const inScheme = claims.filter((c) => labels.includes(c.gold));
  if (inScheme.length === 0) throw new Error(`no claims to calibrate on: none has a gold label in ${labels.join(", ")}`);
  const prepared = inScheme.map(prepare);
  const grid: GridCell[] = [];
  for (const tauS of TAU_S_GRID) for (const tauV of TAU_V_GRID) grid.push(simulatePrepared(prepared, tauS, tauV, labels));
  const best = [...grid].sort((a, b) => compareCells(a, b, metric))[0]!;
  const { stopped_early: _, ...bestOut } = best;
  return { metric, n: inScheme.length, excluded: claims.length - inScheme.length, labels, tie_break: TIE_BREAK, best: bestOut, grid };
}

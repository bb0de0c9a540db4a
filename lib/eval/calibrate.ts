import { z } from "zod";
import { readJsonLines, ClaimsFileError } from "@/lib/datasets/claims";
import { VERDICT_LABELS } from "@/lib/debate/verdict";
import { summarize, UNPARSED } from "./metrics";

/**
 * Offline threshold calibration (RADAR appendix C, as this product applies it). A dev set
 * is debated once with early stopping "score-only", so every checkpoint is scored and no debate
 * stops; here every (tau_s, tau_v) on the grid replays those scores without calling a model. For
 * one pair, a claim's simulated verdict is the round judge's verdict at the first checkpoint where
 * s = p_stop - p_continue >= tau_s and c = max p(label) >= tau_v, else the full debate's verdict.
 */

export const CALIBRATION_METRICS = ["accuracy", "macro-f1"] as const;
export type CalibrationMetric = (typeof CALIBRATION_METRICS)[number];

const probs = z.record(z.string(), z.number().min(0).max(1));

/**
 * Probabilities in a scores file come from float4 columns and renormalised top-logprobs, so a sum
 * may be off by rounding, never by more than this.
 */
export const PROB_SUM_TOLERANCE = 0.02;

/** "half true", "Half_True" and "half-true" are HALF-TRUE; a string outside the scheme stays as it is. */
export function normaliseLabel(raw: string, labels: readonly string[] = VERDICT_LABELS): string {
  const s = raw
    .trim()
    .toUpperCase()
    .replace(/[\s_]+/g, "-");
  return labels.includes(s) ? s : raw.trim();
}

const sumOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const fmt = (x: number) => String(Number(x.toFixed(4)));

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

/**
 * One line of a scores file, checked the way calibration relies on it: labels in the scheme's
 * spelling (case and "half true" normalised, so they score right), label probabilities only over
 * the scheme's labels and summing to 1, p_stop + p_continue = 1, and checkpoints for every claim
 * that counts (a claim without any says the run was not made with score-only).
 */
export function scoresLineSchema(labels: readonly string[] = VERDICT_LABELS) {
  const label = (s: string) => normaliseLabel(s, labels);
  const checkpoint = scoredCheckpointSchema
    .superRefine((cp, ctx) => {
      if ((cp.p_stop === null) !== (cp.p_continue === null)) {
        ctx.addIssue({
          code: "custom",
          message: "give both p_stop and p_continue, or neither (an unscored checkpoint)",
        });
      } else if (cp.p_stop !== null && Math.abs(cp.p_stop + cp.p_continue! - 1) > PROB_SUM_TOLERANCE) {
        ctx.addIssue({
          code: "custom",
          message: `p_stop and p_continue sum to ${fmt(cp.p_stop + cp.p_continue!)}; they must sum to 1 (±${PROB_SUM_TOLERANCE})`,
        });
      }
      if (cp.label_probs && Object.keys(cp.label_probs).length) {
        const unknown = Object.keys(cp.label_probs).filter((k) => !labels.includes(label(k)));
        if (unknown.length) {
          ctx.addIssue({
            code: "custom",
            path: ["label_probs"],
            message: `label ${unknown.map((k) => JSON.stringify(k)).join(", ")} is not in the scheme (${labels.join(", ")})`,
          });
        } else {
          const sum = sumOf(Object.values(cp.label_probs));
          if (Math.abs(sum - 1) > PROB_SUM_TOLERANCE)
            ctx.addIssue({
              code: "custom",
              path: ["label_probs"],
              message: `probabilities sum to ${fmt(sum)}; they must sum to 1 (±${PROB_SUM_TOLERANCE})`,
            });
        }
        const seen = new Set<string>();
        for (const k of Object.keys(cp.label_probs)) {
          if (seen.has(label(k)))
            ctx.addIssue({
              code: "custom",
              path: ["label_probs"],
              message: `label ${label(k)} is given twice (as different spellings)`,
            });
          seen.add(label(k));
        }
      }
    })
    .transform((cp) => ({
      ...cp,
      verdict: cp.verdict === null ? null : label(cp.verdict),
      label_probs: cp.label_probs
        ? Object.fromEntries(Object.entries(cp.label_probs).map(([k, v]) => [label(k), v]))
        : null,
    }));
  return scoredClaimSchema
    .extend({ checkpoints: z.array(checkpoint) })
    .transform((c) => ({
      ...c,
      gold: label(c.gold),
      final_verdict: c.final_verdict === null ? null : label(c.final_verdict),
    }))
    .superRefine((c, ctx) => {
      if (labels.includes(c.gold) && c.checkpoints.length === 0) {
        ctx.addIssue({
          code: "custom",
          path: ["checkpoints"],
          message:
            "this claim has no checkpoints, so it cannot inform the thresholds: make the run with --early-stopping score-only, or remove the line",
        });
      }
    });
}

/** Reads a scores JSONL file; every error names the file, the line and the field. */
export async function loadScoresFile(file: string, labels: readonly string[] = VERDICT_LABELS): Promise<ScoredClaim[]> {
  const schema = scoresLineSchema(labels);
  const out: ScoredClaim[] = [];
  const firstLine = new Map<string, number>();
  for await (const { line, value } of readJsonLines(file)) {
    const r = schema.safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new ClaimsFileError(file, line, `${issue.path.join(".") || "(record)"}: ${issue.message}`);
    }
    const seen = firstLine.get(r.data.id);
    if (seen !== undefined)
      throw new ClaimsFileError(
        file,
        line,
        `id: ${JSON.stringify(r.data.id)} appears again (first on line ${seen}); each claim may appear once`,
      );
    firstLine.set(r.data.id, line);
    out.push(r.data);
  }
  if (out.length === 0)
    throw new Error(
      `${file}: the file has no records; expected one JSON object per line ({id, gold, final_verdict, checkpoints: [...]})`,
    );
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

export type GridCell = {
  tau_s: number;
  tau_v: number;
  accuracy: number | null;
  macro_f1: number | null;
  avg_rounds: number | null;
  avg_tokens: number | null;
  stopped_early: number;
};

export const TIE_BREAK =
  "highest metric, then fewest average rounds, then highest tau_v, then highest tau_s (the most conservative thresholds among equals)";

export type CalibrationResult = {
  metric: CalibrationMetric;
  n: number;
  excluded: number;
  labels: readonly string[];
  tie_break: string;
  best: Omit<GridCell, "stopped_early">;
  grid: GridCell[];
};

type Prepared = {
  gold: string;
  final: string | null;
  rounds: number;
  total: number | null;
  cps: Array<{ s: number; c: number; verdict: string | null; round: number; tokens: number | null }>;
};

function prepare(claim: ScoredClaim): Prepared {
  const cps = claim.checkpoints
    .map((cp) => ({ cp, round: roundOf(cp.after) }))
    .sort((a, b) => a.round - b.round)
    // An unscored checkpoint cannot fire, as in a live debate.
    .filter(
      ({ cp }) => cp.p_stop !== null && cp.p_continue !== null && cp.label_probs && Object.keys(cp.label_probs).length,
    )
    .map(({ cp, round }) => ({
      s: cp.p_stop! - cp.p_continue!,
      c: Math.max(...Object.values(cp.label_probs!)),
      verdict: cp.verdict,
      round,
      tokens: cp.tokens ?? null,
    }));
  const lastRound = claim.checkpoints.reduce((m, cp) => Math.max(m, roundOf(cp.after)), 0);
  return {
    gold: claim.gold,
    final: claim.final_verdict,
    rounds: claim.rounds ?? lastRound + 1,
    total: claim.total_tokens ?? null,
    cps,
  };
}

export function simulate(
  claims: readonly ScoredClaim[],
  tauS: number,
  tauV: number,
  labels: readonly string[] = VERDICT_LABELS,
) {
  return simulatePrepared(claims.filter((c) => labels.includes(c.gold)).map(prepare), tauS, tauV, labels);
}

function simulatePrepared(
  prepared: readonly Prepared[],
  tauS: number,
  tauV: number,
  labels: readonly string[],
): GridCell {
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

export function calibrate(
  claims: readonly ScoredClaim[],
  opts: { metric?: CalibrationMetric; labels?: readonly string[] } = {},
): CalibrationResult {
  const metric = opts.metric ?? "accuracy";
  const labels = opts.labels ?? VERDICT_LABELS;
  const inScheme = claims.filter((c) => labels.includes(c.gold));
  if (inScheme.length === 0)
    throw new Error(`no claims to calibrate on: none has a gold label in ${labels.join(", ")}`);
  const prepared = inScheme.map(prepare);
  const grid: GridCell[] = [];
  for (const tauS of TAU_S_GRID)
    for (const tauV of TAU_V_GRID) grid.push(simulatePrepared(prepared, tauS, tauV, labels));
  const best = [...grid].sort((a, b) => compareCells(a, b, metric))[0]!;
  const { stopped_early: _, ...bestOut } = best;
  return {
    metric,
    n: inScheme.length,
    excluded: claims.length - inScheme.length,
    labels,
    tie_break: TIE_BREAK,
    best: bestOut,
    grid,
  };
}

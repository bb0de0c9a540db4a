/**
 * RADAR's dual-threshold stopping rule (radar design decisions): at a checkpoint the stop agent's
 * probabilities give the stop margin s = p_stop - p_continue, the round judge's give the
 * confidence c = max p(label); the debate stops iff s >= tau_s and c >= tau_v.
 */
export type Thresholds = { tauS: number; tauV: number; source: "default" | "paper" | "calibrated" | "configured" };

export const DEFAULT_THRESHOLDS: Thresholds = { tauS: -0.15, tauV: 0.7, source: "default" };

/** The paper's calibrated values, matched on the model name (any provider serving that backbone). */
const PAPER: Array<{ match: RegExp; tauS: number; tauV: number }> = [
  { match: /llama-?3(\.\d)?-8b/i, tauS: -0.15, tauV: 0.7 },
  { match: /qwen2\.5-7b/i, tauS: 0.2, tauV: 0.9 },
];

export function paperThresholds(modelId: string): Thresholds | undefined {
  const hit = PAPER.find((p) => p.match.test(modelId));
  return hit ? { tauS: hit.tauS, tauV: hit.tauV, source: "paper" } : undefined;
}

/** Explicit configuration beats a calibration, which beats the paper's values, which beat the default. */
export function resolveThresholds(
  modelId: string,
  opts: {
    configured?: Partial<Pick<Thresholds, "tauS" | "tauV">>;
    calibrated?: Pick<Thresholds, "tauS" | "tauV">;
  } = {},
): Thresholds {
  const base = opts.calibrated
    ? { ...opts.calibrated, source: "calibrated" as const }
    : (paperThresholds(modelId) ?? DEFAULT_THRESHOLDS);
  if (opts.configured?.tauS !== undefined || opts.configured?.tauV !== undefined) {
    return { tauS: opts.configured.tauS ?? base.tauS, tauV: opts.configured.tauV ?? base.tauV, source: "configured" };
  }
  return base;
}

export function stopMargin(pStop: number, pContinue: number) {
  return pStop - pContinue;
}

export function confidence(labelProbs: Record<string, number>) {
  return Math.max(...Object.values(labelProbs));
}

export function shouldStop(s: number, c: number, t: Pick<Thresholds, "tauS" | "tauV">) {
  return s >= t.tauS && c >= t.tauV;
}

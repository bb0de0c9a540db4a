import { cosineSimilarity as cosine } from "@/lib/retrieval/fusion";

/**
 * Stage 1, step 3: SC-MMR keyword selection. The seed is the most salient unit; each further pick
 * maximises MMR(U) = λ_k·S_hier(U) − (1 − λ_k)·max_{V∈selected} cos(v_U, v_V) with
 * λ_k = max(λ_min, 1 − e^{αk − β}) (k = keywords so far), so diversity weighs more as the set
 * grows; the loop stops when the best MMR is no longer above γ·MMR_prev.
 */

export type MmrConfig = {
  alpha: number;
  beta: number;
  gamma: number;
  lambdaMin: number;
  lambdaMax: number;
  mmrPrevInit: "one" | "seed";
};

export function lambdaK(k: number, cfg: Pick<MmrConfig, "alpha" | "beta" | "lambdaMin" | "lambdaMax">): number {
  return Math.min(cfg.lambdaMax, Math.max(cfg.lambdaMin, 1 - Math.exp(cfg.alpha * k - cfg.beta)));
}

export type MmrCandidate = { text: string; sHier: number; vector: readonly number[] };
export type MmrStep = {
  k: number;
  lambda: number | null;
  candidates: Array<{ text: string; mmr: number }>;
  pick: string | null;
  stop: boolean;
};
export type MmrResult = {
  steps: MmrStep[];
  keywords: string[];
  mmrPrevInit: "one" | "seed";
  mmrPrevStart: number | null;
};

export function scMmr(candidates: MmrCandidate[], cfg: MmrConfig): MmrResult {
  if (candidates.length === 0) return { steps: [], keywords: [], mmrPrevInit: cfg.mmrPrevInit, mmrPrevStart: null };
  const seed = candidates.reduce((best, c) => (c.sHier > best.sHier ? c : best), candidates[0]!);
  const selected = [seed];
  const steps: MmrStep[] = [
    {
      k: 0,
      lambda: null,
      candidates: candidates.map((c) => ({ text: c.text, mmr: c.sHier })),
      pick: seed.text,
      stop: false,
    },
  ];
  // The paper's MMR_prev = 1.0 asks the second keyword for MMR > γ; `seed` starts from the seed's own score instead (spec §9).
  const start = cfg.mmrPrevInit === "one" ? 1.0 : lambdaK(0, cfg) * seed.sHier;
  let prev = start;
  let rest = candidates.filter((c) => c !== seed);
  while (rest.length > 0) {
    const k = selected.length;
    const lambda = lambdaK(k, cfg);
    const scored = rest.map((c) => ({
      c,
      mmr: lambda * c.sHier - (1 - lambda) * Math.max(...selected.map((s) => cosine(c.vector, s.vector))),
    }));
    const best = scored.reduce((b, s) => (s.mmr > b.mmr ? s : b), scored[0]!);
    const stop = best.mmr <= cfg.gamma * prev;
    steps.push({
      k,
      lambda,
      candidates: scored.map((s) => ({ text: s.c.text, mmr: s.mmr })),
      pick: stop ? null : best.c.text,
      stop,
    });
    if (stop) break;
    selected.push(best.c);
    prev = best.mmr;
    rest = rest.filter((c) => c !== best.c);
  }
  return { steps, keywords: selected.map((s) => s.text), mmrPrevInit: cfg.mmrPrevInit, mmrPrevStart: start };
}

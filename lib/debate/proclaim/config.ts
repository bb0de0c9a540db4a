import { z } from "zod";

/**
 * A PROClaim debate's configuration (proclaim design decisions §2, §6): every threshold of the
 * paper with its default, the ablation toggles, and the presets the evaluation names.
 */
export const proclaimConfigSchema = z.object({
  /** Rounds per debate (primary and switched each) when no stopping rule fires. */
  maxRounds: z.number().int().min(1).max(20).default(10),
  /** Novelty threshold: a P-RAG passage joins the pool when η ≥ etaMin (tuned on 20 dev claims). */
  etaMin: z.number().min(0).max(1).default(0.2),
  pragTopK: z.number().int().min(1).max(10).default(3),
  /** Seed retrieval for the claim: shown only (unless seedAsCandidates). */
  seedK: z.number().int().min(1).max(20).default(5),
  /** Discovery per premise and per stance query. */
  discoveryK: z.number().int().min(1).max(10).default(3),
  /** Admitted when w = r × c > admitW; disputed when discardW < w ≤ admitW; else discarded. */
  admitW: z.number().min(0).max(1).default(0.5),
  discardW: z.number().min(0).max(1).default(0.1),
  /** Stop (i): |S_t − S_{t−1}| < plateauDelta. */
  plateauDelta: z.number().min(0).max(2).default(0.05),
  /** Rounds the plateau must hold (the code: 1, spec §9 option 2). */
  plateauRounds: z.number().int().min(1).max(5).default(1),
  /** Stop (iii): mean η of a round's accepted items below this in 2 consecutive rounds. */
  noveltyStopEta: z.number().min(0).max(1).default(0.1),
  /** P-RAG's own stop diagnostics (App. I): the code only logs them. */
  pragStops: z.enum(["log", "enforce"]).default("log"),
  prag: z.boolean().default(true),
  roleSwitch: z.boolean().default(true),
  experts: z.boolean().default(true),
  reflection: z.boolean().default(true),
  critic: z.boolean().default(true),
  adaptiveStop: z.boolean().default(true),
  panelSize: z.union([z.literal(3), z.literal(1)]).default(3),
  /** Fixed rounds (standard-mad, no-prag: 3): no adaptive stop, exactly this many rounds. */
  fixedRounds: z.number().int().min(1).max(20).nullable().default(null),
  /** Algorithm 1 puts the seed top-5 among the candidates; the code does not (default). */
  seedAsCandidates: z.boolean().default(false),
  /** `standard-mad`: seed passages as the whole pool, two counsel, fixed rounds, one judge. */
  mode: z.enum(["full", "standard-mad"]).default("full"),
  maxTurnTokens: z.number().int().min(64).max(4000).default(512),
});
export type ProclaimConfig = z.infer<typeof proclaimConfigSchema>;

export const PRESETS: Record<string, Partial<ProclaimConfig>> = {
  "proclaim-checkcovid": {},
  "proclaim-healthver": {},
  "proclaim-feverous": {},
  "proclaim-scifact": {},
  "standard-mad": {
    mode: "standard-mad",
    fixedRounds: 3,
    prag: false,
    roleSwitch: false,
    experts: false,
    reflection: false,
    critic: false,
    adaptiveStop: false,
    panelSize: 1,
  },
  "no-switch": { roleSwitch: false },
  "single-judge": { panelSize: 1 },
  "no-prag": { prag: false, fixedRounds: 3 },
  "no-reflection": { reflection: false },
};

/** Rounds a debate may run: fixed when set, else maxRounds. */
export function roundLimit(config: Pick<ProclaimConfig, "fixedRounds" | "maxRounds">): number {
  return config.fixedRounds ?? config.maxRounds;
}

export function judgesOf(config: Pick<ProclaimConfig, "panelSize">): string[] {
  return config.panelSize === 1 ? ["judge-1"] : ["judge-1", "judge-2", "judge-3"];
}

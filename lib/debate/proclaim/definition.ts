import { z } from "zod";
import { proclaimAbout } from "./about";
import type { MethodDefinition } from "../definition";
import { defaultPlainStep, formNumber as num, readStep } from "../definition";
import { PRESETS } from "./config";
import { jsonInWords, plainWords } from "../plain-words";
import { PROCLAIM_LABELS } from "./labels";
import { proclaimStepSchemas } from "./steps";

export { PROCLAIM_STEPS } from "./steps";

/**
 * PROClaim's tokens per claim in the paper (spec §7, Check-COVID, full system and each ablation);
 * the four dataset presets run the full system.
 */
export const PROCLAIM_PAPER_TOKENS: Record<string, number> = {
  "proclaim-checkcovid": 210_900,
  "proclaim-healthver": 210_900,
  "proclaim-feverous": 210_900,
  "proclaim-scifact": 210_900,
  "standard-mad": 18_900,
  "no-switch": 147_251,
  "single-judge": 195_895,
  "no-prag": 188_875,
  "no-reflection": 247_300,
};

/** PROClaim's ablations as the form offers them (the full method is the default, no preset). */
export const PROCLAIM_FORM_PRESETS = [
  { name: "no-switch", title: "Without the role switch" },
  { name: "single-judge", title: "One judge instead of three" },
  { name: "no-prag", title: "Without progressive retrieval (3 fixed rounds)" },
  { name: "no-reflection", title: "Without self-reflection" },
  { name: "standard-mad", title: "Standard debate (baseline: 3 rounds, one judge)" },
] as const;

const negotiation = z.object({
  disclose: z.array(z.coerce.string()).default([]),
  challenge: z.array(z.coerce.string()).default([]),
  note: z.string().optional(),
});

function listed(xs: string[]) {
  return xs.length ? xs.join(", ") : "nothing";
}

/** PROClaim for every surface (client-safe): the run is ./protocol.ts. */
export const proclaimDefinition: MethodDefinition = {
  about: proclaimAbout,
  name: "proclaim",
  title: "PROClaim",
  description:
    "A courtroom: a plaintiff and a defence argue with evidence they search for as the trial goes on, swap sides, and three judges vote.",
  input: "claim",
  labels: {
    ...PROCLAIM_LABELS,
    words: { SUPPORTED: "Supported", "NOT SUPPORTED": "Not supported", INCONCLUSIVE: "Inconclusive" },
  },
  bringsOwnEvidence: true,
  interventions: {
    kinds: ["add_evidence", "ask", "strike", "hold_verdict"],
    enters:
      "before the court's next turn; added evidence as a motion the court weighs for admissibility at the next trial round (it may refuse it)",
    motions: true,
  },
  defaultSettingsTitle: "full method",
  // The full method is the default (no preset); the form offers the ablations.
  formPresets: PROCLAIM_FORM_PRESETS,
  configFromForm(f) {
    const presetName = f.proclaimPreset?.trim();
    const config: Record<string, unknown> = presetName && PRESETS[presetName] ? { ...PRESETS[presetName] } : {};
    if (num(f.maxRounds) !== undefined) config.maxRounds = num(f.maxRounds);
    return config;
  },
  presetTitles: {
    "no-switch": "without the role switch",
    "single-judge": "one judge instead of three",
    "no-prag": "without progressive retrieval",
    "no-reflection": "without self-reflection",
    "standard-mad": "standard debate baseline",
  },
  roles: {
    plaintiff: "Plaintiff (for the claim)",
    defense: "Defence (against the claim)",
    miner: "Evidence miner",
    arbiter: "Evidence arbiter",
    prag: "Evidence search",
    court: "Court",
    expert: "Expert witness",
    critic: "Critic",
    consistency: "Consistency check",
  },
  roleTones: { critic: "rose" },
  roleName: (role) => {
    const j = /^judge-(\d+)$/.exec(role);
    return j ? `Judge ${j[1]}` : null;
  },
  metadataKey: "proclaim",
  steps: proclaimStepSchemas,
  plainStep(turn, ctx) {
    const base = defaultPlainStep(proclaimDefinition, turn, ctx);
    if (!base) return null;
    const step = readStep(proclaimDefinition, turn.metadata);
    if (step.step === "negotiation" || turn.phase.startsWith("negotiation")) {
      let parsed: z.infer<typeof negotiation> | null = null;
      try {
        const r = negotiation.safeParse(
          JSON.parse(
            turn.content
              .trim()
              .replace(/^```(?:json)?\s*/i, "")
              .replace(/\s*```$/, ""),
          ),
        );
        parsed = r.success ? r.data : null;
      } catch {
        parsed = null;
      }
      if (parsed)
        return {
          ...base,
          text: `Discloses ${listed(parsed.disclose)}; challenges ${listed(parsed.challenge)}.${parsed.note ? ` ${parsed.note}` : ""}`,
        };
    }
    return { ...base, text: jsonInWords(turn.content) ?? plainWords(turn.content) };
  },
  paperTokens: (preset) => PROCLAIM_PAPER_TOKENS[preset] ?? null,
  paperCost(preset) {
    const t = PROCLAIM_PAPER_TOKENS[preset];
    return t === undefined
      ? null
      : `paper §7 (Check-COVID): ${t.toLocaleString("en-US")} tokens/claim, ${preset.startsWith("proclaim-") ? "full system" : `ablation ${preset}`}`;
  },
};

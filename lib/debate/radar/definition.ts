import type { MethodDefinition } from "../definition";
import { radarAbout } from "./about";
import { defaultPlainStep, formNumber as num } from "../definition";
import { VERDICT_LABELS } from "../verdict";
import { withoutMarkers } from "../plain-words";
import { domainOf } from "./domain";
import { RADAR_VARIANTS } from "./variants";
import { RADAR_EVAL_OPTIONS } from "./eval-options";
import { CHECKPOINT_NOTE, checkpointLine, checkpointSchema } from "./checkpoint";

/**
 * RADAR for every surface (client-safe): the run is ./protocol.ts. Its labels are the product's
 * own; its step metadata is none beyond its checkpoint notes, so it declares no step schemas.
 */
export const radarDefinition: MethodDefinition = {
  about: radarAbout,
  name: "radar",
  title: "RADAR",
  description:
    "Role-played debate over shared evidence (a politician and a scientist), stopping early once a judge is confident.",
  input: "claim",
  labels: {
    labels: VERDICT_LABELS,
    toProduct: { TRUE: "TRUE", "HALF-TRUE": "HALF-TRUE", FALSE: "FALSE" },
    words: { TRUE: "True", "HALF-TRUE": "Half true", FALSE: "False" },
  },
  bringsOwnEvidence: false,
  interventions: {
    kinds: ["add_evidence", "ask", "strike", "hold_verdict"],
    enters: "before the next round's next speech",
    // Its checkpoints only decide whether to go on; the question is for a speaker (or the judge).
    takenBy: ["speech", "judge"],
  },
  variants: RADAR_VARIANTS,
  evalOptions: RADAR_EVAL_OPTIONS,
  defaultSettingsTitle: "default settings",
  configFromForm(f) {
    const config: Record<string, unknown> = {};
    if (f.variant) config.variant = f.variant;
    if (num(f.rebuttals) !== undefined) config.rebuttals = num(f.rebuttals);
    if (f.earlyStopping) config.earlyStopping = f.earlyStopping;
    if (f.context) config.context = f.context;
    const tauS = num(f.tauS);
    const tauV = num(f.tauV);
    if (tauS !== undefined || tauV !== undefined) config.thresholds = { tauS, tauV };
    return config;
  },
  roles: {
    politician: "Politician",
    scientist: "Scientist",
    advocate: "Advocate",
    critic: "Critic",
    journalist: "Journalist",
    "domain-expert": "Domain expert",
    "stop-agent": "Stop agent",
    "round-judge": "Provisional judge",
    judge: "Judge",
  },
  // The two sides of each variant in contrasting colours, the judges in the deciding voice's.
  roleTones: {
    politician: "blue",
    scientist: "emerald",
    advocate: "blue",
    critic: "rose",
    journalist: "amber",
    "domain-expert": "violet",
    judge: "judge",
    "stop-agent": "aside",
    "round-judge": "aside",
  },
  roleName: (role, { domain }) =>
    role === "domain-expert" && typeof domain === "string" && domain ? `${domain} expert` : null,
  view: {
    extras: (turns) => ({ domain: domainOf(turns) }),
  },
  noteWords(name, value) {
    const c = name === CHECKPOINT_NOTE ? checkpointSchema.safeParse(value) : null;
    return c?.success ? checkpointLine(c.data) : null;
  },
  steps: {},
  plainStep(turn, ctx) {
    const base = defaultPlainStep(radarDefinition, turn, ctx);
    if (!base) return null;
    // The stop agent answers "DECISION: STOP|CONTINUE" with its reasons above.
    if (turn.role === "stop-agent") {
      const stop = /DECISION\s*[:：]\s*\**\s*STOP/i.test(turn.content);
      const why = withoutMarkers(turn.content.replace(/^.*DECISION\s*[:：].*$/gim, "")).trim();
      return {
        ...base,
        text: `${stop ? "Says the question is settled: stop here." : "Says the question is still open: keep debating."}${why ? ` ${why}` : ""}`,
      };
    }
    return base;
  },
  speaksProductScale: true,
  runSettingsWords(c) {
    const rebuttals = typeof c?.rebuttals === "number" ? c.rebuttals : 1;
    return `early stopping ${typeof c?.earlyStopping === "string" ? c.earlyStopping : "on"} · ${rebuttals} ${rebuttals === 1 ? "rebuttal" : "rebuttals"}`;
  },
  datasetAdvice:
    "RADAR needs claims labelled TRUE / HALF-TRUE / FALSE (e.g. politifact-hidden, or check-covid converted with RADAR labels); leave radar out of --protocols otherwise.",
  paperCost: (preset) =>
    preset === "radar-expertise"
      ? "paper (Llama-3-8B, retrieved): 1,835 tokens/claim over 3 rounds, 1,551 with early stopping"
      : null,
};

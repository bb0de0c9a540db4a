import { METHOD_EVAL_PRESETS } from "@/lib/debate/registry/server.generated";
import type { Preset } from "./preset-types";

export type { Preset, ReferenceRow } from "./preset-types";

/**
 * The registry of evaluation presets: the papers' settings in one flag, for someone who has the
 * model (the papers used openai:gpt-4o-mini; pass --model to use another). Each names the protocol
 * and its configuration, the dataset to import, the evidence, the sample, and the paper's own
 * numbers (reference rows, shown beside ours in every report); command-line options given
 * explicitly win. Each method's presets live in its folder (lib/debate/<method>/eval-presets.ts,
 * with what differs from the paper said there, exported as `evalPresets` by its server.ts), gathered
 * from the one list of methods (lib/debate/methods.json) by the generated server barrel.
 */
export const PRESETS = METHOD_EVAL_PRESETS satisfies Record<string, Preset>;

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

export function getPreset(name: PresetName): Preset {
  return PRESETS[name];
}

export { TOOLMAD_SEED } from "@/lib/debate/tool-mad/eval-presets";
export { ZOFIA_SEED } from "@/lib/debate/zofia/eval-presets";
export { PROCLAIM_ABLATION_CONFIGS } from "@/lib/debate/proclaim/eval-presets";

import type { Preset, ReferenceRow } from "@/lib/eval/preset-types";
import type { RadarConfig } from "./protocol";

/**
 * Evaluation presets: the paper's settings in one flag (lib/eval/presets.ts lists every method's).
 *
 * RADAR (protocol radar; expertise roles, 3 rounds: opening, one rebuttal, closing; early stopping):
 * - radar-politifact-gold: the balanced 150 with the claims' gold evidence ("full evidence").
 * - radar-politifact-retrieved: the balanced 150 with the authors' own top-20 bge-base retrieval,
 *   supplied with the subset, so the debate sees exactly the paper's evidence. (The paper's 2,000-claim
 *   retrieved setting needs the full 41,952-sentence corpus, of which only a part is public: run the
 *   2,000 claims with --dataset politifact-hidden --corpus <name> over what you ingested, and report
 *   it as such.)
 * - radar-averitec: AVeriTeC dev with the annotators' QA answers as evidence (AVeriTeC ships no
 *   corpus), Not Enough Evidence left out of the 3-way scores.
 */

const RADAR_3_ROUNDS: Partial<RadarConfig> = {
  variant: "expertise",
  rebuttals: 1,
  earlyStopping: "on",
  context: "paper",
};

const radarRef = (
  dataset: string,
  n: number | null,
  accuracy: number,
  macroF1: number | null,
  note: string,
): ReferenceRow[] => [
  {
    source: "RADAR paper",
    system: "RADAR-multi",
    model: "gpt-4o-mini",
    dataset,
    n,
    metric: "accuracy",
    value: accuracy,
    note,
  },
  ...(macroF1 === null
    ? []
    : [
        {
          source: "RADAR paper",
          system: "RADAR-multi",
          model: "gpt-4o-mini",
          dataset,
          n,
          metric: "macro_f1" as const,
          value: macroF1,
          note,
        },
      ]),
];

export const radarEvalPresets = {
  "radar-politifact-gold": {
    description: "PolitiFact-Hidden balanced 150, gold evidence, RADAR expertise, 3 rounds, early stopping",
    protocol: "radar",
    dataset: "politifact-hidden-150",
    evidence: { mode: "gold" },
    config: RADAR_3_ROUNDS,
    references: radarRef("PolitiFact-Hidden", 2000, 0.836, 0.708, "gold evidence, on the full test set"),
  },
  "radar-politifact-retrieved": {
    description:
      "PolitiFact-Hidden balanced 150, the authors' top-20 retrieved evidence, RADAR expertise, 3 rounds, early stopping",
    protocol: "radar",
    dataset: "politifact-hidden-150",
    evidence: { mode: "supplied" },
    config: RADAR_3_ROUNDS,
    references: radarRef("PolitiFact-Hidden", 150, 0.7, null, "top-n sensitivity: top-20 on the 150-claim sample"),
  },
  "radar-averitec": {
    description: "AVeriTeC dev (NEE excluded), QA-answer evidence, RADAR expertise, 3 rounds, early stopping",
    protocol: "radar",
    dataset: "averitec",
    evidence: { mode: "gold" },
    config: RADAR_3_ROUNDS,
    references: radarRef("AVeriTeC", null, 0.7409, 0.5787, "AVeriTeC retrieved"),
  },
} as const satisfies Record<string, Preset>;

import type { EvalOption } from "../definition";

/**
 * What a RADAR evaluation run offers on /eval/new beside its variant: early stopping, with the
 * setting calibration needs (score every checkpoint, never stop). Read back by `configFromForm`.
 */
export const RADAR_EVAL_OPTIONS: readonly EvalOption[] = [
  {
    name: "earlyStopping",
    label: "Early stopping",
    defaultValue: "on",
    choices: [
      { value: "on", label: "on" },
      { value: "score-only", label: "score every checkpoint, never stop (for calibration)" },
      { value: "off", label: "off" },
    ],
  },
];

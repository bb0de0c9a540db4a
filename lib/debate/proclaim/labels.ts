import type { LabelScheme } from "../types";
import { UNPARSED } from "./formulas";

/**
 * PROClaim's verdicts as stored. INCONCLUSIVE has no place on the product's scale: reports map it
 * by a named reporting policy (the paper's "burden of refutation" counts it as SUPPORTED), while
 * the stored label stays what the panel said. UNPARSED (every judge abstained) maps to nothing.
 */
export const PROCLAIM_LABELS: LabelScheme = {
  labels: ["SUPPORTED", "NOT SUPPORTED", "INCONCLUSIVE"],
  toProduct: { SUPPORTED: "TRUE", "NOT SUPPORTED": "FALSE" },
};

export { UNPARSED };

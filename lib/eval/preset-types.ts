import type { ClaimDatasetName, ConvertOptions } from "@/lib/datasets/convert";
import type { EvidenceSpec } from "./run";
import type { SampleOptions } from "./sample";

/*
 * What an evaluation preset is: the types each method's presets (lib/debate/<method>/eval-presets.ts)
 * are written in, so a method folder needs nothing of lib/eval at run time.
 */

/** A number from a paper, printed beside a run's own and always marked as the paper's. */
export type ReferenceRow = {
  /** Who reports it: "Tool-MAD v2 paper (Jeong, Choi, Kim, Jang), Table III". */
  source: string;
  system: string;
  model: string;
  dataset: string;
  /** Claims the paper scored; null when it does not say. */
  n: number | null;
  metric: "accuracy" | "macro_f1";
  /** As a fraction (0.73 = 73.0 %). */
  value: number;
  note?: string;
  /** The paper's tokens per claim (one run of one claim), printed beside ours when given. */
  tokensPerClaim?: number;
  /** For repeated runs: which aggregate over runs the number is (PROClaim: majority of 3, best-of-3). */
  aggregate?: "majority" | "best-of" | "single";
};

export type Preset = {
  description: string;
  /** A name from lib/debate/protocols.ts. */
  protocol: string;
  dataset: ClaimDatasetName;
  /**
   * The key the claims are stored under when it differs from the dataset's (AVeriTeC with its 4
   * labels must not overwrite the gold labels RADAR runs stored for the same claims).
   */
  storeAs?: string;
  convert?: ConvertOptions;
  evidence: EvidenceSpec;
  config: Record<string, unknown>;
  sample?: SampleOptions;
  references: ReferenceRow[];
  /** Said when the dataset's file is missing, e.g. where it comes from or that it cannot be had here. */
  dataHint?: string;
  /** Said before the run starts: what differs from the paper's setting. */
  caveat?: string;
  /** How to load the corpus the preset's evidence names, said when it is missing. */
  corpusHint?: string;
  /** Runs of every claim (`eval --repeats`), the paper's setting (PROClaim: majority over 3). */
  repeats?: number;
};

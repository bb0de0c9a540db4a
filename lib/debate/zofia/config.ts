import { z } from "zod";
import { NER_PROVIDER_IDS } from "@/lib/tools/ner/types";
import { WIKI_PROVIDER_IDS } from "@/lib/tools/wiki/types";

/** A threshold counted in tenths (τ, its step and floor): anything else would drift when stepped. */
const tenth = (min: number, max: number) =>
  z
    .number()
    .min(min)
    .max(max)
    .refine((x) => Math.abs(x * 10 - Math.round(x * 10)) < 1e-9, {
      message: "must be a multiple of 0.1 (τ is stepped in whole tenths)",
    });

const onOff = z.boolean();

/** Every number of spec §2 with the paper's defaults, the §6 toggles, and the providers frozen at creation. */
export const zofiaConfigSchema = z.object({
  nerTau: tenth(0.1, 1).default(0.8),
  nerStep: tenth(0.1, 0.5).default(0.1),
  nerFloor: tenth(0, 1).default(0.1),
  nerMin: z.number().int().min(1).max(20).default(1),
  lambdaMin: z.number().min(0).max(1).default(0.1),
  lambdaMax: z.number().min(0).max(1).default(1),
  alpha: z.number().min(0).max(5).default(0.3),
  beta: z.number().min(0).max(20).default(2.5),
  gamma: z.number().min(0).max(1).default(0.5),
  /** `one`: the paper's MMR_prev = 1.0; `seed`: λ_0·S_hier(seed), which lets a second keyword in more often (spec §9). */
  mmrPrevInit: z.enum(["one", "seed"]).default("one"),
  webMax: z.number().int().min(1).max(20).default(10),
  wikiSentences: z.number().int().min(1).max(10).default(3),
  wikiCandidates: z.number().int().min(1).max(10).default(5),
  verifyTopK: z.number().int().min(1).max(20).default(5),
  thetaSim: z.number().min(-1).max(1).default(0.1),
  maxRounds: z.number().int().min(1).max(10).default(5),
  web: onOff.default(true),
  wikipedia: onOff.default(true),
  linguist: onOff.default(true),
  expert: onOff.default(true),
  claimVerification: onOff.default(true),
  /** Off: no pro/con rounds, one `judge-final` over every report. */
  debate: onOff.default(true),
  /** Per model call; the paper's output budget needs ≥ 400 tokens and still gains at 1,200. */
  maxTurnTokens: z.number().int().min(50).max(4000).default(1200),
  /**
   * Frozen when the debate is created, so a resumed debate recognises and looks up with what it
   * started with. Unset here (this module stays safe for the browser); the protocol's schema fills
   * them from NER_PROVIDER / WIKI_PROVIDER.
   */
  ner: z.enum(NER_PROVIDER_IDS).optional(),
  wiki: z.enum(WIKI_PROVIDER_IDS).optional(),
});
export type ZofiaConfig = Omit<z.infer<typeof zofiaConfigSchema>, "ner" | "wiki"> & {
  ner: (typeof NER_PROVIDER_IDS)[number];
  wiki: (typeof WIKI_PROVIDER_IDS)[number];
};

export const LINGUIST_DIMENSIONS = ["sentence", "word", "grammar", "emotion", "information-quality"] as const;
export type LinguistDimension = (typeof LINGUIST_DIMENSIONS)[number];

export const ZOFIA_PRESETS: Record<string, Record<string, unknown>> = {
  // PolitiFact++ human-written and FakeNewsNet PolitiFact (dataset download politifact-news); importer elsewhere.
  "zofia-politifact": { maxRounds: 5, mmrPrevInit: "one" },
  // GossipCop: importer only, its article text is not published.
  "zofia-gossipcop": { maxRounds: 5, mmrPrevInit: "one" },
};

import type { Preset, ReferenceRow } from "@/lib/eval/preset-types";
import { PRESETS as PROCLAIM_PRESETS } from "./config";

/** Evaluation presets: PROClaim's paper settings in one flag (lib/eval/presets.ts lists every method's). */

const PROCLAIM_SOURCE = "PROClaim paper (Chowdhury et al., arXiv:2603.28488), Tables 2, 5, 13";
/** §6's mixed panel of models (the paper's): named in every PROClaim row, since our runs use what --model gives. */
const PROCLAIM_MODELS =
  "paper's mix (gpt-5-mini plaintiff, DeepSeek-V3.2 defense, Qwen3-235B court, R1 / Hermes-3 / Qwen3 judges)";
const MF1_NOTE = "macro-F1 from the authors' repo audit (the paper's m-F1 column is missing from the seed text)";

const proclaimRow = (
  system: string,
  dataset: string,
  n: number,
  metric: ReferenceRow["metric"],
  pct: number,
  extra: Partial<ReferenceRow> = {},
): ReferenceRow => ({
  source: PROCLAIM_SOURCE,
  system,
  model: PROCLAIM_MODELS,
  dataset,
  n,
  metric,
  // Percent to a fraction without float noise.
  value: Math.round(pct * 10) / 1000,
  ...extra,
});

/** Check-COVID test (the paper's 120 claims; we run the authors' 121, §9). */
const PROCLAIM_FULL: ReferenceRow[] = [
  proclaimRow("PROClaim, majority of 3 runs", "Check-COVID", 120, "accuracy", 81.7, {
    aggregate: "majority",
    tokensPerClaim: 210_900,
    note: "the paper's main setting",
  }),
  proclaimRow("PROClaim, best-of-3 (oracle)", "Check-COVID", 120, "accuracy", 95.8, {
    aggregate: "best-of",
    note: "right in any of 3 runs: an upper bound",
  }),
  {
    source: PROCLAIM_SOURCE,
    system: "single model, one call",
    model: "gpt-5-mini",
    dataset: "Check-COVID",
    n: 120,
    metric: "accuracy",
    value: 0.858,
  },
];

/** Table 5 / 13 per ablation: accuracy, macro-F1 (repo audit), tokens per claim. */
const PROCLAIM_ABLATION_ROWS: Record<
  "standard-mad" | "no-switch" | "single-judge" | "no-prag" | "no-reflection",
  [system: string, acc: number, mf1: number, tokens: number]
> = {
  "standard-mad": ["Standard MAD (seed top-5, 3 rounds, one judge)", 71.7, 70.7, 18_900],
  "no-switch": ["PROClaim without role switch", 77.5, 77.5, 147_251],
  "single-judge": ["PROClaim with a single judge", 78.3, 78.2, 195_895],
  "no-prag": ["PROClaim without P-RAG (3 fixed rounds)", 74.2, 74.1, 188_875],
  "no-reflection": ["PROClaim without self-reflection", 80.8, 80.8, 247_300],
};

const ablationRefs = (name: keyof typeof PROCLAIM_ABLATION_ROWS): ReferenceRow[] => {
  const [system, acc, mf1, tokens] = PROCLAIM_ABLATION_ROWS[name];
  return [
    proclaimRow(system, "Check-COVID", 120, "accuracy", acc, {
      tokensPerClaim: tokens,
      note: "runs per claim not stated by the paper",
    }),
    proclaimRow(system, "Check-COVID", 120, "macro_f1", mf1, { tokensPerClaim: tokens, note: MF1_NOTE }),
    PROCLAIM_FULL[0]!,
  ];
};

const CHECK_COVID_CORPUS_HINT =
  "Load Check-COVID's 347 abstracts as that corpus first: npx counterpoint dataset download check-covid, then npx counterpoint ingest --dataset check-covid";
const PROCLAIM_DATA_HINT =
  "PROClaim's subsets come from github.com/mnc13/PROClaim: npx counterpoint dataset download proclaim-subsets (and check-covid, for the Check-COVID abstracts), or pass --data <the folder holding the subsets>.";
const CLOSED_WORLD =
  "closed-world corpus, not comparable: the paper retrieved from a PubMed index of COVID abstracts (2020–2024, not shipped); here P-RAG searches Check-COVID's own 347 abstracts, which hold every claim's gold evidence. The paper's models are a mix of six (a different model per role); pass --model role=id for each role. The paper scored 120 claims, the authors' file has 121: n is reported.";
const OPEN_CORPUS =
  "not comparable: the paper retrieved from its own index (PubMed; Wikipedia for FEVEROUS); here P-RAG searches the corpus named with --corpus (without one, every corpus in the database). Name it beside any number. The paper's models are a mix of six (a different model per role); pass --model role=id.";

/** The protocol's own ablation presets (lib/debate/proclaim/config.ts), so the two never drift apart. */
export const PROCLAIM_ABLATION_CONFIGS: Record<keyof typeof PROCLAIM_ABLATION_ROWS, Record<string, unknown>> = {
  "standard-mad": PROCLAIM_PRESETS["standard-mad"]!,
  "no-switch": PROCLAIM_PRESETS["no-switch"]!,
  "single-judge": PROCLAIM_PRESETS["single-judge"]!,
  "no-prag": PROCLAIM_PRESETS["no-prag"]!,
  "no-reflection": PROCLAIM_PRESETS["no-reflection"]!,
};

const proclaimAblation = (name: keyof typeof PROCLAIM_ABLATION_ROWS) =>
  ({
    description: `Check-COVID composed test, 121 claims, PROClaim ablation ${name} (${PROCLAIM_ABLATION_ROWS[name][0]}), the Check-COVID corpus (closed-world)`,
    protocol: "proclaim",
    dataset: "proclaim-checkcovid",
    evidence: { mode: "tools", corpus: "check-covid" },
    config: PROCLAIM_ABLATION_CONFIGS[name],
    references: ablationRefs(name),
    dataHint: PROCLAIM_DATA_HINT,
    corpusHint: CHECK_COVID_CORPUS_HINT,
    caveat: CLOSED_WORLD,
  }) satisfies Preset;

export const proclaimEvalPresets = {
  "proclaim-checkcovid": {
    description:
      "Check-COVID composed test, the authors' 121 non-NEI claims, PROClaim full pipeline, 3 runs with the majority over runs, P-RAG over the Check-COVID corpus (closed-world)",
    protocol: "proclaim",
    dataset: "proclaim-checkcovid",
    evidence: { mode: "tools", corpus: "check-covid" },
    config: {},
    repeats: 3,
    references: PROCLAIM_FULL,
    dataHint: PROCLAIM_DATA_HINT,
    corpusHint: CHECK_COVID_CORPUS_HINT,
    caveat: CLOSED_WORLD,
  },
  "proclaim-healthver": {
    description: "HealthVer, the authors' 100-claim sample (50 / 50), PROClaim full pipeline, one run",
    protocol: "proclaim",
    dataset: "proclaim-healthver",
    evidence: { mode: "tools", corpus: null },
    config: {},
    references: [proclaimRow("PROClaim, one run", "HealthVer", 100, "accuracy", 72.0)],
    dataHint: PROCLAIM_DATA_HINT,
    caveat: OPEN_CORPUS,
  },
  "proclaim-feverous": {
    description: "FEVEROUS, the authors' 100-claim sample (50 / 50), PROClaim full pipeline, one run",
    protocol: "proclaim",
    dataset: "proclaim-feverous",
    evidence: { mode: "tools", corpus: null },
    config: {},
    references: [
      proclaimRow("PROClaim, one run (Wikipedia retriever)", "FEVEROUS", 60, "accuracy", 78.3, {
        note: "the paper scored 60 claims of the sample",
      }),
    ],
    dataHint: PROCLAIM_DATA_HINT,
    caveat: OPEN_CORPUS,
  },
  "proclaim-scifact": {
    description:
      "SciFact, the authors' 100-claim sample (50 / 50), PROClaim full pipeline, one run (the spec gives no paper number)",
    protocol: "proclaim",
    dataset: "proclaim-scifact",
    evidence: { mode: "tools", corpus: null },
    config: {},
    references: [],
    dataHint: PROCLAIM_DATA_HINT,
    caveat: OPEN_CORPUS,
  },
  "proclaim-standard-mad": proclaimAblation("standard-mad"),
  "proclaim-no-switch": proclaimAblation("no-switch"),
  "proclaim-single-judge": proclaimAblation("single-judge"),
  "proclaim-no-prag": proclaimAblation("no-prag"),
  "proclaim-no-reflection": proclaimAblation("no-reflection"),
} as const satisfies Record<string, Preset>;

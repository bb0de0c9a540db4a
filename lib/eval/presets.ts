import type { ClaimDatasetName, ConvertOptions } from "@/lib/datasets/convert";
import type { RadarConfig } from "@/lib/debate/radar/protocol";
import { PRESETS as PROCLAIM_PRESETS } from "@/lib/debate/proclaim/config";
import { ZOFIA_PRESETS } from "@/lib/debate/zofia/config";
import type { EvidenceSpec } from "./run";
import type { SampleOptions } from "./sample";

/**
 * The papers' settings in one flag, for someone who has the model (the papers used
 * openai:gpt-4o-mini; pass --model to use another). Each names the protocol and its
 * configuration, the dataset to import, the evidence, the sample, and the paper's own numbers
 * (reference rows, shown beside ours in every report); command-line options given explicitly win.
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
 *
 * Tool-MAD (protocol tool-mad, v2 defaults: rag + search agents, 3 rounds, top-3, gate 0.7 / 0.8):
 * 200 claims drawn at random with a fixed seed (the paper: "200 randomly sampled instances per
 * dataset", seed unstated), exact match on the dataset's own labels. The agents find their evidence
 * with their tools during the debate: the RAG agent searches a corpus of ours (the paper: a
 * Wikipedia dump in Milvus), the search agent the configured web provider (offline: the corpus
 * stand-in, labelled as such).
 *
 * ZoFia (protocol zofia, the paper's defaults: τ 0.8, SC-MMR keywords, 5 linguists, expert, claim
 * verification, up to 5 judged pro/con rounds): every article of the dataset in a seeded random
 * order (the paper scores whole test sets and gives no n), REAL / FAKE scored as binary accuracy and macro-F1, and read on
 * the product scale as TRUE / FALSE. The pipeline finds its own evidence: a web search over its
 * keywords cut off the day before publication (offline: the corpus stand-in) and Wikipedia (off
 * offline). The paper's models: DeepSeek-V3 (openai-compatible:deepseek/deepseek-chat) and
 * gpt-4o-mini; pass --model to choose.
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
  config: Partial<RadarConfig> | Record<string, unknown>;
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

/** The fixed seed of every Tool-MAD preset's 200-claim draw (the paper's own seed is not published). */
export const TOOLMAD_SEED = 2025;
const TOOLMAD_SAMPLE: SampleOptions = { sample: "random", limit: 200, seed: TOOLMAD_SEED };
const TOOLMAD_SOURCE = "Tool-MAD v2 paper (Jeong, Choi, Kim, Jang), Table III";

/** Table III, exact match, 200 random claims per dataset. */
const TOOLMAD_TABLE: Record<
  "FEVER" | "FEVEROUS" | "FaVIQ" | "AVeriTeC",
  Array<[system: string, model: string, value: number]>
> = {
  FEVER: [
    ["Tool-MAD v2", "gpt-4o-mini", 73.0],
    ["Tool-MAD v2", "Llama-3.3-70B", 74.0],
    ["Tool-MAD v1", "gpt-4o-mini", 72.0],
    ["MADKE", "gpt-4o-mini", 72.0],
    ["single model", "gpt-4o-mini", 62.0],
  ],
  FEVEROUS: [
    ["Tool-MAD v2", "gpt-4o-mini", 71.5],
    ["Tool-MAD v2", "Llama-3.3-70B", 77.0],
    ["Tool-MAD v1", "gpt-4o-mini", 72.0],
    ["MADKE", "gpt-4o-mini", 66.0],
    ["single model", "gpt-4o-mini", 37.0],
  ],
  FaVIQ: [
    ["Tool-MAD v2", "gpt-4o-mini", 77.5],
    ["Tool-MAD v2", "Llama-3.3-70B", 78.5],
    ["Tool-MAD v1", "gpt-4o-mini", 76.5],
    ["MADKE", "gpt-4o-mini", 75.5],
    ["single model", "gpt-4o-mini", 56.0],
  ],
  AVeriTeC: [
    ["Tool-MAD v2", "gpt-4o-mini", 62.0],
    ["Tool-MAD v2", "Llama-3.3-70B", 66.5],
    ["Tool-MAD v1", "gpt-4o-mini", 64.5],
    ["MADKE", "gpt-4o-mini", 58.5],
    ["single model", "gpt-4o-mini", 33.0],
  ],
};

const toolMadRefs = (dataset: keyof typeof TOOLMAD_TABLE, note?: string): ReferenceRow[] =>
  TOOLMAD_TABLE[dataset].map(([system, model, value]) => ({
    source: TOOLMAD_SOURCE,
    system,
    model,
    dataset,
    n: 200,
    metric: "accuracy" as const,
    value: value / 100,
    note: note ?? "exact match on the dataset's labels",
  }));

const RAG_CORPUS_CAVEAT =
  "The paper's RAG agent searched a Wikipedia dump; here it searches the corpus named with --corpus (without one, every corpus in the database). Name what it searched beside any number.";

const ZOFIA_SOURCE = "ZoFia paper (anonymous ACL submission), Table 1";

/** Table 1, accuracy / macro-F1 in %; the paper names no n (whole test sets) and no model for the baselines it cites. */
const ZOFIA_TABLE: Record<
  "PolitiFact" | "GossipCop",
  Array<[system: string, model: string, accuracy: number, macroF1: number, note?: string]>
> = {
  PolitiFact: [
    ["ZoFia", "DeepSeek-V3", 91.52, 87.88],
    ["ZoFia", "gpt-4o-mini", 75.28, 75.19],
    ["single model", "DeepSeek-V3", 78.99, 40.24],
    ["single model", "gpt-4o-mini", 73.58, 41.66],
    ["FactAgent", "(as cited by the paper)", 80.59, 70.06, "zero-shot baseline"],
    ["DKFND", "(as cited by the paper)", 87.0, 82.43, "few-shot baseline"],
  ],
  GossipCop: [
    ["ZoFia", "DeepSeek-V3", 79.04, 62.22],
    ["ZoFia", "gpt-4o-mini", 68.9, 56.2],
    ["single model", "DeepSeek-V3", 61.03, 28.17],
    ["single model", "gpt-4o-mini", 66.73, 33.18],
    ["FactAgent", "(as cited by the paper)", 73.8, 56.22, "zero-shot baseline"],
    ["DKFND", "(as cited by the paper)", 82.37, 55.22, "few-shot baseline"],
  ],
};

const zofiaRefs = (dataset: keyof typeof ZOFIA_TABLE): ReferenceRow[] =>
  ZOFIA_TABLE[dataset].flatMap(([system, model, accuracy, macroF1, extra]) => {
    const note = `REAL / FAKE, binary${extra ? `; ${extra}` : ""}; n not reported`;
    // Percent to a fraction without float noise (87.88 / 100 is 0.8787999…).
    const fraction = (pct: number) => Math.round(pct * 100) / 10_000;
    return [
      {
        source: ZOFIA_SOURCE,
        system,
        model,
        dataset,
        n: null,
        metric: "accuracy" as const,
        value: fraction(accuracy),
        note,
      },
      {
        source: ZOFIA_SOURCE,
        system,
        model,
        dataset,
        n: null,
        metric: "macro_f1" as const,
        value: fraction(macroF1),
        note,
      },
    ];
  });

/**
 * Every article (the paper scores whole test sets), in a seeded random order: the files list every
 * fake article before every real one, so a --limit taken in file order would be one class only.
 */
export const ZOFIA_SEED = 2025;
const ZOFIA_SAMPLE: SampleOptions = { sample: "random", seed: ZOFIA_SEED };

const ZOFIA_CAVEAT =
  "The paper searched the web with Brave and read Wikipedia. Offline, the web search is the corpus stand-in (every corpus in the database, or the one named with --corpus, searched lexically for every keyword before the day the article was published) and Wikipedia is off, so the numbers are not comparable with the paper's; name both beside any number. PolitiFact++ articles carry no publication date: without one no cutoff applies.";

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

export const PRESETS = {
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
  "toolmad-fever": {
    description:
      "FEVER dev, 200 random claims (fixed seed), Tool-MAD v2 (RAG + search), FEVER labels (SUPPORTS / REFUTES / NOT ENOUGH INFO)",
    protocol: "tool-mad",
    dataset: "fever",
    evidence: { mode: "tools", corpus: null },
    config: { labels: "fever" },
    sample: TOOLMAD_SAMPLE,
    references: toolMadRefs("FEVER"),
    dataHint:
      "FEVER dev comes from github.com/wait22065/fact_verification (data/fever_labelled_dev.json): npx counterpoint dataset download fever, or pass --data <the folder holding fever_labelled_dev.json>.",
    caveat: RAG_CORPUS_CAVEAT,
  },
  "toolmad-feverous": {
    description:
      "FEVEROUS-S dev, 200 random claims (fixed seed), Tool-MAD v2, the RAG agent over FEVEROUS-S's gold sentences as a closed corpus, FEVER labels",
    protocol: "tool-mad",
    dataset: "feverous",
    evidence: { mode: "tools", corpus: "feverous-gold" },
    // FEVER's three labels although FEVEROUS-S's gold has no NEI: the paper's FEVEROUS baselines
    // (gpt-4o-mini 37.0, ReAct 24.0, MAD 36.5 on ~balanced 2-class data) are only possible if NEI
    // was an answer the models could give and lose on; the 2-way scheme would make the task easier
    // than the paper's. The debate preset in lib/debate/tool-mad/config.ts agrees.
    config: { labels: "fever" },
    sample: TOOLMAD_SAMPLE,
    references: toolMadRefs("FEVEROUS"),
    dataHint:
      "FEVEROUS-S dev comes from github.com/teacherpeterpan/ProgramFC (datasets/FEVEROUS/claims/dev.json): npx counterpoint dataset download feverous, or pass --data <the folder holding feverous_s_dev.json>.",
    corpusHint:
      "Load FEVEROUS-S's gold sentences as that corpus first: npx counterpoint ingest --dataset feverous-gold --corpus feverous-gold (after npx counterpoint dataset download feverous)",
    caveat:
      "The RAG corpus is FEVEROUS-S's own gold sentences (closed-world: every claim's evidence is in it), not the paper's Wikipedia; the paper's FEVEROUS numbers are on full FEVEROUS, ours on its sentence-evidence subset.",
  },
  "toolmad-averitec": {
    description: "AVeriTeC dev, 200 random claims (fixed seed), Tool-MAD v2, AVeriTeC's 4 labels",
    protocol: "tool-mad",
    dataset: "averitec",
    storeAs: "averitec-4way",
    convert: { labels: "native" },
    evidence: { mode: "tools", corpus: null },
    config: { labels: "averitec" },
    sample: TOOLMAD_SAMPLE,
    references: toolMadRefs("AVeriTeC", "exact match on the 4 labels; 95% CI .56–.69"),
    dataHint:
      "AVeriTeC dev comes from github.com/MichSchli/AVeriTeC (data/dev.json): npx counterpoint dataset download averitec, or pass --data <the folder holding dev.json>.",
    caveat: RAG_CORPUS_CAVEAT,
  },
  "toolmad-faviq": {
    description: "FaVIQ A set dev, 200 random claims (fixed seed), Tool-MAD v2, FaVIQ labels (SUPPORTS / REFUTES)",
    protocol: "tool-mad",
    dataset: "faviq",
    evidence: { mode: "tools", corpus: null },
    config: { labels: "faviq" },
    sample: TOOLMAD_SAMPLE,
    references: toolMadRefs("FaVIQ"),
    dataHint:
      "FaVIQ is published as a zip file, not a file that can be fetched and checked: download the A set (faviq_a_set_v1.2.zip, linked from github.com/faviq/faviq), unzip it and pass --data <the folder holding dev.jsonl>.",
    caveat: RAG_CORPUS_CAVEAT,
  },
  "zofia-politifact": {
    description:
      "PolitiFact++ human-written news articles (97 fake / 194 real), ZoFia with the paper's defaults, REAL / FAKE (read as TRUE / FALSE)",
    protocol: "zofia",
    dataset: "politifact-news",
    convert: { source: "politifact-pp" },
    evidence: { mode: "tools", corpus: null },
    config: ZOFIA_PRESETS["zofia-politifact"]!,
    sample: ZOFIA_SAMPLE,
    references: zofiaRefs("PolitiFact"),
    dataHint:
      "PolitiFact++ (Su et al. 2023, the release ZoFia uses) comes from github.com/mbzuai-nlp/Fakenews-dataset (Dataset/PolitiFact++/{HF,HR}.json): npx counterpoint dataset download politifact-news, or pass --data <the folder holding politifact_pp/>.",
    caveat: ZOFIA_CAVEAT,
  },
  "zofia-gossipcop": {
    description:
      "GossipCop news articles (FakeNewsNet), ZoFia with the paper's defaults, REAL / FAKE (read as TRUE / FALSE)",
    protocol: "zofia",
    dataset: "gossipcop",
    evidence: { mode: "tools", corpus: null },
    config: ZOFIA_PRESETS["zofia-gossipcop"]!,
    sample: ZOFIA_SAMPLE,
    references: zofiaRefs("GossipCop"),
    dataHint:
      "GossipCop's article text is not published (FakeNewsNet ships ids and URLs only). Fetch it with FakeNewsNet's crawler (github.com/KaiDMML/FakeNewsNet) and pass --data <the folder holding gossipcop/{fake,real}/<id>/news content.json>, or a gossipcop*.jsonl of rows {id, label: fake|real, title, text, url, publish_date}.",
    caveat: ZOFIA_CAVEAT,
  },
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

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

export function getPreset(name: PresetName): Preset {
  return PRESETS[name];
}

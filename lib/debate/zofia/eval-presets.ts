import type { Preset, ReferenceRow } from "@/lib/eval/preset-types";
import type { SampleOptions } from "@/lib/eval/sample";
import { ZOFIA_PRESETS } from "./config";

/**
 * Evaluation presets: the paper's settings in one flag (lib/eval/presets.ts lists every method's).
 *
 * ZoFia (protocol zofia, the paper's defaults: τ 0.8, SC-MMR keywords, 5 linguists, expert, claim
 * verification, up to 5 judged pro/con rounds): every article of the dataset in a seeded random
 * order (the paper scores whole test sets and gives no n), REAL / FAKE scored as binary accuracy and macro-F1, and read on
 * the product scale as TRUE / FALSE. The pipeline finds its own evidence: a web search over its
 * keywords cut off the day before publication (offline: the corpus stand-in) and Wikipedia (off
 * offline). The paper's models: DeepSeek-V3 (openai-compatible:deepseek/deepseek-chat) and
 * gpt-4o-mini; pass --model to choose.
 */

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

export const zofiaEvalPresets = {
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
} as const satisfies Record<string, Preset>;

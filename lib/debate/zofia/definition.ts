import { zofiaAbout } from "./about";
import type { MethodDefinition } from "../definition";
import { defaultPlainStep, readStep } from "../definition";
import { plainWords } from "../plain-words";
import { type ZofiaStepMeta, zofiaStepSchemas } from "./steps";

export const ZOFIA_LABELS = ["REAL", "FAKE"] as const;

export { ZOFIA_STEPS } from "./steps";

const JUDGE_ANSWER = { R: "real", F: "fake", I: "not decided yet" } as const;

/** ZoFia for every surface (client-safe): the run is ./protocol.ts. */
export const zofiaDefinition: MethodDefinition = {
  about: zofiaAbout,
  name: "zofia",
  title: "ZoFia",
  description:
    "Reads a whole news article: finds its key names, searches for them, has analysts read it, then a pro and a con agent argue and a judge rules real or fake.",
  input: "article",
  labels: {
    labels: ZOFIA_LABELS,
    toProduct: { REAL: "TRUE", FAKE: "FALSE" },
    words: { REAL: "Real news", FAKE: "Fake news" },
  },
  bringsOwnEvidence: true,
  interventions: {
    kinds: ["add_evidence", "strike", "hold_verdict"],
    enters: "to the analysts before the debate starts; not accepted after that",
    until: "start",
  },
  corpusOptional: true,
  defaultSettingsTitle: "default settings",
  // The form sets only the corpus (its evidence), nothing of the configuration.
  configFromForm: () => ({}),
  roles: {
    ner: "Names and places",
    keywords: "Keyword picker",
    "web-search": "Web search",
    wiki: "Encyclopedia",
    linguist: "Language analyst",
    expert: "Subject expert",
    extractor: "Claim extractor",
    verifier: "Verifier",
    pro: "Argues it is real",
    con: "Argues it is fake",
    judge: "Judge",
  },
  roleTones: { judge: "judge" },
  metadataKey: "zofia",
  steps: zofiaStepSchemas,
  plainStep(turn, ctx) {
    const base = defaultPlainStep(zofiaDefinition, turn, ctx);
    if (!base) return null;
    const step = readStep<ZofiaStepMeta<"judge"> | ZofiaStepMeta<"judge-final">>(zofiaDefinition, turn.metadata);
    if (step.ok && (step.step === "judge" || step.step === "judge-final")) {
      const a = step.value.answer as keyof typeof JUDGE_ANSWER | null | undefined;
      return {
        ...base,
        text:
          a && JUDGE_ANSWER[a]
            ? `Rules the article ${JUDGE_ANSWER[a]}${a === "I" ? "; the debate goes on" : ""}.`
            : `Gave an answer that could not be read: ${plainWords(turn.content)}`,
      };
    }
    return base;
  },
  // The paper's judge answers with a letter only: the reason people read is the last argument of
  // the side the judge agreed with, and the page says so.
  reasonFromTurns(verdict, turns) {
    const side = verdict.label === "REAL" ? "pro" : verdict.label === "FAKE" ? "con" : null;
    if (!side) return null;
    const last = [...turns]
      .reverse()
      .find(
        (t) =>
          t.role === side && t.phase === "argument" && (t.status ?? "completed") === "completed" && t.content.trim(),
      );
    if (!last) return null;
    return {
      text: plainWords(last.content),
      note: `ZoFia's judge answers with a label only; this is the last argument of the side it agreed with (${side === "pro" ? "the agent arguing the article is real" : "the agent arguing the article is fake"}).`,
    };
  },
  datasetAdvice:
    "ZoFia judges whole news articles labelled REAL / FAKE: use an article dataset (--dataset politifact-news or gossipcop), or leave zofia out of --protocols.",
  matrixNote:
    "; each claim is read as a one-paragraph article (the claim text as its body, no headline unless the dataset gives one), while the paper judges whole articles",
  paperCost: () =>
    "spec §8: 14–28 LLM calls per article (domain, expert, 5 linguists, claims, 3–5 verifications, 3 per round); paper: output budget 400–1,200 tokens per article",
};

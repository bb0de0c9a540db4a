import { describe, expect, it } from "vitest";
import { dayBefore, readZofia, seesByAgent, type ZTurn } from "@/lib/debate/zofia/views/read";
import { productLabelOf } from "@/lib/debate/methods";
import { type KeywordsValue, type NerValue, type SalienceValue, zofiaStep } from "@/lib/debate/zofia/steps";

/*
 * The ZoFia page reads the stored turns of issue 12's contract into the steps it draws. These
 * turns are written as the protocol stores them (computed steps' `value`, model turns' `zofia`
 * metadata, tool turns' `tool` record), so a change on either side shows up here.
 */

let seq = 0;
const t = (
  round: number,
  phase: string,
  role: string,
  kind: string,
  metadata: unknown,
  content = "",
  status = "completed",
): ZTurn => ({ seq: ++seq, round, phase, role, kind, status, content, metadata });

const SEES = { article: true, web: true, wikipedia: true, llm: true };
const tool = (
  query: string,
  results: Array<{ rank: number; title: string; text: string }>,
  excludeDomains: string[],
) => ({
  kind: "search",
  status: "ok",
  provider: "corpus-standin",
  live: false,
  label: "offline stand-in for web search",
  request: { query, before: "2024-03-13", excludeDomains, k: 10 },
  startedAt: "2024-03-14T00:00:00.000Z",
  latencyMs: 3,
  results: results.map((r) => ({ ...r, url: null, publishedAt: null, source: { kind: "web" } })),
  dateBound: "filtered",
  dropped: { afterCutoff: 0, excludedDomain: 0 },
});
const unit = (text: string, type: string, confidence: number) => ({
  text,
  type,
  confidence,
  sentence: 0,
  start: 0,
  end: text.length,
});
const ner: NerValue = {
  provider: "rule",
  label: "rule-based NER, heuristic confidence",
  heuristic: true,
  units: [unit("Thomas Berg", "PER", 1), unit("Riverside", "LOC", 0.6)],
  tau: 0.8,
  kept: [0],
  tauSteps: [{ tau: 0.8, kept: 1 }],
};
const salience: SalienceValue = {
  units: [{ ...unit("Thomas Berg", "PER", 1), local: 0.7, global: 0.6, sHier: 0.42 }],
  embedder: "local:minilm-l6",
  truncated: false,
  uncalibrated: false,
};
const keywords: KeywordsValue = {
  steps: [
    { k: 0, lambda: null, candidates: [], pick: "Thomas Berg", stop: false },
    { k: 1, lambda: 0.8892, candidates: [{ text: "Riverside", mmr: 0.2 }], pick: null, stop: true },
  ],
  keywords: ["Thomas Berg"],
  mmrPrevInit: "one",
  mmrPrevStart: null,
};
const linguist = (dimension: string, lean: "REAL" | "FAKE", words: number, flagged: boolean) =>
  zofiaStep("linguist", { sees: SEES, dimension, lean, words, flagged, unparsed: false });

// Written as the protocol stores them: through the same schemas (lib/debate/zofia/steps.ts).
const turns: ZTurn[] = [
  t(0, "ner", "ner", "analysis", { ...zofiaStep("ner", {}), value: ner }),
  t(0, "salience", "keywords", "analysis", { ...zofiaStep("salience", {}), value: salience }),
  t(0, "keywords", "keywords", "analysis", { ...zofiaStep("keywords", {}), value: keywords }),
  t(0, "web", "web-search", "tool", {
    ...zofiaStep("web", {
      keywords: ["Thomas Berg", "harbour bridge"],
      dropped: null,
      cutoff: "2024-03-13",
      attempt: 0,
    }),
    tool: tool('"Thomas Berg" "harbour bridge"', [], ["wikipedia.org"]),
  }),
  t(0, "web-relax-1", "web-search", "tool", {
    ...zofiaStep("web", { keywords: ["Thomas Berg"], dropped: "harbour bridge", cutoff: "2024-03-13", attempt: 1 }),
    tool: tool('"Thomas Berg"', [{ rank: 1, title: "Budget", text: "The council approved 48 million euros." }], []),
  }),
  t(0, "wiki", "wiki", "analysis", {
    ...zofiaStep("wiki", {}),
    value: { provider: "none", note: "encyclopedia lookup unavailable" },
  }),
  t(0, "linguist:emotion", "linguist", "analysis", linguist("emotion", "REAL", 12, false), "Measured tone."),
  t(
    0,
    "linguist:sentence",
    "linguist",
    "analysis",
    linguist("sentence", "FAKE", 30, true),
    "Exclamations throughout.\nLEANS: FAKE",
  ),
  t(
    0,
    "domain",
    "expert",
    "analysis",
    zofiaStep("domain", { sees: SEES, expertRole: "journalist", parsed: false }),
    "a finance person",
  ),
  t(
    0,
    "domain:repair",
    "expert",
    "analysis",
    {
      ...zofiaStep("domain", { sees: SEES, expertRole: "municipal finance analyst", parsed: true }),
      repairOf: "domain",
    },
    "ROLE: municipal finance analyst",
  ),
  t(
    0,
    "expert",
    "expert",
    "analysis",
    zofiaStep("expert", { sees: SEES, expertRole: "municipal finance analyst" }),
    "- Consistent with known budgets.",
  ),
  t(0, "claims", "extractor", "analysis", {
    ...zofiaStep("claims", { sees: SEES }),
    json: {
      core: "The council approved 48 million euros.",
      sub: ["The vote was 27 to 12.", "Construction starts in 2025."],
    },
  }),
  t(
    0,
    "verify:1",
    "verifier",
    "analysis",
    zofiaStep("verify", {
      sees: SEES,
      claim: "The council approved 48 million euros.",
      label: "SUPPORTS",
      quotes: [
        { text: "approved 48 million euros", verified: true },
        { text: "invented", verified: false },
      ],
      context: [{ text: "The council approved 48 million euros.", cosine: 0.8 }],
      called: true,
    }),
    "[LABEL]: SUPPORTS",
  ),
  t(0, "verify:2", "verifier", "analysis", {
    ...zofiaStep("verify", {
      sees: SEES,
      claim: "The vote was 27 to 12.",
      label: "NOT ENOUGH INFORMATION",
      quotes: [],
      context: [],
      called: false,
    }),
    value: { claim: "The vote was 27 to 12.", label: "NOT ENOUGH INFORMATION", quotes: [], context: [], called: false },
  }),
  t(
    1,
    "argument",
    "pro",
    "speech",
    zofiaStep("argument", { sees: SEES, side: "REAL", round: 1 }),
    "Real: the budget matches [E1].",
  ),
  t(
    1,
    "argument",
    "con",
    "speech",
    zofiaStep("argument", { sees: SEES, side: "FAKE", round: 1 }),
    "Fake: the quote is unsourced.",
  ),
  t(
    1,
    "judge",
    "judge",
    "judge",
    zofiaStep("judge", { sees: SEES, round: 1, answer: "I", probs: { R: 0.3, F: 0.2, I: 0.5 } }),
    "I",
  ),
  t(2, "argument", "pro", "speech", zofiaStep("argument", { sees: SEES, side: "REAL", round: 2 }), "Still real."),
  t(2, "argument", "con", "speech", null, "", "streaming"),
];

describe("readZofia", () => {
  const s = readZofia(turns);

  it("reads the entity pipeline: entities kept or not, salience, each SC-MMR step with λ, the query and its relaxation", () => {
    expect(s.ner?.heuristic).toBe(true);
    expect(s.ner?.units.map((u) => [u.text, u.kept])).toEqual([
      ["Thomas Berg", true],
      ["Riverside", false],
    ]);
    expect(s.salience?.units[0]?.sHier).toBe(0.42);
    expect(s.keywords?.steps.map((x) => [x.k, x.lambda, x.pick, x.stop])).toEqual([
      [0, null, "Thomas Berg", false],
      [1, 0.8892, null, true],
    ]);
    expect(s.web.map((w) => [w.phase, w.query, w.dropped, w.results.length])).toEqual([
      ["web", '"Thomas Berg" "harbour bridge"', null, 0],
      ["web-relax-1", '"Thomas Berg"', "harbour bridge", 1],
    ]);
    expect(s.web[0]?.label).toBe("offline stand-in for web search");
    expect(s.wikiOff?.note).toBe("encyclopedia lookup unavailable");
  });

  it("reads the analyses: linguist dimensions in the paper's order with their lean, the expert's role, claims and verifier labels with verified quotes", () => {
    // The lean is a badge on the page; the answer's own LEANS line is not shown twice.
    expect(s.linguist.map((l) => l.text)).toEqual(["Exclamations throughout.", "Measured tone."]);
    expect(s.linguist.map((l) => [l.dimension, l.lean, l.flagged])).toEqual([
      ["sentence", "FAKE", true],
      ["emotion", "REAL", false],
    ]);
    expect(s.expert?.role).toBe("municipal finance analyst");
    // The repaired answer is the one used, shown once.
    expect(s.domain).toMatchObject({ role: "municipal finance analyst", parsed: true });
    expect(s.claims).toMatchObject({
      core: "The council approved 48 million euros.",
      sub: ["The vote was 27 to 12.", "Construction starts in 2025."],
      unparsed: false,
    });
    expect(s.verify.map((v) => [v.label, v.called, v.quotes.map((q) => q.verified)])).toEqual([
      ["SUPPORTS", true, [true, false]],
      ["NOT ENOUGH INFORMATION", false, []],
    ]);
  });

  it("groups the debate into exchanges with the judge's call and probabilities after each", () => {
    expect(s.exchanges.map((x) => [x.round, x.pro?.content, x.con?.status, x.judge?.answer ?? null])).toEqual([
      [1, "Real: the budget matches [E1].", "completed", "I"],
      [2, "Still real.", "streaming", null],
    ]);
    expect(s.exchanges[0]?.judge?.probs).toEqual({ R: 0.3, F: 0.2, I: 0.5 });
  });

  it("puts a final call in the round it closes, after that round's judge, and reads a skipped search", () => {
    const r = readZofia([
      t(0, "web", "web-search", "analysis", {
        ...zofiaStep("web", { skipped: "no keywords" }),
        value: { skipped: true, reason: "no keywords: retrieval skipped" },
      }),
      t(5, "argument", "pro", "speech", null, "p"),
      t(5, "argument", "con", "speech", null, "c"),
      t(
        5,
        "judge-final",
        "judge",
        "judge",
        zofiaStep("judge-final", { sees: SEES, answer: null, probs: { R: 0.5, F: 0.5 } }),
        "?",
      ),
      t(
        5,
        "judge-final:repair",
        "judge",
        "judge",
        zofiaStep("judge-final", { sees: SEES, answer: "R", repairOf: "judge-final" }),
        "R",
      ),
    ]);
    expect(r.web[0]?.skipped).toBe("no keywords: retrieval skipped");
    expect(r.exchanges[0]).toMatchObject({ round: 5, judge: null, final: { answer: "R", final: true } });
  });

  it("reads a judge-final without a debate (debate off) as the one call", () => {
    const solo = readZofia([
      t(
        1,
        "judge-final",
        "judge",
        "judge",
        zofiaStep("judge-final", { sees: SEES, answer: "F", probs: { R: 0.1, F: 0.9 } }),
        "F",
      ),
    ]);
    expect(solo.exchanges).toEqual([]);
    expect(solo.soloFinal).toMatchObject({ answer: "F", final: true });
  });

  it("draws a debate with nothing stored yet as waiting, not as an error", () => {
    const empty = readZofia([]);
    expect([empty.ner, empty.salience, empty.keywords, empty.claims, empty.expert]).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(empty.web).toEqual([]);
    expect(empty.unread).toEqual([]);
  });

  it("reads every step of a well-formed debate, leaving nothing unread", () => {
    expect(s.unread).toEqual([]);
  });

  it("names a finished step whose stored metadata does not parse (an older row) instead of guessing, and still reads the rest", () => {
    const old = readZofia([
      // An older NER row: tauSteps as bare numbers, units without offsets.
      t(0, "ner", "ner", "analysis", {
        zofia: { step: "ner" },
        value: {
          provider: "rule",
          units: [{ text: "Thomas Berg", type: "PER", confidence: 1 }],
          tau: 0.8,
          kept: [0],
          tauSteps: [0.8],
        },
      }),
      // A linguist turn from before it recorded what it saw.
      t(0, "linguist:word", "linguist", "analysis", { zofia: { dimension: "word", lean: "REAL" } }, "Plain words."),
      // Still streaming: not written yet, so not unread.
      t(1, "judge", "judge", "judge", null, "", "streaming"),
      t(0, "salience", "keywords", "analysis", { ...zofiaStep("salience", {}), value: salience }),
    ]);
    expect(old.ner).toBeNull();
    expect(old.linguist.map((l) => [l.dimension, l.lean, l.text])).toEqual([["word", null, "Plain words."]]);
    expect(old.unread.map((u) => u.phase)).toEqual(["ner", "linguist:word"]);
    expect(old.salience?.units[0]?.sHier).toBe(0.42);
  });
});

describe("seesByAgent", () => {
  it("takes what each agent was given from the protocol's record on its turns", () => {
    const sees = seesByAgent([
      t(
        0,
        "verify:1",
        "verifier",
        "analysis",
        zofiaStep("verify", {
          sees: { article: false, web: true, wikipedia: false, llm: true },
          claim: "c",
          label: "SUPPORTS",
          quotes: [],
          context: [],
          called: true,
        }),
      ),
      t(
        0,
        "domain",
        "expert",
        "analysis",
        zofiaStep("domain", {
          sees: { article: true, web: false, wikipedia: false, llm: true },
          expertRole: "x",
          parsed: true,
        }),
      ),
      t(
        0,
        "expert",
        "expert",
        "analysis",
        zofiaStep("expert", { sees: { article: true, web: false, wikipedia: true, llm: true }, expertRole: "x" }),
      ),
      t(1, "argument", "con", "speech", zofiaStep("argument", { sees: SEES, side: "FAKE", round: 1 })),
    ]);
    expect(sees).toEqual({
      verifier: { article: false, web: true, wikipedia: false, llm: true },
      // The domain call is not the expert's report: the expert's own turn says what it read.
      expert: { article: true, web: false, wikipedia: true, llm: true },
      con: { article: true, web: true, wikipedia: true, llm: true },
    });
  });
});

describe("labels and dates", () => {
  it("reads REAL / FAKE as TRUE / FALSE and the web cutoff as the day before publication", () => {
    expect([
      productLabelOf("zofia", "REAL"),
      productLabelOf("zofia", "FAKE"),
      productLabelOf("zofia", "UNPARSED"),
    ]).toEqual(["TRUE", "FALSE", null]);
    expect(dayBefore("2024-03-01")).toBe("2024-02-29");
    expect(dayBefore(null)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { zofiaConfigSchema } from "@/lib/debate/zofia/config";
import { chooseSense, firstSentences, replaceMention } from "@/lib/debate/zofia/disambiguation";
import { groupUnits, thresholdUnits } from "@/lib/debate/zofia/ner-units";
import { parseJudge, parseLinguist, parseRole, parseVerify } from "@/lib/debate/zofia/parse";
import { bestMentions, hierarchicalSalience, localContext } from "@/lib/debate/zofia/salience";
import { lambdaK, scMmr } from "@/lib/debate/zofia/sc-mmr";
import { splitSentences } from "@/lib/debate/zofia/sentences";
import { quoteVerified, relevantContext } from "@/lib/debate/zofia/verifier-context";
import { cutoffBefore, excludedDomains, hasEveryKeyword, leastSalient, webQuery } from "@/lib/debate/zofia/web-query";

const cfg = zofiaConfigSchema.parse({ ner: "rule", wiki: "none" });

describe("NER threshold (spec §2: τ from 0.8 down in whole tenths until one unit is kept, floor 0.1)", () => {
  it("keeps the one unit at or above τ 0.8 from [.95, .75]", () => {
    const r = thresholdUnits([0.95, 0.75], cfg);
    expect(r.tau).toBe(0.8);
    expect(r.kept).toEqual([0]);
    expect(r.tauSteps).toEqual([{ tau: 0.8, kept: 1 }]);
  });

  it("walks down to τ 0.6 for [.65, .4] and keeps .65 only, passing 0.7 exactly (no float drift)", () => {
    const r = thresholdUnits([0.65, 0.4], cfg);
    expect(r.tau).toBe(0.6);
    expect(r.kept).toEqual([0]);
    expect(r.tauSteps.map((s) => s.tau)).toEqual([0.8, 0.7, 0.6]);
  });

  it("keeps a unit whose confidence is exactly 0.7 at τ 0.7 (0.8 − 0.1 in floats would be 0.7000000000000001 and drop it)", () => {
    expect(thresholdUnits([0.7], cfg)).toMatchObject({ tau: 0.7, kept: [0] });
  });

  it("keeps nothing when every unit is under the floor", () => {
    const r = thresholdUnits([0.05, 0.09], cfg);
    expect(r.kept).toEqual([]);
    expect(r.tau).toBe(0.1);
    expect(r.tauSteps).toHaveLength(8);
  });

  it("refuses a τ that is not a whole number of tenths", () => {
    expect(zofiaConfigSchema.safeParse({ nerTau: 0.75, ner: "rule", wiki: "none" }).success).toBe(false);
  });

  it("groups word pieces and I- tags into units whose confidence is the tokens' mean", () => {
    const text = "Barack Obama visited Washington today.";
    const units = groupUnits(
      [
        { text: "Barack", tag: "B-PER", confidence: 0.9, start: 0, end: 6 },
        { text: "Obama", tag: "I-PER", confidence: 0.7, start: 7, end: 12 },
        { text: "Washing", tag: "B-LOC", confidence: 0.8, start: 21, end: 28 },
        { text: "##ton", tag: "I-LOC", confidence: 0.6, start: 28, end: 31 },
      ],
      text,
      splitSentences(text),
    );
    expect(units.map((u) => [u.text, u.type])).toEqual([
      ["Barack Obama", "PER"],
      ["Washington", "LOC"],
    ]);
    expect(units[0]!.confidence).toBeCloseTo(0.8, 10);
    expect(units[1]!.confidence).toBeCloseTo(0.7, 10);
  });
});

describe("hierarchical salience and λ_k (to 1e-4)", () => {
  it("S_hier = cos(v_U, v_C) · cos(v_C, v_T)", () => {
    const s = hierarchicalSalience([1, 0], [0.6, 0.8], [0, 1]);
    expect(s.local).toBeCloseTo(0.6, 4);
    expect(s.global).toBeCloseTo(0.8, 4);
    expect(s.sHier).toBeCloseTo(0.48, 4);
    expect(hierarchicalSalience([3, 4], [4, 3], [0, 5]).sHier).toBeCloseTo(0.96 * 0.6, 4);
  });

  it("λ_1..λ_7 = .8892 .8504 .7981 .7275 .6321 .5034 .3297, and 0.1 from k = 8", () => {
    const want = [0.8892, 0.8504, 0.7981, 0.7275, 0.6321, 0.5034, 0.3297];
    want.forEach((w, i) => expect(Math.abs(lambdaK(i + 1, cfg) - w)).toBeLessThan(1e-4));
    expect(lambdaK(8, cfg)).toBe(0.1);
    expect(lambdaK(12, cfg)).toBe(0.1);
  });

  it("the local context is the sentence with its neighbours; repeated mentions keep the most salient", () => {
    const s = splitSentences("One here. Two there. Three everywhere. Four at last.");
    expect(localContext(s, 0)).toBe("One here. Two there.");
    expect(localContext(s, 2)).toBe("Two there. Three everywhere. Four at last.");
    expect(
      bestMentions([
        { text: "Obama", sHier: 0.2 },
        { text: "obama", sHier: 0.5 },
        { text: "Kenya", sHier: 0.1 },
      ]),
    ).toEqual([
      { text: "obama", sHier: 0.5 },
      { text: "Kenya", sHier: 0.1 },
    ]);
  });
});

describe("SC-MMR on a five-entity fixture", () => {
  // A and B nearly the same direction; C and D orthogonal to A; E between A and C with low salience.
  const b = [0.99, Math.sqrt(1 - 0.99 ** 2), 0];
  const five = [
    { text: "A", sHier: 0.9, vector: [1, 0, 0] },
    { text: "B", sHier: 0.8, vector: b },
    { text: "C", sHier: 0.7, vector: [0, 1, 0] },
    { text: "D", sHier: 0.6, vector: [0, 0, 1] },
    { text: "E", sHier: 0.2, vector: [Math.SQRT1_2, Math.SQRT1_2, 0] },
  ];

  it("seeds with A, then picks C (diverse) before B (salient but redundant), then D, and stops at E", () => {
    const r = scMmr(five, { ...cfg, mmrPrevInit: "one" });
    expect(r.keywords).toEqual(["A", "C", "B", "D"]);
    expect(r.steps.map((s) => [s.k, s.pick, s.stop])).toEqual([
      [0, "A", false],
      [1, "C", false],
      [2, "B", false],
      [3, "D", false],
      [4, null, true],
    ]);
    const mmr = (k: number, t: string) => r.steps[k]!.candidates.find((c) => c.text === t)!.mmr;
    expect(mmr(1, "C")).toBeCloseTo(0.8892 * 0.7, 3);
    expect(mmr(1, "B")).toBeCloseTo(0.8892 * 0.8 - 0.1108 * 0.99, 3);
    expect(mmr(2, "B")).toBeCloseTo(0.8504 * 0.8 - 0.1496 * 0.99, 3);
    expect(mmr(3, "D")).toBeCloseTo(0.7981 * 0.6, 3);
    expect(r.steps[4]!.lambda).toBeCloseTo(0.7275, 4);
    expect(mmr(4, "E")).toBeLessThan(0.5 * mmr(3, "D"));
  });

  it("mmrPrevInit: the paper's 1.0 stops at one keyword where `seed` (λ_0·S_hier(seed)) lets a second in", () => {
    const two = [
      { text: "A", sHier: 0.9, vector: [1, 0] },
      { text: "B", sHier: 0.5, vector: [0, 1] },
    ];
    // MMR(B) = λ_1 · 0.5 = 0.4446: not above γ·1.0 = 0.5, but above γ·λ_0·0.9 = 0.4131.
    const one = scMmr(two, { ...cfg, mmrPrevInit: "one" });
    expect(one.keywords).toEqual(["A"]);
    expect(one.mmrPrevStart).toBe(1);
    expect(one.steps.at(-1)).toMatchObject({ k: 1, pick: null, stop: true });
    const seed = scMmr(two, { ...cfg, mmrPrevInit: "seed" });
    expect(seed.keywords).toEqual(["A", "B"]);
    expect(seed.mmrPrevStart).toBeCloseTo((1 - Math.exp(-2.5)) * 0.9, 4);
  });

  it("gives no keywords and no steps without candidates", () => {
    expect(scMmr([], cfg)).toMatchObject({ keywords: [], steps: [] });
  });
});

describe("Wikipedia sense choice", () => {
  it("replaces the mention with each candidate's description and picks the most similar context", () => {
    const context = "Jordan scored 40 points for the Bulls last night.";
    expect(replaceMention(context, "Jordan", "American basketball player")).toBe(
      "American basketball player scored 40 points for the Bulls last night.",
    );
    // Scripted vectors: the basketball sense points the same way as the context, the country does not.
    const r = chooseSense(
      [1, 0, 0],
      [
        [0, 1, 0],
        [0.9, 0.1, 0],
        [0.5, 0.5, 0.5],
      ],
    );
    expect(r.index).toBe(1);
    expect(r.similarities[0]).toBeCloseTo(0, 6);
  });

  it("keeps the first n sentences of a summary", () => {
    expect(firstSentences("One. Two! Three? Four.", 3)).toBe("One. Two! Three?");
  });
});

describe("web query and relaxation", () => {
  it("quotes every keyword, excludes news and Wikipedia, and cuts off the day before publication", () => {
    expect(webQuery(["Elizabeth Warren", "Kenya"], "tavily")).toBe('"Elizabeth Warren" "Kenya"');
    expect(webQuery(["Kenya"], "brave")).toBe('"Kenya" -site:wikipedia.org');
    expect(excludedDomains()).toEqual(expect.arrayContaining(["wikipedia.org", "politifact.com", "cnn.com"]));
    expect(cutoffBefore("2018-03-01T00:00:00.000Z")).toBe("2018-02-28");
    expect(cutoffBefore("2020-01-01")).toBe("2019-12-31");
    expect(cutoffBefore(undefined)).toBeNull();
  });

  it("a result counts offline only when it holds every keyword; the least salient keyword is dropped first", () => {
    expect(
      hasEveryKeyword({ title: "Senate", text: "Elizabeth Warren visited Kenya." }, ["Elizabeth Warren", "Kenya"]),
    ).toBe(true);
    expect(hasEveryKeyword({ title: "Senate", text: "Warren visited Nairobi." }, ["Elizabeth Warren", "Kenya"])).toBe(
      false,
    );
    expect(
      leastSalient(
        ["A", "B", "C"],
        new Map([
          ["A", 0.5],
          ["B", 0.1],
          ["C", 0.3],
        ]),
      ),
    ).toBe("B");
  });
});

describe("verifier context (θ_sim) and quotes", () => {
  it("keeps the top-k sentences and drops those with cosine under 0.1", () => {
    const sentences = ["close", "far", "orthogonal", "near"];
    const vectors = [
      [1, 0],
      [0.05, 1],
      [0, 1],
      [0.8, 0.6],
    ];
    const ctx = relevantContext([1, 0], sentences, vectors, { verifyTopK: 5, thetaSim: 0.1 });
    expect(ctx.map((c) => c.text)).toEqual(["close", "near"]);
    expect(relevantContext([1, 0], sentences, vectors, { verifyTopK: 1, thetaSim: 0.1 }).map((c) => c.text)).toEqual([
      "close",
    ]);
    expect(relevantContext([1, 0], ["far"], [[0, 1]], { verifyTopK: 5, thetaSim: 0.1 })).toEqual([]);
  });

  it("a quote is verified only when it is in the context", () => {
    const context = ["The senator visited Nairobi in March 2018."];
    expect(quoteVerified("visited Nairobi in  March 2018", context)).toBe(true);
    expect(quoteVerified("visited Nairobi in May", context)).toBe(false);
    expect(quoteVerified("", context)).toBe(false);
  });
});

describe("answer readings", () => {
  it("reads LEANS, ROLE, the judge's letter and the verifier's sections", () => {
    expect(parseLinguist("Loaded words: 'disaster', 'never'.\nLEANS: FAKE")).toMatchObject({ lean: "FAKE", words: 4 });
    expect(parseLinguist("no lean given")).toBeNull();
    expect(parseRole("ROLE: epidemiologist")).toBe("epidemiologist");
    expect(parseRole("I think a doctor")).toBeNull();
    expect(parseJudge("R", ["R", "F", "I"])).toBe("R");
    expect(parseJudge("**FAKE**", ["R", "F", "I"])).toBe("F");
    expect(parseJudge("CONTINUE", ["R", "F", "I"])).toBe("I");
    expect(parseJudge("I", ["R", "F"])).toBeNull();
    expect(parseJudge("Maybe", ["R", "F", "I"])).toBeNull();
    expect(
      parseVerify(
        '[LABEL]: REFUTES\n[REASON]: The date differs.\n[QUOTES]:\n- The senator visited Nairobi in March 2018.\n- "made up"',
      ),
    ).toEqual({
      label: "REFUTES",
      reason: "The date differs.",
      quotes: ["The senator visited Nairobi in March 2018.", "made up"],
    });
    expect(parseVerify("It is true")).toBeNull();
  });
});

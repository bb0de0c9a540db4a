import { describe, expect, it } from "vitest";
import { idf, matchLexemes } from "@/lib/retrieval/lexical-stats";
import { parseHeadline } from "@/lib/retrieval/search";

const stats = {
  n: 1000,
  avgLength: 10,
  df: new Map([
    ["covid", 900],
    ["vaccin", 300],
    ["stroke", 12],
    ["ivermectin", 2],
  ]),
};

describe("lexical statistics", () => {
  it("BM25 IDF: rarer is heavier, unseen is heaviest, and a stem in almost every passage stays positive", () => {
    expect(idf(stats, "ivermectin")).toBeGreaterThan(idf(stats, "stroke"));
    expect(idf(stats, "stroke")).toBeGreaterThan(idf(stats, "covid"));
    expect(idf(stats, "never-seen")).toBeCloseTo(Math.log(1 + 1000.5 / 0.5), 10);
    expect(idf(stats, "covid")).toBeCloseTo(Math.log(1 + 100.5 / 900.5), 10);
    expect(idf(stats, "covid")).toBeGreaterThan(0);
  });

  it("matches on the rarest stems within the row budget, always at least one", () => {
    expect(matchLexemes(stats, ["covid", "stroke", "ivermectin", "vaccin"], 400)).toEqual([
      "ivermectin",
      "stroke",
      "vaccin",
    ]);
    expect(matchLexemes(stats, ["covid", "stroke", "ivermectin"], 10)).toEqual(["ivermectin"]);
    expect(matchLexemes(stats, ["covid"], 10)).toEqual(["covid"]);
    expect(matchLexemes(stats, ["stroke", "stroke"], 1000)).toEqual(["stroke"]);
    expect(matchLexemes(stats, [], 1000)).toEqual([]);
  });
});

describe("headline parsing", () => {
  it("turns ts_headline markers into offsets in the original text", () => {
    const text = "Gas prices were higher; gas was dear.";
    const hl = "\u0001Gas\u0002 \u0001prices\u0002 were higher; \u0001gas\u0002 was dear.";
    const r = parseHeadline(hl, text);
    expect(r.terms).toEqual(["gas", "prices"]);
    expect(r.highlights.map((x) => text.slice(x.start, x.end))).toEqual(["Gas", "prices", "gas"]);
  });

  it("gives no offsets when the headline is not the text (they would point at the wrong words)", () => {
    const r = parseHeadline("\u0001Gas\u0002 ... prices", "Gas and other prices");
    expect(r.terms).toEqual(["gas"]);
    expect(r.highlights).toEqual([]);
  });
});

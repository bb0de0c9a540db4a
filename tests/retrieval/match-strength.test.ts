import { describe, expect, it } from "vitest";
import { isWeakMatch, wordsForStems, WEAK_COSINE } from "@/lib/retrieval/match-strength";

describe("weak matches", () => {
  it("marks a passage with no query word and a low cosine, and nothing that shares a word or is close in meaning", () => {
    expect(isWeakMatch({ lexical: null, dense: { rank: 1, score: 0.02 } })).toBe(true);
    expect(isWeakMatch({ lexical: null, dense: null })).toBe(true);
    expect(isWeakMatch({ lexical: { rank: 4, score: 1.2 }, dense: { rank: 1, score: 0.02 } })).toBe(false);
    expect(isWeakMatch({ lexical: null, dense: { rank: 1, score: WEAK_COSINE + 0.2 } })).toBe(false);
  });
});

describe("the words searched", () => {
  it("are the user's own words in the order typed, not the stems in index order", () => {
    const typed = [
      { word: "Xyzzy", lexemes: ["xyzzi"] },
      { word: "tolls", lexemes: ["toll"] },
      { word: "toll", lexemes: ["toll"] },
    ];
    expect(wordsForStems(["toll", "xyzzi"], typed)).toEqual(["Xyzzy", "tolls"]);
    expect(wordsForStems(["odd"], typed)).toEqual(["odd"]);
  });
});

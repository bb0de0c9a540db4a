import { describe, expect, it } from "vitest";
import { SEARCH_LIMITS, searchWords } from "@/lib/fact-checks/search";

describe("the fact-checks search box's words", () => {
  it("splits on any space, drops quotes around words, ignores case and repeats", () => {
    expect(searchWords('  "Harbour"\tbridge\n“MAYOR” harbour ')).toEqual(["harbour", "bridge", "mayor"]);
    // Inside a word, a quote or a sign is part of it.
    expect(searchWords("O'Neill 100% 50_000")).toEqual(["o'neill", "100%", "50_000"]);
  });

  it("gives nothing for nothing typed", () => {
    expect(searchWords("")).toEqual([]);
    expect(searchWords("   ")).toEqual([]);
    expect(searchWords(undefined)).toEqual([]);
    expect(searchWords('""')).toEqual([]);
  });

  it("keeps one request one cheap query: at most 8 words of at most 64 characters, from the first 200 characters", () => {
    const many = Array.from({ length: 12 }, (_, i) => `w${i}`).join(" ");
    expect(searchWords(many)).toEqual(["w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7"]);
    expect(searchWords("x".repeat(100))[0]).toHaveLength(SEARCH_LIMITS.wordChars);
    expect(searchWords(`${"a ".repeat(100)}late`)).not.toContain("late");
  });
});

import { describe, expect, it } from "vitest";
import { chunkText, resolveChunking, splitSentences } from "@/lib/corpus/chunk";

const texts = (t: string) => splitSentences(t).map((s) => s.text);

describe("splitSentences", () => {
  it("does not split at abbreviations, initials, initialisms before names, or decimals", () => {
    expect(texts("Dr. Quinn met Mr. Reyes at St. Brigid's. They spoke for 3.5 hours.")).toEqual([
      "Dr. Quinn met Mr. Reyes at St. Brigid's.",
      "They spoke for 3.5 hours.",
    ]);
    expect(texts("Data from the U.S. Energy Information Administration show it. J. R. Smith agreed.")).toEqual([
      "Data from the U.S. Energy Information Administration show it.",
      "J. R. Smith agreed.",
    ]);
    expect(texts("Prices fell, e.g. for gas. Then rose.")).toEqual(["Prices fell, e.g. for gas.", "Then rose."]);
  });

  it("splits after an initialism when the next word opens a sentence", () => {
    expect(texts("He moved to the U.S. The weather was bad.")).toEqual([
      "He moved to the U.S.",
      "The weather was bad.",
    ]);
  });

  it("keeps closing quotes with their sentence and does not split before a lower-case continuation", () => {
    expect(texts('He said "Stop." Then he left. "Is it?" she asked. Really?! Yes.')).toEqual([
      'He said "Stop."',
      "Then he left.",
      '"Is it?" she asked.',
      "Really?!",
      "Yes.",
    ]);
    expect(texts("“We won,” she said. “It is over.” The crowd cheered.")).toEqual([
      "“We won,” she said.",
      "“It is over.”",
      "The crowd cheered.",
    ]);
  });

  it("ends a sentence at a blank line and returns exact offsets", () => {
    const t = "  # A heading\n\nFirst line\ncontinues here. Second!\n\n\nLast";
    const spans = splitSentences(t);
    expect(spans.map((s) => s.text)).toEqual(["# A heading", "First line\ncontinues here.", "Second!", "Last"]);
    for (const s of spans) expect(t.slice(s.start, s.end)).toBe(s.text);
  });

  it("returns nothing for blank text", () => {
    expect(splitSentences(" \n\t ")).toEqual([]);
  });
});

describe("chunkText", () => {
  const long = Array.from(
    { length: 40 },
    (_, i) => `Sentence ${String(i).padStart(2, "0")} is about one council meeting.`,
  ).join(" ");

  it("keeps a short document as one passage", () => {
    const t = "A single sentence. And another short one.";
    expect(chunkText(t)).toEqual([{ text: t, start: 0, end: t.length }]);
  });

  it("cuts a long text on sentence boundaries within maxChars, overlapping one sentence", () => {
    const chunks = chunkText(long, { maxChars: 200, overlapSentences: 1, minChars: 0 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(200);
      expect(long.slice(c.start, c.end)).toBe(c.text);
      expect(c.text).toMatch(/^Sentence \d\d .*\.$/);
    }
    for (let i = 1; i < chunks.length; i++) {
      const prevLast = splitSentences(chunks[i - 1]!.text).at(-1)!.text;
      expect(chunks[i]!.text.startsWith(prevLast)).toBe(true);
    }
    expect(chunks.at(-1)!.end).toBe(long.length);
    expect(chunks[0]!.start).toBe(0);
  });

  it("without overlap, passages tile the text", () => {
    const chunks = chunkText(long, { maxChars: 300, overlapSentences: 0, minChars: 0 });
    const joined = chunks.map((c) => c.text).join(" ");
    expect(joined).toBe(long);
  });

  it("merges a short tail into the passage before it", () => {
    const t = `${"Alpha beta gamma delta epsilon. ".repeat(6).trim()} Tail.`;
    const chunks = chunkText(t, { maxChars: 100, overlapSentences: 0, minChars: 20 });
    expect(chunks.at(-1)!.text.endsWith("epsilon. Tail.")).toBe(true);
    expect(chunks.some((c) => c.text === "Tail.")).toBe(false);
  });

  it("cuts a sentence longer than maxChars at whitespace", () => {
    const t = `${"word ".repeat(100).trim()}.`;
    const chunks = chunkText(t, { maxChars: 120, overlapSentences: 1, minChars: 0 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(120);
      expect(c.text).toMatch(/^word/);
      expect(t.slice(c.start, c.end)).toBe(c.text);
    }
  });

  it("rejects nonsense options", () => {
    expect(() => resolveChunking({ maxChars: 10 })).toThrow(/chunk size/);
    expect(() => resolveChunking({ overlapSentences: -1 })).toThrow(/overlap/);
  });
});

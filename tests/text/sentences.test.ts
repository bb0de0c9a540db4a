import { describe, expect, it } from "vitest";
import { splitSentences as checkworthySentences } from "@/lib/checkworthy/split";
import { splitSentences as corpusSentences } from "@/lib/corpus/chunk";
import { splitSentences } from "@/lib/text/sentences";

const texts = (spans: { text: string }[]) => spans.map((s) => s.text);

describe("the one sentence splitter", () => {
  it("is the corpus's and check-worthiness's, with each caller's reading of an ellipsis", () => {
    const text = "Crime is up 20%... Or is it? Wait… What happened? Mr. Smith of the U.S. Senate said so.";
    // Corpus passages: an ellipsis before a capital ends a sentence (as before).
    expect(texts(corpusSentences(text))).toEqual([
      "Crime is up 20%...",
      "Or is it?",
      "Wait…",
      "What happened?",
      "Mr. Smith of the U.S. Senate said so.",
    ]);
    expect(corpusSentences(text)).toEqual(splitSentences(text));
    // Check-worthiness: an ellipsis continues the sentence, as its sentences always read.
    expect(texts(checkworthySentences(text))).toEqual([
      "Crime is up 20%... Or is it?",
      "Wait… What happened?",
      "Mr. Smith of the U.S. Senate said so.",
    ]);
    expect(texts(splitSentences(text, { ellipsisEndsSentence: false }))).toEqual(texts(checkworthySentences(text)));
  });

  it("keeps offsets into the text either way", () => {
    const text = "One... Two. Three!";
    for (const ellipsisEndsSentence of [true, false])
      for (const s of splitSentences(text, { ellipsisEndsSentence })) expect(text.slice(s.start, s.end)).toBe(s.text);
  });
});

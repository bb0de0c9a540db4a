import { describe, expect, it } from "vitest";
import { claimDraft, needsContext } from "@/lib/checkworthy/form";
import { isTranscript, splitSentences } from "@/lib/checkworthy/split";

describe("splitting a text into sentences", () => {
  it("keeps who said each sentence in a transcript, skips stage directions, and joins continuation lines to the turn", () => {
    const s = splitSentences(
      [
        "MODERATOR: Good evening. Welcome to St. Louis.",
        "SEN. HALL (D-Ohio): Mr. Reyes raised taxes by 12% in 2019. The U.S. economy grew 3.5 percent!",
        "(APPLAUSE)",
        "GOVERNOR REYES: That's false.",
        "I never did that.",
      ].join("\n"),
    );
    expect(s.map((x) => [x.speaker, x.text])).toEqual([
      ["MODERATOR", "Good evening."],
      ["MODERATOR", "Welcome to St. Louis."],
      ["SEN. HALL (D-Ohio)", "Mr. Reyes raised taxes by 12% in 2019."],
      ["SEN. HALL (D-Ohio)", "The U.S. economy grew 3.5 percent!"],
      ["GOVERNOR REYES", "That's false."],
      ["GOVERNOR REYES", "I never did that."],
    ]);
    expect(s.map((x) => x.index)).toEqual([0, 1, 2, 3, 4, 5]);
    // One block per speaker turn, so the page shows the turns as they were.
    expect(s.map((x) => x.block)).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it("reads prose by paragraph, with no speakers, and does not take one 'Note:' line for a transcript", () => {
    const text =
      "Note: figures are provisional.\n\nThe rate fell to 3.4% in January. Dr. Smith said so,\nand it was wrapped.";
    expect(isTranscript(text)).toBe(false);
    const s = splitSentences(text);
    expect(s.map((x) => [x.block, x.speaker, x.text])).toEqual([
      [0, null, "Note: figures are provisional."],
      [1, null, "The rate fell to 3.4% in January."],
      [1, null, "Dr. Smith said so, and it was wrapped."],
    ]);
  });

  it("gives nothing for a text without words", () => {
    expect(splitSentences(" \n\n ... \n")).toEqual([]);
  });
});

describe("the first draft of a claim", () => {
  it("names the speaker, and asks for who and when only where the sentence leaves them open", () => {
    expect(claimDraft({ text: "We cut taxes by 12 percent.", speaker: "SENATOR HALL" })).toBe(
      "Senator Hall said: We cut taxes by 12 percent.",
    );
    expect(needsContext({ text: "We cut taxes by 12 percent.", speaker: "SENATOR HALL" })).toBe(false);
    expect(needsContext({ text: "We cut taxes by 12 percent.", speaker: null })).toBe(true);
    expect(needsContext({ text: "He cut taxes this year.", speaker: "SENATOR HALL" })).toBe(true);
    expect(needsContext({ text: "Ohio expanded Medicaid in 2014.", speaker: null })).toBe(false);
  });
});

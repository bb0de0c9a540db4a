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

  // Transcripts as transcription services export them (written here in their layouts, not copied).
  it("reads a transcript whose speaker lines carry time codes and the words on the lines below", () => {
    const rev = [
      "Kristen Welker: (00:12)",
      "Good evening. Welcome to the debate.",
      "",
      "Donald Trump: (01:05)",
      "Thank you. We cut taxes by 20 percent.",
      "",
      "Joe Biden (00:01:40):",
      "That's not true.",
      "[crosstalk]",
      "Unemployment rose to 14 percent.",
    ].join("\n");
    expect(isTranscript(rev)).toBe(true);
    expect(splitSentences(rev).map((x) => [x.block, x.speaker, x.text])).toEqual([
      [0, "Kristen Welker", "Good evening."],
      [0, "Kristen Welker", "Welcome to the debate."],
      [1, "Donald Trump", "Thank you."],
      [1, "Donald Trump", "We cut taxes by 20 percent."],
      [2, "Joe Biden", "That's not true."],
      [2, "Joe Biden", "Unemployment rose to 14 percent."],
    ]);
    const numbered = "Speaker 1  0:03\nSo the budget went up by 12 percent.\n\nSpeaker 2  0:15\nNo, it went down.";
    expect(splitSentences(numbered).map((x) => [x.speaker, x.text])).toEqual([
      ["Speaker 1", "So the budget went up by 12 percent."],
      ["Speaker 2", "No, it went down."],
    ]);
    const capitals = "MODERATOR:\nWelcome.\nSMITH:\n(CROSSTALK)\nJONES:\nTaxes rose 5 percent.";
    expect(splitSentences(capitals).map((x) => [x.speaker, x.text])).toEqual([
      ["MODERATOR", "Welcome."],
      ["JONES", "Taxes rose 5 percent."],
    ]);
  });

  it("drops time codes that open a line or a turn, never from the speaker's words", () => {
    const text = [
      "[00:01:23] BIDEN: We created 15 million jobs by 10:30 on election day.",
      "00:01:30 TRUMP: (01:30) Wrong, it was fewer.",
      "BIDEN: 9:30 was the hour the polls closed.",
      "[00:01:40] And then",
      "10:30 is when the count began.",
    ].join("\n");
    expect(splitSentences(text).map((x) => [x.speaker, x.text])).toEqual([
      ["BIDEN", "We created 15 million jobs by 10:30 on election day."],
      ["TRUMP", "Wrong, it was fewer."],
      // A bare time opening the words is part of them; a marked one opening a line is a time code.
      ["BIDEN", "9:30 was the hour the polls closed."],
      ["BIDEN", "And then 10:30 is when the count began."],
    ]);
  });

  it("takes no article heading or list of times for a speaker, and loses none of their text", () => {
    const article = "Background:\nThe levy rose 3 percent.\n\nWhat we know:\nNothing more.";
    expect(isTranscript(article)).toBe(false);
    expect(splitSentences(article).map((x) => x.speaker)).toEqual([null, null]);
    const times = "Doors open 18:30\nTalks begin 19:00\nClose 21:00";
    expect(splitSentences(times).map((x) => [x.speaker, x.text])).toEqual([
      [null, "Doors open 18:30"],
      [null, "Talks begin 19:00"],
      [null, "Close 21:00"],
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

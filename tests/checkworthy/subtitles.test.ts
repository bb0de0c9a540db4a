import { describe, expect, it } from "vitest";
import { isTranscript, splitSentences } from "@/lib/checkworthy/split";
import { isSubtitles } from "@/lib/checkworthy/subtitles";

/*
 * Captions as a newsroom gets them (written here in the SubRip and WebVTT layouts, not copied): the
 * splitter reads their words, not their cue numbers and timings, and sentences run across cues.
 */

const said = (text: string) => splitSentences(text).map((s) => [s.speaker, s.text]);

describe("subtitles read as the words they carry", () => {
  it("reads SubRip cues as running text, dropping numbers, timings and markup", () => {
    const srt = [
      "1",
      "00:00:01,000 --> 00:00:04,000",
      "We cut taxes by 20 percent",
      "",
      "2",
      "00:00:04,000 --> 00:00:07,500",
      "for working families. And",
      "unemployment fell to 4 percent.",
      "",
      "3",
      "00:00:08,000 --> 00:00:10,000",
      "<i>Thank you all.</i>",
      "",
    ].join("\r\n");
    expect(isSubtitles(srt)).toBe(true);
    expect(isTranscript(srt)).toBe(false);
    expect(said(srt)).toEqual([
      [null, "We cut taxes by 20 percent for working families."],
      [null, "And unemployment fell to 4 percent."],
      [null, "Thank you all."],
    ]);
  });

  it("keeps who speaks from WebVTT voice tags, one turn however many lines carry the tag", () => {
    const vtt = [
      "WEBVTT",
      "Kind: captions",
      "",
      "NOTE captioned by hand",
      "with a second line",
      "",
      "intro",
      "00:00:01.000 --> 00:00:03.000 align:start position:10%",
      "<v Kristen Welker>Good evening, welcome.",
      "",
      "00:00:03.000 --> 00:00:06.000",
      "<v Joe Biden>Unemployment rose",
      "to 14 percent in April.",
      "",
      "00:00:06.000 --> 00:00:09.000",
      "<v.loud Donald Trump>That's false. We built",
      "<v Donald Trump>the <c.yellow>greatest</c> economy.</v>",
    ].join("\n");
    expect(isTranscript(vtt)).toBe(true);
    expect(said(vtt)).toEqual([
      ["Kristen Welker", "Good evening, welcome."],
      ["Joe Biden", "Unemployment rose to 14 percent in April."],
      ["Donald Trump", "That's false."],
      ["Donald Trump", "We built the greatest economy."],
    ]);
  });

  it("reads rolling captions once, and takes '>> NAME:' for a change of speaker", () => {
    const rolling = [
      "WEBVTT",
      "",
      "00:00:00.000 --> 00:00:02.000",
      "we cut taxes",
      "",
      "00:00:02.000 --> 00:00:04.000",
      "we cut taxes",
      "by 20 percent",
      "",
      "00:00:04.000 --> 00:00:06.000",
      "by 20 percent",
      "and jobs grew.",
    ].join("\n");
    expect(said(rolling)).toEqual([[null, "we cut taxes by 20 percent and jobs grew."]]);
    const live = [
      "1",
      "00:00:01,000 --> 00:00:02,000",
      ">> MODERATOR: Senator, your answer.",
      "",
      "2",
      "00:00:02,000 --> 00:00:05,000",
      ">> SENATOR HALL: The deficit doubled",
      "in four years.",
    ].join("\n");
    expect(said(live)).toEqual([
      ["MODERATOR", "Senator, your answer."],
      ["SENATOR HALL", "The deficit doubled in four years."],
    ]);
  });

  it("reads cues that no blank line separates", () => {
    const tight = "1\n00:00:01,000 --> 00:00:02,000\nWe cut taxes\n2\n00:00:02,000 --> 00:00:04,000\nby 20 percent.\n";
    expect(said(tight)).toEqual([[null, "We cut taxes by 20 percent."]]);
    const unnumbered =
      "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nWe cut taxes\n00:00:02.000 --> 00:00:04.000\nby 20 percent.";
    expect(said(unnumbered)).toEqual([[null, "We cut taxes by 20 percent."]]);
  });

  it("leaves a text with one time range in it alone", () => {
    const prose = "The polls were open 07:00:00.000 --> 20:00:00.000 on the day.\n\nTurnout was 64 percent.";
    expect(isSubtitles(prose)).toBe(false);
    expect(said(prose)).toEqual([
      [null, "The polls were open 07:00:00.000 --> 20:00:00.000 on the day."],
      [null, "Turnout was 64 percent."],
    ]);
  });
});

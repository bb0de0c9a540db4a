import { describe, expect, it } from "vitest";
import { parseTranscript, TranscriptError } from "@/lib/live/transcript";
import { groupKeyOf, sameGroup } from "@/lib/live/groups";
import { checkedBeforeWords, timeCode } from "@/lib/live/view";

describe("transcript files for the live desk", () => {
  it("reads SPEAKER: words lines, continuing a turn and skipping stage directions, on a speaking clock", () => {
    const lines = parseTranscript(
      "SMITH: Unemployment fell to 3 percent.\n(APPLAUSE)\nand it will fall further\n\nJONES: No.",
    );
    expect(lines.map((l) => [l.lineId, l.speaker, l.text])).toEqual([
      ["L1", "SMITH", "Unemployment fell to 3 percent."],
      ["L3", "SMITH", "and it will fall further"],
      ["L5", "JONES", "No."],
    ]);
    expect(lines[0]!.atMs).toBe(0);
    // Five words at 2.5 words a second.
    expect(lines[1]!.atMs).toBe(2000);
    expect(lines[2]!.atMs).toBeGreaterThan(lines[1]!.atMs);
  });

  it("reads WebVTT with voice spans, cue ids and markup, and SRT with comma milliseconds", () => {
    const vtt = parseTranscript(
      "WEBVTT\n\nNOTE a comment\n\nc1\n00:00:01.500 --> 00:00:04.000\n<v Jane Smith>Crime rose by <i>12</i> percent &amp; more.\n\n00:01:02.000 --> 00:01:05.000\nIn 2019 alone.\n",
    );
    expect(vtt).toEqual([
      { lineId: "c1", speaker: "Jane Smith", text: "Crime rose by 12 percent & more.", atMs: 1500 },
      { lineId: "4", speaker: "Jane Smith", text: "In 2019 alone.", atMs: 62_000 },
    ]);
    const srt = parseTranscript(
      "1\r\n01:00:00,250 --> 01:00:02,000\r\nMODERATOR: Welcome.\r\n\r\n2\r\n01:00:03,000 --> 01:00:04,000\r\nThank you.\r\n",
    );
    expect(srt.map((l) => [l.lineId, l.speaker, l.text, l.atMs])).toEqual([
      ["1", "MODERATOR", "Welcome.", 3_600_250],
      ["2", "MODERATOR", "Thank you.", 3_603_000],
    ]);
  });

  it("says what to give when a file has no lines", () => {
    expect(() => parseTranscript("\n\n  \n", "empty.vtt")).toThrow(TranscriptError);
    expect(() => parseTranscript("", "empty.vtt")).toThrow(/empty\.vtt has no lines: give WebVTT, SRT/);
  });
});

describe("repeats of a claim", () => {
  it("groups the same claim reworded with filler, never two claims whose numbers differ", () => {
    const a = groupKeyOf("Unemployment in Freedonia fell to 3 percent last year.");
    expect(sameGroup(a, groupKeyOf("Look, unemployment in Freedonia really fell to 3 percent last year!"))).toBe(true);
    expect(sameGroup(a, groupKeyOf("Unemployment in Freedonia fell to 4 percent last year."))).toBe(false);
    expect(sameGroup(a, groupKeyOf("Crime in Freedonia rose last year."))).toBe(false);
  });
});

describe("a card's words", () => {
  it("puts the earlier verdict first, with its date and publisher", () => {
    const m = {
      source: "imported",
      ref: "1",
      claim: "x",
      rating: "Pants on Fire",
      scale: "FALSE",
      publisher: "Full Fact",
      url: null,
      claimDate: null,
      reviewDate: "2025-03-12T00:00:00.000Z",
      similarity: 0.9,
    };
    expect(checkedBeforeWords(m)).toBe("Checked before: False (“Pants on Fire”), 12 March 2025, by Full Fact");
    expect(checkedBeforeWords({ ...m, rating: "False" })).toBe("Checked before: False, 12 March 2025, by Full Fact");
    expect(checkedBeforeWords(null)).toBeNull();
    expect(timeCode(3_723_900)).toBe("01:02:03");
  });
});

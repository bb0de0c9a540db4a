import { describe, expect, it } from "vitest";
import { compareTurns, type TurnRow } from "@/lib/bench/scale-db";

/** How `bench scale` counts lost turns after a kill: what was finished before must be there once, unchanged. */

const turn = (id: string, seq: number, role: string, over: Partial<TurnRow> = {}): TurnRow => ({
  id,
  debateId: "d1",
  seq,
  round: 1,
  phase: "opening",
  role,
  kind: "speech",
  status: "completed",
  content: `${role} speaks`,
  ...over,
});

describe("compareTurns", () => {
  const before = [
    turn("a", 1, "politician"),
    turn("b", 2, "scientist"),
    turn("c", 3, "judge", { status: "streaming", phase: "verdict" }),
  ];

  it("counts nothing when every turn finished before is still there and the rest finished after", () => {
    const after = [before[0]!, before[1]!, turn("c2", 3, "judge", { phase: "verdict" })];
    expect(compareTurns(before, after)).toEqual({ missing: 0, duplicated: 0 });
  });

  it("a finished turn gone, or rewritten, is missing; the one in progress at the kill is not counted", () => {
    expect(compareTurns(before, [before[1]!])).toEqual({ missing: 1, duplicated: 0 });
    expect(compareTurns(before, [before[0]!, { ...before[1]!, content: "scientist speaks again" }])).toEqual({
      missing: 1,
      duplicated: 0,
    });
    expect(compareTurns(before, [{ ...before[0]!, status: "failed" }, before[1]!])).toEqual({
      missing: 1,
      duplicated: 0,
    });
  });

  it("a finished step run a second time (not replayed) is a duplicate, in the same debate only", () => {
    const again = turn("a2", 4, "politician");
    expect(compareTurns(before, [before[0]!, before[1]!, again])).toEqual({ missing: 0, duplicated: 1 });
    expect(compareTurns(before, [before[0]!, before[1]!, { ...again, debateId: "d2" }])).toEqual({
      missing: 0,
      duplicated: 0,
    });
    expect(compareTurns(before, [before[0]!, before[1]!, { ...again, round: 2 }])).toEqual({
      missing: 0,
      duplicated: 0,
    });
  });
});

import { describe, expect, it } from "vitest";
import { matchDifferences } from "@/lib/matching/differences";
import { outside } from "@/lib/matching/match";

// From the walk of the "Matched before start" step (issue 34).
describe("the date window with one claim's date unknown", () => {
  const yours = { date: "2024-07-01T00:00:00.000Z", from: "year in the text" } as const;

  it("never calls the dates far apart when their claim has no date (only the day it was checked)", () => {
    expect(outside(yours, { claimDate: null }, 30)).toBe(false);
  });
  it("still flags two known dates years apart", () => {
    expect(outside(yours, { claimDate: "2019-03-02T00:00:00.000Z" }, 30)).toBe(true);
  });
});

describe("differences: sentence starts, weekdays and months are not names", () => {
  it("does not list Every Saturday or Insiders as names", async () => {
    const d = await matchDifferences(
      "Every Saturday, the governor Elena Marsh raised $2.4 million for flood relief in Springfield.",
      "Insiders say Elena Marsh raised $2.4 million in March for flood relief in Springfield.",
    );
    expect(d.join(" ")).not.toMatch(/Every|Saturday|Insiders/);
    expect(d).toEqual(["Dates only in the earlier check: March"]);
  });
  it("still sees a name opening a sentence as shared, and a real place as different", async () => {
    const d = await matchDifferences(
      "Elena Marsh raised $2.4 million. Paris gave more.",
      "Marsh raised $2.4 million in Lyon.",
    );
    expect(d).toEqual(["Places: Paris in yours, Lyon in the earlier check"]);
  });
});

import { describe, expect, it } from "vitest";
import { averagePrecisionAtK } from "@/lib/bench/match";
import { parseFeed } from "@/lib/matching/import/parse";
import { ratingToScale } from "@/lib/matching/scale";
import { cleanClaimText, matchReasons, matchTextOf } from "@/lib/matching/text";

describe("claim text", () => {
  it("drops links and splits hashtags, keeping the post's words and signature", () => {
    expect(
      cleanClaimText("Kings island is closing #SummerIsOver https://t.co/x pic.twitter.com/y — B (@b) May 2, 2016"),
    ).toBe("Kings island is closing Summer Is Over — B (@b) May 2, 2016");
  });

  it("indexes headline, summary and claim once each, dropping a 'Rumor:' repeat of the claim", () => {
    expect(matchTextOf({ title: "Fries", summary: "Rumor: Fries cost $1.", claim: "Fries cost $1." })).toBe(
      "Fries \nRumor: Fries cost $1.",
    );
  });

  it("says why two claims matched: names, numbers and years they share", () => {
    expect(
      matchReasons("Nancy Pelosi said 3,000 jobs left Ohio in 2019", "Pelosi claimed 3000 jobs left Ohio (2019)"),
    ).toEqual(["both name Nancy Pelosi and Ohio", "same number 3000", "same year 2019"]);
  });
});

describe("ratings", () => {
  it("reads common ratings onto the product scale and leaves the rest unknown", () => {
    expect(["Pants on Fire!", "Mostly True", "Half True", "Correct", "Unratable", null].map(ratingToScale)).toEqual([
      "FALSE",
      "HALF-TRUE",
      "HALF-TRUE",
      "TRUE",
      null,
      null,
    ]);
  });
});

describe("feed parsing", () => {
  it("reads CheckThat! JSONL without ratings and names a bad line", () => {
    const r = parseFeed(
      [
        JSON.stringify({ id: "v1", title: "T", claim: "A claim.", date: "6 March 2021" }),
        "{not json",
        JSON.stringify({ id: "v2", title: "no claim" }),
      ].join("\n"),
      "c.jsonl",
    );
    expect(r.format).toBe("checkthat-jsonl");
    expect(r.records).toHaveLength(1);
    expect(r.records[0]!.record).toMatchObject({ claim: "A claim.", rating: null, sourceId: "v1" });
    expect(r.records[0]!.record.reviewDate?.toISOString().slice(0, 10)).toBe("2021-03-06");
    expect(r.problems.map((p) => p.at)).toEqual(["line 2", "line 3"]);
    expect(r.problems[1]!.problem).toMatch(/claim/);
  });
});

describe("MAP@k", () => {
  it("averages precision at the ranks of relevant candidates, over min(relevant, k)", () => {
    expect(averagePrecisionAtK(["a", "b", "c"], new Set(["b"]), 5)).toBe(0.5);
    expect(averagePrecisionAtK(["a", "b", "c"], new Set(["b"]), 1)).toBe(0);
    expect(averagePrecisionAtK(["a", "x", "b"], new Set(["a", "b"]), 5)).toBeCloseTo((1 + 2 / 3) / 2);
  });
});

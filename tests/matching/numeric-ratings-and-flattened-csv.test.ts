import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseFeed } from "@/lib/matching/import/parse";
import { numericToScale, ratingToScale } from "@/lib/matching/scale";

const fixture = (name: string) =>
  fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/claim-matching", name), "utf8");

const review = (reviewRating: Record<string, unknown>) =>
  JSON.stringify({
    "@context": "https://schema.org",
    "@type": "ClaimReview",
    claimReviewed: "Bus fares doubled last year.",
    url: "https://desk.example/checks/fares",
    author: { "@type": "Organization", name: "Desk News" },
    reviewRating: { "@type": "Rating", ...reviewRating },
  });

describe("ratings on numeric scales", () => {
  it("land on the product scale by where they sit between the ends", () => {
    expect([1, 2, 3, 4, 5].map((v) => numericToScale(v, 5, 1))).toEqual([
      "FALSE",
      "FALSE",
      "HALF-TRUE",
      "HALF-TRUE",
      "TRUE",
    ]);
    // The product's own export: 1 to 3.
    expect([1, 2, 3].map((v) => numericToScale(v, 3, 1))).toEqual(["FALSE", "HALF-TRUE", "TRUE"]);
    // Outside its scale, or a scale without two ends: unknown, never guessed.
    expect(numericToScale(6, 5, 1)).toBeNull();
    expect(numericToScale(1, 1, 1)).toBeNull();
  });

  it("are read from ClaimReview with their ends and kept as '1 of 5'", () => {
    const one = parseFeed(review({ ratingValue: "1", bestRating: "5", worstRating: "1" })).records[0]!.record;
    expect(one.rating).toBe("1 of 5");
    expect(ratingToScale(one.rating)).toBe("FALSE");
    const ten = parseFeed(review({ ratingValue: 10, bestRating: 10, worstRating: 0 })).records[0]!.record;
    expect(ten.rating).toBe("10 on a scale from 0 to 10");
    expect(ratingToScale(ten.rating)).toBe("TRUE");
    // The publisher's words win over the number.
    expect(
      parseFeed(review({ ratingValue: 1, bestRating: 5, alternateName: "Pants on Fire" })).records[0]!.record.rating,
    ).toBe("Pants on Fire");
    // Without bestRating the scale is unknown: the value is kept as written and reads as unknown.
    const lone = parseFeed(review({ ratingValue: 2 })).records[0]!.record;
    expect(lone.rating).toBe("2");
    expect(ratingToScale(lone.rating)).toBeNull();
  });
});

describe("the flattened ClaimReview CSV", () => {
  it("imports with one column per field path, words or numbers", () => {
    const feed = parseFeed(fixture("flattened-claimreview.csv"), "checks.csv");
    expect(feed.problems).toEqual([]);
    expect(feed.format).toBe("csv");
    expect(
      feed.records.map(({ record: r }) => [r.claim, r.rating, ratingToScale(r.rating), r.publisher, r.url]),
    ).toEqual([
      [
        "The council spent 5 million on roads.",
        "Mostly false",
        "FALSE",
        "Desk News",
        "https://desk.example/checks/roads",
      ],
      ["Bus fares doubled last year.", "1 of 5", "FALSE", "Desk News", "https://desk.example/checks/fares"],
      [
        "Unemployment fell to 4 percent.",
        "7 on a scale from 0 to 10",
        "HALF-TRUE",
        "Desk News",
        "https://desk.example/checks/jobs",
      ],
    ]);
    expect(feed.records[1]!.record.reviewDate?.toISOString()).toBe("2024-01-03T09:00:00.000Z");
    // Who made each claim is a field of its own (stored in imported_fact_checks.claimant), not the checker.
    expect(feed.records.slice(0, 2).map(({ record: r }) => r.claimant)).toEqual(["Ministry of Roads", "Mayor Ann"]);
    expect(feed.records[0]!.record.raw).toMatchObject({ "itemreviewed.author.name": "Ministry of Roads" });
  });

  it("reads the claimant from a plain CSV's claimant (or speaker) column and from ClaimReview JSON", () => {
    const csv = parseFeed(
      "claim,rating,publisher,claimant\nBus fares doubled last year.,False,Desk News,Mayor Ann\n",
      "checks.csv",
    );
    expect(csv.records[0]!.record).toMatchObject({ publisher: "Desk News", claimant: "Mayor Ann" });
    const spoken = parseFeed("claim,speaker\nBus fares doubled last year.,Mayor Ann\n", "checks.csv");
    expect(spoken.records[0]!.record.claimant).toBe("Mayor Ann");
    const json = JSON.parse(review({ alternateName: "False" }));
    json.itemReviewed = { "@type": "Claim", author: { "@type": "Person", name: "Mayor Ann" } };
    expect(parseFeed(JSON.stringify(json)).records[0]!.record).toMatchObject({
      publisher: "Desk News",
      claimant: "Mayor Ann",
    });
    // Not given: null, never the publisher.
    expect(parseFeed(review({ alternateName: "False" })).records[0]!.record.claimant).toBeNull();
  });

  it("says which column is missing when there is no claim", () => {
    const feed = parseFeed("reviewRating.alternateName,url\nFalse,https://desk.example/x\n", "x.csv");
    expect(feed.records).toEqual([]);
    expect(feed.problems[0]).toMatchObject({
      at: "header row",
      problem: expect.stringMatching(/"claimReviewed" column/),
    });
  });
});

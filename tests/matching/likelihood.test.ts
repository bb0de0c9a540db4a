import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MatchCard } from "@/components/matching/match-card";
import { matchDifferences } from "@/lib/matching/differences";
import { sameClaimWords, sameText } from "@/lib/matching/likelihood";
import { matchReasons } from "@/lib/matching/text";
import type { ClaimMatch } from "@/lib/matching/types";

/*
 * Issue 34, item 2: a reworded claim was called "100% similar". The chance that both state the same
 * claim is said in words, never 100% unless the texts are the same, with what differs beside what is shared.
 */

const DEBATED = "Governor Elena Marsh raised $2.4 million at a charity auction for flood relief.";
const REWORDED = "Elena Marsh, the governor, collected 2.4 million dollars for flood victims at an auction.";

const match = (over: Partial<ClaimMatch>): ClaimMatch => ({
  source: "debate",
  ref: "d1",
  claim: DEBATED,
  rating: "Half true",
  scale: "HALF-TRUE",
  publisher: null,
  url: "/debates/d1",
  claimDate: null,
  reviewDate: null,
  similarity: 0.998,
  reasons: matchReasons(REWORDED, DEBATED),
  outsideDateWindow: false,
  ...over,
});

const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&#x27;/g, "'");

describe("how likely two texts state the same claim", () => {
  it("a reworded claim scoring 0.998 is 'very likely the same claim', never 100%, and says what differs", async () => {
    const differences = await matchDifferences(REWORDED, DEBATED);
    expect(differences.join(" ")).toMatch(/Wording/);
    expect(differences.join(" ")).toMatch(/collected/);
    expect(differences.join(" ")).toMatch(/raised/);
    const html = renderToStaticMarkup(
      createElement(MatchCard, {
        match: match({ differences, sameText: sameText(REWORDED, DEBATED) }),
        threshold: 0.4,
        yourDate: null,
      }),
    );
    const t = text(html);
    expect(t).not.toMatch(/100%/);
    expect(t).toContain("Very likely the same claim (an estimated 99% chance)");
    expect(t).toContain("Shared: both name Elena Marsh; same number 2.4.");
    expect(t).toContain("Different: Wording");
  });

  it("100% only for the same text once case, spacing and punctuation go", () => {
    expect(sameText("Governor Elena Marsh raised $2.4 million!", "governor elena marsh raised 2.4  million")).toBe(
      true,
    );
    expect(sameClaimWords({ similarity: 0.999, sameText: true })).toBe("The same claim, word for word");
    expect(sameClaimWords({ similarity: 0.55, sameText: false })).toBe(
      "Possibly the same claim (an estimated 55% chance)",
    );
  });

  it("names the people, places, dates and numbers only one side has", async () => {
    const d = await matchDifferences(
      "Mayor John Smith said Springfield spent 3 million dollars in March 2019.",
      "Mayor John Smith said Shelbyville spent 5 million dollars in May 2021.",
    );
    const all = d.join(" | ");
    expect(all).toMatch(/Springfield/);
    expect(all).toMatch(/Shelbyville/);
    expect(all).toMatch(/Dates: March and 2019 in yours, May and 2021 in the earlier check/);
    expect(all).toMatch(/Numbers: 3 in yours, 5 in the earlier check/);
    expect(all).not.toMatch(/John Smith/);
  });

  it("a name told longer or shorter is the same name, not a difference", async () => {
    const d = await matchDifferences(
      "Paris's Eiffel Tower stands 330 metres tall.",
      "The Eiffel Tower in Paris is 330 metres tall.",
    );
    expect(d.join(" ")).not.toMatch(/Eiffel/);
  });
});

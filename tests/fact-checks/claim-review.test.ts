import { describe, expect, it } from "vitest";
import type { PublishedFactCheck } from "@/db/queries/fact-checks";
import { dataFeed, jsonFeed } from "@/lib/fact-checks/feeds";
import { factCheckClaimReview, jsonForScript } from "@/lib/fact-checks/json-ld";
import { explanationHtml } from "@/lib/fact-checks/markdown";
import { baseSlug } from "@/lib/fact-checks/slug";
import { googleProblems, vocabularyProblems } from "../helpers/claim-review-check";

const published = (over: Partial<PublishedFactCheck["version"]> = {}): PublishedFactCheck => ({
  id: "7d0c4a4e-5d2b-4c1e-9a53-1d2f3e4a5b6c",
  slug: "the-council-spent-5-million",
  state: "corrected",
  debateId: "6f1c2a7e-3b4d-4e5f-8a9b-0c1d2e3f4a5b",
  comparisonId: null,
  publishedAt: new Date("2026-03-01T10:00:00Z"),
  updatedAt: new Date("2026-03-04T10:00:00Z"),
  version: {
    factCheckId: "7d0c4a4e-5d2b-4c1e-9a53-1d2f3e4a5b6c",
    version: 3,
    event: "corrected",
    claim: "The council spent 5 million on roads.",
    rating: "FALSE",
    textualRating: "Mostly false",
    explanation: "## Why\n\nThe [budget](https://example.org/b) lists **2 million**.",
    sources: [],
    claimant: "Ministry of Roads",
    claimantKind: "Organization",
    whereSaid: "Press release",
    appearanceUrl: "https://example.org/release",
    claimDate: "2026-02-20",
    showDebateLink: false,
    correctionNote: "The figure was wrong.",
    createdBy: null,
    createdAt: new Date("2026-03-04T10:00:00Z"),
    ...over,
  },
});

const ORG = { name: "Desk News", url: "https://desk.example" };

describe("a published fact-check's ClaimReview", () => {
  it("has every field Google asks for and uses only schema.org terms where they belong", () => {
    const ld = factCheckClaimReview(published(), "https://fc.example/", ORG);
    expect(googleProblems(ld)).toEqual([]);
    expect(vocabularyProblems(ld)).toEqual([]);
    expect(ld).toMatchObject({
      url: "https://fc.example/fact-checks/the-council-spent-5-million",
      datePublished: "2026-03-01",
      dateModified: "2026-03-04",
      reviewRating: { ratingValue: 1, bestRating: 3, worstRating: 1, alternateName: "Mostly false" },
      itemReviewed: {
        "@type": "Claim",
        author: { "@type": "Organization", name: "Ministry of Roads" },
        datePublished: "2026-02-20",
        firstAppearance: { "@type": "CreativeWork", url: "https://example.org/release", name: "Press release" },
      },
    });
    // Readers of search results get words, not Markdown.
    expect(ld.reviewRating.ratingExplanation).toBe("Why The budget lists 2 million.");
  });

  it("the checks catch what Google would reject and terms used out of place", () => {
    const ld = factCheckClaimReview(published({ claimant: null, appearanceUrl: null }), "https://fc.example", ORG);
    expect(googleProblems(ld)).toEqual([
      "itemReviewed has no author",
      "itemReviewed has neither appearance nor firstAppearance",
    ]);
    const { alternateName: _a, ...noWords } = ld.reviewRating;
    expect(googleProblems({ ...ld, reviewRating: noWords, url: "/relative" })).toContain(
      "reviewRating has no alternateName",
    );
    expect(
      vocabularyProblems({ ...ld, claimReviewed: undefined, ratingValue: 1, datePublished: "March 1" }).sort(),
    ).toEqual([
      "$.claimReviewed = undefined does not fit Text",
      '$.datePublished = "March 1" does not fit Date or DateTime',
      "$.ratingValue is not a property of ClaimReview",
    ]);
  });

  it("the DataFeed holds each review as a DataFeedItem, valid in the vocabulary", () => {
    const feed = dataFeed([published()], "https://fc.example", ORG);
    expect(vocabularyProblems(feed)).toEqual([]);
    expect(googleProblems(feed.dataFeedElement[0]!.item as Record<string, unknown>)).toEqual([]);
  });

  it("the JSON Feed gives the explanation as sanitised HTML and as plain text, with authors and a description", () => {
    const explanation =
      "## Why\n\nThe [budget](https://example.org/b) lists **2 million**.<script>alert(1)</script>\n\n- one\n- two";
    const feed = jsonFeed([published({ explanation })], "https://fc.example", ORG);
    expect(feed.description).toMatch(/Desk News/);
    expect(feed.authors).toEqual([{ name: "Desk News", url: "https://desk.example" }]);
    const item = feed.items[0]!;
    expect(item.authors).toEqual(feed.authors);
    expect(item.content_html).toBe(explanationHtml(explanation));
    expect(item.content_html).toContain("<strong>2 million</strong>");
    expect(item.content_html).not.toContain("<script");
    expect(item.content_text).toBe("Why\n\nThe budget (https://example.org/b) lists 2 million.\n\n- one\n- two");
  });

  it("neither feed says a check was modified before it was published", () => {
    // The first version is saved a moment before it is published.
    const fc = {
      ...published({ createdAt: new Date("2026-03-01T09:59:59.990Z") }),
      state: "published" as const,
    };
    const item = jsonFeed([fc], "https://fc.example", ORG).items[0]!;
    expect(item.date_modified >= item.date_published).toBe(true);
    expect(item.date_modified).toBe("2026-03-01T10:00:00.000Z");
    const data = dataFeed([fc], "https://fc.example", ORG);
    expect(data.dataFeedElement[0]!.dateModified).toBe(data.dataFeedElement[0]!.dateCreated);
    expect(data.dateModified).toBe("2026-03-01T10:00:00.000Z");
    // A correction saved later is the later time.
    expect(jsonFeed([published()], "https://fc.example", ORG).items[0]!.date_modified).toBe("2026-03-04T10:00:00.000Z");
  });

  it("JSON in a script element cannot close it", () => {
    const text = jsonForScript({ claim: "</script><script>alert(1)</script>" });
    expect(text).not.toContain("</script");
    expect(JSON.parse(text)).toEqual({ claim: "</script><script>alert(1)</script>" });
  });
});

describe("the explanation's Markdown", () => {
  it("keeps prose, links and lists, and drops scripts, handlers and javascript: links", () => {
    const html = explanationHtml(
      [
        "# Heading",
        "",
        "Some **bold** and a [source](https://example.org/a).",
        "",
        "- one",
        "- two",
        "",
        '<script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">click</a>',
        "",
        "[bad](javascript:alert(4)) <iframe src=https://evil.example></iframe>",
      ].join("\n"),
    );
    expect(html).toContain("<h2>Heading</h2>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain('<a href="https://example.org/a" rel="nofollow noopener" target="_blank">source</a>');
    expect(html).toContain("<li>one</li>");
    expect(html).not.toMatch(/<script|onerror|javascript:|<iframe|<img/i);
  });
});

describe("slugs", () => {
  it("are readable ASCII from the claim's first words and never a fixed page's name", () => {
    expect(baseSlug("Ünemployment fell by 50% in 2024, says the Minister!")).toBe(
      "unemployment-fell-by-50-in-2024-says-the-minister",
    );
    expect(baseSlug("New")).toBe("fact-check-new");
    expect(baseSlug("¿¿??")).toBe("fact-check");
    expect(baseSlug("a ".repeat(100)).length).toBeLessThanOrEqual(60);
  });
});

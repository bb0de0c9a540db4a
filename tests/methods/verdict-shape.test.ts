import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PeopleVerdictHead } from "@/components/debate/people-verdict";
import { VerdictSummary } from "@/components/debate/verdict-summary";
import { verdictText } from "@/lib/cli/verdict-text";
import { installFixtureMethods } from "../fixtures/methods/install";

/*
 * One verdict shape for every method, on the debate page's head and in the CLI: the product-scale
 * label, the method's own label in its words, the method's name, the confidence where it has one,
 * one plain reason sentence without citation markers, and the evidence it rests on by title and link.
 * The test method (tests/fixtures/methods/verity) gets the same shape from its definition alone.
 */

installFixtureMethods();

const EVIDENCE = [
  { rank: 1, title: "Council budget 2023", url: "https://example.org/budget" },
  { rank: 2, title: "Minutes of the vote", url: null },
];

const CASES = [
  { method: "radar", title: "RADAR", label: "FALSE", words: null, confidence: 0.85 },
  {
    method: "tool-mad",
    title: "Tool-MAD",
    label: "REFUTES",
    words: "Refuted by the evidence",
    confidence: null,
  },
  { method: "zofia", title: "ZoFia", label: "FAKE", words: "Fake news", confidence: 0.9 },
  { method: "proclaim", title: "PROClaim", label: "NOT SUPPORTED", words: "Not supported", confidence: 0.7 },
  { method: "verity", title: "Verity", label: "NO", words: "Does not hold up", confidence: null },
];

const reason = "[REASON]: The budget lists 12 million, not 40 [E1]. The vote was later [E2].";
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&apos;/g, "'")
    .replace(/\s+/g, " ");

describe("one verdict shape for every method", () => {
  for (const c of CASES) {
    it(`${c.title}: product label, own label, method, confidence, one plain sentence and its evidence`, () => {
      const html = renderToStaticMarkup(
        createElement(PeopleVerdictHead, {
          method: c.method,
          verdict: { label: c.label, reason, confidence: c.confidence },
          evidence: EVIDENCE,
        }),
      );
      const t = text(html);
      expect(html).toContain('data-product="FALSE"');
      // A method that speaks the product scale is not made to say its label twice.
      expect(t).toContain(c.words ? `False ${c.title} said ${c.words}` : `False by ${c.title}`);
      if (c.confidence !== null) expect(t).toContain(`confidence ${Math.round(c.confidence * 100)}%`);
      else expect(t).not.toContain("confidence");
      expect(t).toContain("The budget lists 12 million, not 40.");
      // One sentence: the second is left for the full card.
      expect(t).not.toContain("The vote was later");
      expect(t).not.toMatch(/\[E\d|\[REASON\]/);
      expect(html).toContain('href="https://example.org/budget"');
      expect(t).toContain("Rests on: Council budget 2023");

      const cli = verdictText(c.method, { label: c.label, reason, confidence: c.confidence }, [], EVIDENCE);
      expect(cli.head.startsWith(c.words ? `False · ${c.title} said ${c.words}` : `False · by ${c.title}`)).toBe(true);
      expect(cli.reason).toBe("The budget lists 12 million, not 40.");
      expect(cli.restsOn).toEqual(["[1] Council budget 2023 <https://example.org/budget>"]);
    });
  }

  it("a method whose judge gives no reason takes it from its turns and says so (ZoFia)", () => {
    const turns = [
      {
        role: "con",
        kind: "speech",
        phase: "argument",
        content: "The quote is invented [E2]. More.",
        status: "completed",
      },
    ];
    const t = text(
      renderToStaticMarkup(
        createElement(PeopleVerdictHead, {
          method: "zofia",
          verdict: { label: "FAKE", reason: null, confidence: null },
          turns,
          evidence: EVIDENCE,
        }),
      ),
    );
    expect(t).toContain("ZoFia's judge answers with a label only");
    expect(t).toContain("The quote is invented.");
    expect(t).toContain("Rests on: Minutes of the vote");
  });

  it("a label off the product scale is said as such, and the page head of RADAR uses the same shape", () => {
    const t = text(
      renderToStaticMarkup(
        createElement(PeopleVerdictHead, {
          method: "verity",
          verdict: { label: "UNSURE", reason: null, confidence: null },
        }),
      ),
    );
    expect(t).toContain("Cannot tell by Verity ; no rating on the true / half-true / false scale");
    const head = text(
      renderToStaticMarkup(
        createElement(VerdictSummary, {
          method: "radar",
          verdict: {
            label: "HALF-TRUE",
            reason: "The sale happened in 2012 [E1]. Later text.",
            confidence: 0.85,
            stoppedEarly: false,
            stopAfter: null,
            roundsCompleted: 3,
            details: { decidedBy: "judge" },
          },
          evidence: EVIDENCE,
          turns: 7,
          cost: "cost $0.01",
          onCite: () => {},
        }),
      ),
    );
    expect(head).toContain("Half true by RADAR judge's confidence 85%");
    expect(head).toContain("The sale happened in 2012.");
    expect(head).toContain("3 rounds · 7 turns · cost $0.01");
  });
});

import { describe, expect, it } from "vitest";
import { methodDefinitions, verdictInWords } from "@/lib/debate/methods";
import { verdictText } from "@/lib/cli/verdict-text";

/*
 * One verdict, one spelling on every surface (issue 34, item 3): the product scale in words first,
 * the method's own label in its words beside it only when it says something else, never a code.
 */

/** An upper-case code such as HALF-TRUE or NOT SUPPORTED (method names like RADAR are not verdicts). */
const CODE =
  /\b(TRUE|FALSE|HALF-TRUE|SUPPORTED|NOT SUPPORTED|SUPPORTS|REFUTES|NOT ENOUGH INFO|FAKE|REAL|INCONCLUSIVE)\b/;

describe("verdictInWords", () => {
  it("puts the product scale first and the method's own words beside it only when they differ", () => {
    expect(verdictInWords("radar", "HALF-TRUE")).toMatchObject({ head: "Half true", own: null, text: "Half true" });
    expect(verdictInWords("proclaim", "NOT SUPPORTED")).toMatchObject({
      head: "False",
      own: "Not supported",
      text: "False (PROClaim: Not supported)",
    });
    expect(verdictInWords("zofia", "FAKE").text).toBe("False (ZoFia: Fake news)");
    expect(verdictInWords("tool-mad", "NOT ENOUGH INFO")).toMatchObject({
      product: null,
      head: "Not enough information",
    });
  });

  it("reads a label with no method (a gold label, the agreement matrix) on the product's scale", () => {
    expect(verdictInWords("", "HALF-TRUE")).toMatchObject({
      product: "HALF-TRUE",
      head: "Half true",
      text: "Half true",
    });
    expect(verdictInWords("", "FALSE").text).toBe("False");
    expect(verdictInWords("", "NOT ENOUGH INFO")).toMatchObject({ product: null, head: "Not enough info" });
  });

  it("never shows an upper-case code for any label any method defines", () => {
    for (const def of methodDefinitions())
      for (const label of new Set([...Object.keys(def.labels.toProduct), ...Object.keys(def.labels.words ?? {})])) {
        const w = verdictInWords(def.name, label);
        expect(`${w.head} ${w.own ?? ""} ${w.text}`, `${def.name} ${label}`).not.toMatch(CODE);
      }
  });

  it("the CLI writes the same words as the pages", () => {
    expect(verdictText("radar", { label: "HALF-TRUE", reason: null, confidence: null }).head).toBe(
      "Half true · by RADAR",
    );
    expect(verdictText("proclaim", { label: "NOT SUPPORTED", reason: null, confidence: 0.8 }).head).toBe(
      "False · PROClaim said Not supported · confidence 80%",
    );
  });
});

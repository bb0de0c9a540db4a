import { describe, expect, it } from "vitest";
import { countUnparsed, healthCounts, healthWarning, verdictHealth } from "@/lib/eval/verdict-health";
import { NO_PRODUCT_LABEL } from "@/lib/eval/product-scale";

describe("verdict health of a run", () => {
  it("a run with every scored verdict unparsed is unreadable, and the warning says the 0 is not the method's", () => {
    const h = verdictHealth({ scored: 20, unparsed: 20, failed: 0 });
    expect(h.unreadable).toBe(true);
    expect(healthWarning(h)).toMatch(
      /^No verdict could be read: all 20 scored verdicts are unparsed, so the accuracy of 0 measures a broken run/,
    );
    expect(healthCounts(h)).toBe("20 unparsed");
  });

  it("some unparsed or failed are counted, not alarmed; nothing to say when all were read", () => {
    const h = verdictHealth({ scored: 10, unparsed: 2, failed: 1 });
    expect(h.unreadable).toBe(false);
    expect(healthWarning(h)).toBe("2 verdicts of 10 unparsed and counted as wrong. 1 claim failed and is not scored.");
    expect(healthCounts(h)).toBe("2 unparsed · 1 failed");
    expect(healthWarning(verdictHealth({ scored: 10, unparsed: 0, failed: 0 }))).toBeNull();
    // Nothing scored yet is not "unreadable": there is no accuracy to misread.
    expect(verdictHealth({ scored: 0, unparsed: 0, failed: 3 }).unreadable).toBe(false);
  });
});

describe("counting unparsed verdicts", () => {
  it("counts UNPARSED and missing verdicts on scored claims only, not a real answer outside the labels scored", () => {
    const items = [
      { gold: "TRUE", predicted: "UNPARSED" },
      { gold: "FALSE", predicted: null },
      // NOT ENOUGH INFO on the product scale is an answer, wrong here but read.
      { gold: "FALSE", predicted: NO_PRODUCT_LABEL },
      { gold: "TRUE", predicted: "TRUE" },
      // Gold outside the labels: not scored, so not counted.
      { gold: "NOT ENOUGH INFO", predicted: "UNPARSED" },
    ];
    expect(countUnparsed(items, ["TRUE", "HALF-TRUE", "FALSE"])).toBe(2);
  });
});

import { describe, expect, it } from "vitest";
import { classWords } from "@/components/eval/charts";
import { usdAmount } from "@/lib/cost-words";

// The evaluation run page reads in the product's words (issue 34): no upper-case codes, no "$0.00000".
describe("evaluation run page words", () => {
  it("names each class in words, and an unreadable verdict as such", () => {
    expect(classWords("TRUE")).toBe("True");
    expect(classWords("HALF-TRUE")).toBe("Half true");
    expect(classWords("FALSE")).toBe("False");
    expect(classWords("UNPARSED")).toBe("Could not be read");
  });

  it("shows a per-claim cost under a cent with its significant digits", () => {
    expect(usdAmount(0.000042)).toBe("$0.000042");
    expect(usdAmount(0.0012345)).toBe("$0.0012");
    expect(usdAmount(0.5)).toBe("$0.50");
    expect(usdAmount(12.345)).toBe("$12.35");
    expect(usdAmount(0)).toBe("$0");
    expect(usdAmount(null)).toBe("—");
  });
});

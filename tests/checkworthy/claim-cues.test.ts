import { describe, expect, it } from "vitest";
import { claimCuesOf } from "@/lib/checkworthy/claim-cues";
import { CUE_ORDER, ENCODER_DIM, FEATURE_DIMS, sentenceVector } from "@/lib/checkworthy/encoder-features";

describe("the claim cues of the offline scorer", () => {
  it("reads amounts with units, changes, statistics, time references, records and promises", () => {
    expect([...claimCuesOf("Unemployment fell to 4 percent since 2009.")].sort()).toEqual(
      ["change", "quantity", "statistic", "time-reference"].sort(),
    );
    expect(claimCuesOf("He voted against the bill twice.").has("record")).toBe(true);
    expect(claimCuesOf("We created 3 million jobs.")).toContain("quantity");
    expect(claimCuesOf("We're going to make this country great.")).toEqual(new Set(["promise"]));
    expect(claimCuesOf("Thank you very much.").size).toBe(0);
  });

  it("enters the classifier's vector after the cues of features.ts, before the length", () => {
    const { vector } = sentenceVector(
      "Taxes went up by 5 percent last year.",
      new Array(ENCODER_DIM).fill(0),
      new Array(ENCODER_DIM).fill(0),
    );
    const at = 2 * ENCODER_DIM + CUE_ORDER.length;
    // quantity, change, statistic, time-reference; not record, not promise.
    expect(Array.from(vector.subarray(at, at + 6))).toEqual([1, 1, 1, 1, 0, 0]);
    expect(vector).toHaveLength(FEATURE_DIMS);
    expect(vector[FEATURE_DIMS - 1]).toBeCloseTo(Math.log1p(8));
  });
});

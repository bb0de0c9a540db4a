import { describe, expect, it } from "vitest";
import { extent } from "@/lib/eval/metrics";
import { normalizeScores } from "@/lib/retrieval/fusion";

/** Lists longer than the call stack can spread (Math.min(...xs) threw "Maximum call stack size exceeded" past ~120,000). */
describe("long lists", () => {
  const long = Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 100_003);

  it("normalises 300,000 retrieval scores", () => {
    const out = normalizeScores(long);
    expect(out).toHaveLength(300_000);
    expect(Math.min(...out.slice(0, 1000))).toBeGreaterThanOrEqual(0);
    expect(out[long.indexOf(100_002)]).toBe(1);
    expect(out[long.indexOf(0)]).toBe(0);
  });

  it("finds the extent of 300,000 values, and none of an empty list", () => {
    expect(extent(long)).toEqual({ min: 0, max: 100_002 });
    expect(extent([])).toBeNull();
    expect(extent([-2, 5, 3])).toEqual({ min: -2, max: 5 });
  });
});

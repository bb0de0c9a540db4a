import { describe, expect, it } from "vitest";
import { selectClaims } from "@/lib/eval/sample";

const claims = [
  ...Array.from({ length: 10 }, (_, i) => ({ id: `f${i}`, label: "FALSE" })),
  ...Array.from({ length: 4 }, (_, i) => ({ id: `h${i}`, label: "HALF-TRUE" })),
  ...Array.from({ length: 3 }, (_, i) => ({ id: `t${i}`, label: "TRUE" })),
];

describe("claim sampling", () => {
  it("takes the first n without a sample", () => {
    expect(selectClaims(claims, { limit: 2 }).map((c) => c.id)).toEqual(["f0", "f1"]);
  });
  it("random is a seeded shuffle", () => {
    const a = selectClaims(claims, { sample: "random", seed: 4, limit: 5 });
    expect(selectClaims(claims, { sample: "random", seed: 4, limit: 5 })).toEqual(a);
    expect(selectClaims(claims, { sample: "random", seed: 5, limit: 5 })).not.toEqual(a);
    expect(new Set(selectClaims(claims, { sample: "random", seed: 4 }).map((c) => c.id)).size).toBe(17);
  });
  it("balanced gives each label the same count, interleaved", () => {
    const b = selectClaims(claims, { sample: "balanced", seed: 1, limit: 6 });
    expect(b.map((c) => c.label)).toEqual(["FALSE", "HALF-TRUE", "TRUE", "FALSE", "HALF-TRUE", "TRUE"]);
    expect(selectClaims(claims, { sample: "balanced" })).toHaveLength(9);
    expect(() => selectClaims(claims, { sample: "balanced", limit: 12 })).toThrow(
      /needs 4 claims per label, but "TRUE" has 3/,
    );
  });
});

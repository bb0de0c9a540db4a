import { describe, expect, it } from "vitest";
import { blindSafeItems } from "@/lib/annotation/blind";

const item = (debateId: string, annotators: string[]) => ({
  debateId,
  judge: "TRUE",
  labels: annotators.map((annotator) => ({ annotator, label: "TRUE" })),
});

describe("blind-safe statistics", () => {
  it("keeps debates the viewer labelled and complete ones, drops others still open to the viewer", () => {
    const items = [
      item("mine", ["me", "a"]),
      item("open", ["a"]),
      item("full", ["a", "b"]),
      item("mine-alone", ["me"]),
    ];
    expect(blindSafeItems(items, "me", 2).map((i) => i.debateId)).toEqual(["mine", "full", "mine-alone"]);
    expect(blindSafeItems(items, "me", 3).map((i) => i.debateId)).toEqual(["mine", "mine-alone"]);
  });
});

import { describe, expect, it } from "vitest";
import { protocolsWith } from "@/lib/debate/protocols";
import { runHasScores } from "@/lib/eval/run-scores";
import { predictedSpans } from "@/lib/bench/ner";
import { ruleNer } from "@/lib/tools/ner";

/*
 * What evaluation and the benchmarks need of a method beyond its run, found through the protocol
 * registry (lib/debate/capabilities.ts) instead of a method's folder: RADAR's calibration scores
 * and ZoFia's way of reading entities.
 */
describe("method capabilities through the registry", () => {
  it("finds which methods keep calibration scores and which read entities", () => {
    expect(protocolsWith("evalScores").map((p) => p.name)).toEqual(["radar"]);
    expect(protocolsWith("readEntities").map((p) => p.name)).toEqual(["zofia"]);
  });

  it("offers calibration only for a run its method says kept scores (RADAR's score-only runs)", () => {
    expect(runHasScores({ protocol: "radar", config: { radar: { earlyStopping: "score-only" } } })).toBe(true);
    expect(runHasScores({ protocol: "radar", config: { radar: { earlyStopping: "on" } } })).toBe(false);
    // Another method's settings under the same words do not count: it keeps no checkpoints.
    expect(runHasScores({ protocol: "tool-mad", config: { "tool-mad": { earlyStopping: "score-only" } } })).toBe(false);
    expect(runHasScores({ protocol: "gone", config: {} })).toBe(false);
  });

  it("reads a recogniser's entities the way ZoFia does, for bench ner", async () => {
    const spans = await predictedSpans(ruleNer(), "Angela Merkel met Emmanuel Macron in Paris on Monday.");
    expect(spans.map((s) => s.text)).toEqual(expect.arrayContaining(["Angela Merkel", "Paris"]));
  });
});

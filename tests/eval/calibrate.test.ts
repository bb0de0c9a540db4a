import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  calibrate,
  compareCells,
  loadScoresFile,
  simulate,
  TAU_S_GRID,
  TAU_V_GRID,
  type ScoredClaim,
} from "@/lib/eval/calibrate";

const FILE = path.resolve(import.meta.dirname, "../fixtures/calibration-scores.jsonl");

/*
 * The fixture, worked by hand (s = p_stop - p_continue, c = max label probability):
 *   A gold FALSE:     opening s .6 c .9 FALSE;      rebuttal-1 s .8 c .95 FALSE;     final FALSE
 *   B gold TRUE:      opening s .2 c .6 FALSE;      rebuttal-1 s .4 c .8 TRUE;       final TRUE
 *   C gold HALF-TRUE: opening s -.4 c .5 HALF-TRUE; rebuttal-1 s 0 c .7 HALF-TRUE;   final TRUE
 *   D is outside the 3-way scheme and is left out.
 * All three are right iff B does not stop at the opening (tau_s > .2 or tau_v > .6) and C stops
 * after rebuttal-1 but not at the opening (tau_s <= 0, tau_v <= .7): tau_s in [-1, 0], tau_v in
 * {.65, .7}. All of those stop A at the opening and B, C after rebuttal-1: 5/3 rounds, 500/3 tokens.
 * Tie-break: same rounds, so highest tau_v (.7), then highest tau_s (0).
 */
describe("calibration on a hand-checked scores file", () => {
  it("finds the pair worked out by hand", async () => {
    const claims = await loadScoresFile(FILE);
    const r = calibrate(claims, { metric: "accuracy" });
    expect(r.n).toBe(3);
    expect(r.excluded).toBe(1);
    expect(r.grid).toHaveLength(41 * 21);
    expect(r.best.tau_s).toBe(0);
    expect(r.best.tau_v).toBe(0.7);
    expect(r.best.accuracy).toBe(1);
    expect(r.best.macro_f1).toBe(1);
    expect(r.best.avg_rounds).toBeCloseTo(5 / 3, 12);
    expect(r.best.avg_tokens).toBeCloseTo(500 / 3, 12);
    const perfect = r.grid.filter((c) => c.accuracy === 1).map((c) => [c.tau_s, c.tau_v]);
    const expected = TAU_S_GRID.filter((s) => s <= 0).flatMap((s) => [
      [s, 0.65],
      [s, 0.7],
    ]);
    expect(perfect.sort()).toEqual(expected.sort());
  });

  it("reproduces single cells by hand", async () => {
    const claims = await loadScoresFile(FILE);
    // The default thresholds: every claim right, as above.
    expect(simulate(claims, -0.15, 0.7)).toMatchObject({ accuracy: 1, stopped_early: 3 });
    // Nothing fires: the full debates' verdicts FALSE, TRUE, TRUE -> 2/3; F1 TRUE 2/3, HALF-TRUE 0, FALSE 1.
    const none = simulate(claims, 1, 1);
    expect(none.accuracy).toBeCloseTo(2 / 3, 12);
    expect(none.macro_f1).toBeCloseTo(5 / 9, 12);
    expect(none).toMatchObject({ avg_rounds: 3, avg_tokens: 300, stopped_early: 0 });
    // Everything fires at the opening: FALSE, FALSE, HALF-TRUE -> 2/3, one round each.
    expect(simulate(claims, -1, 0)).toMatchObject({ avg_rounds: 1, avg_tokens: 100, stopped_early: 3 });
    expect(simulate(claims, -1, 0).accuracy).toBeCloseTo(2 / 3, 12);
  });

  it("breaks ties by fewest rounds, then highest tau_v, then highest tau_s", () => {
    // One claim right at every pair: the best pairs stop at the opening (tau_s <= .5, tau_v <= .9).
    const one: ScoredClaim[] = [
      {
        id: "x",
        gold: "FALSE",
        final_verdict: "FALSE",
        checkpoints: [
          {
            after: "opening",
            p_stop: 0.75,
            p_continue: 0.25,
            label_probs: { TRUE: 0.05, "HALF-TRUE": 0.05, FALSE: 0.9 },
            verdict: "FALSE",
          },
        ],
      },
    ];
    const r = calibrate(one);
    expect(r.best).toMatchObject({ tau_s: 0.5, tau_v: 0.9, accuracy: 1, avg_rounds: 1, avg_tokens: null });
    const cell = (tau_s: number, tau_v: number, avg_rounds: number) => ({
      tau_s,
      tau_v,
      accuracy: 0.5,
      macro_f1: 0.5,
      avg_rounds,
      avg_tokens: null,
      stopped_early: 0,
    });
    expect(compareCells(cell(0, 0.5, 1.5), cell(0.5, 0.9, 2), "accuracy")).toBeLessThan(0);
    expect(compareCells(cell(0, 0.9, 2), cell(0.5, 0.5, 2), "accuracy")).toBeLessThan(0);
    expect(compareCells(cell(0.5, 0.9, 2), cell(0, 0.9, 2), "accuracy")).toBeLessThan(0);
  });

  it("optimises macro-F1 when asked", async () => {
    const claims = await loadScoresFile(FILE);
    const r = calibrate(claims, { metric: "macro-f1" });
    expect(r.metric).toBe("macro-f1");
    expect(r.best).toMatchObject({ tau_s: 0, tau_v: 0.7, macro_f1: 1 });
  });

  it("has the grid the spec defines", () => {
    expect(TAU_S_GRID[0]).toBe(-1);
    expect(TAU_S_GRID.at(-1)).toBe(1);
    expect(TAU_S_GRID).toContain(-0.15);
    expect(TAU_V_GRID).toEqual(Array.from({ length: 21 }, (_, i) => Number((i * 0.05).toFixed(2))));
  });
});

describe("scores file validation", () => {
  const good = (over: Record<string, unknown> = {}, cp: Record<string, unknown> = {}) =>
    JSON.stringify({
      id: "A",
      gold: "FALSE",
      final_verdict: "FALSE",
      checkpoints: [
        {
          after: "opening",
          p_stop: 0.8,
          p_continue: 0.2,
          label_probs: { TRUE: 0.05, "HALF-TRUE": 0.05, FALSE: 0.9 },
          verdict: "FALSE",
          ...cp,
        },
      ],
      ...over,
    });
  const write = (lines: string[]) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "scores-"));
    const file = path.join(dir, "scores.jsonl");
    fs.writeFileSync(file, lines.join("\n") + "\n");
    return file;
  };

  it("accepts a well-formed file", async () => {
    await expect(loadScoresFile(write([good(), good({ id: "B" })]))).resolves.toHaveLength(2);
  });

  it("rejects label probabilities that do not sum to 1, naming the line", async () => {
    const file = write([good(), good({ id: "B" }, { label_probs: { TRUE: 0.9, "HALF-TRUE": 0.9, FALSE: 0.9 } })]);
    await expect(loadScoresFile(file)).rejects.toThrow(/scores\.jsonl:2: checkpoints\.0\.label_probs: .*sum to 2\.7/);
  });

  it("rejects stop probabilities that do not sum to 1", async () => {
    const file = write([good({}, { p_stop: 0.9, p_continue: 0.9 })]);
    await expect(loadScoresFile(file)).rejects.toThrow(/:1: checkpoints\.0: p_stop and p_continue sum to 1\.8/);
  });

  it("rejects label keys outside the scheme", async () => {
    const file = write([
      good({}, { label_probs: { TRUE: 0.05, "HALF-TRUE": 0.05, FALSE: 0.4, "PANTS-ON-FIRE": 0.5 } }),
    ]);
    await expect(loadScoresFile(file)).rejects.toThrow(
      /:1: checkpoints\.0\.label_probs: .*"PANTS-ON-FIRE".*TRUE, HALF-TRUE, FALSE/,
    );
  });

  it("reads lowercase labels and verdicts as the scheme's labels, so they score right", async () => {
    const file = write([
      good(
        { gold: "half-true", final_verdict: "half true" },
        { label_probs: { true: 0.05, "half-true": 0.9, false: 0.05 }, verdict: "Half-True" },
      ),
    ]);
    const claims = await loadScoresFile(file);
    expect(claims[0]).toMatchObject({ gold: "HALF-TRUE", final_verdict: "HALF-TRUE" });
    expect(claims[0]!.checkpoints[0]).toMatchObject({
      verdict: "HALF-TRUE",
      label_probs: { TRUE: 0.05, "HALF-TRUE": 0.9, FALSE: 0.05 },
    });
    expect(calibrate(claims).best.accuracy).toBe(1);
  });

  it("rejects duplicate claim ids, naming both lines", async () => {
    const file = write([good(), good({ id: "B" }), good()]);
    await expect(loadScoresFile(file)).rejects.toThrow(/:3: id: "A" appears again \(first on line 1\)/);
  });

  it("rejects a claim in the scheme without checkpoints", async () => {
    const file = write([good(), good({ id: "B", checkpoints: [] })]);
    await expect(loadScoresFile(file)).rejects.toThrow(/:2: checkpoints: .*no checkpoints.*score-only/);
  });

  it("says an empty file is empty", async () => {
    await expect(loadScoresFile(write([""]))).rejects.toThrow(/scores\.jsonl: the file has no records/);
  });
});

import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli";
import { backend, freshCliEnv } from "./test-db";

/**
 * `bench size` as a user runs it, at a two-hundredth of its sizes (75 checks, 75 passages, 10
 * debates) without the page step (that needs a production build): every step runs through the
 * product's services on this backend, every count comes back equal, and recall of the vector
 * index is measured against exact search. The numbers themselves are printed, never asserted.
 * A second run on the same database refuses: the benchmark needs an empty one.
 */

type Step = {
  step: string;
  rows: number;
  seconds: number;
  index_recall: number | null;
  p95_ms: number | null;
  peak_mb: number;
  counts_ok: boolean;
};

describe(`bench size on ${backend}`, () => {
  it("runs every step small, with every count equal and the index's recall measured", async () => {
    const env = await freshCliEnv();
    const r = await runCli(["bench", "size", "--scale", "0.005", "--no-pages", "--json"], env);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { sizes: Record<string, number>; steps: Step[]; all_counts_ok: boolean };
    expect(report.sizes).toMatchObject({ checks: 75, passages: 75, debates: 10 });
    expect(report.steps.map((s) => s.step)).toEqual([
      "import fact-checks",
      "ingest passages",
      "debates (evaluation run)",
      "publish fact-checks",
      "search fact-checks",
      "match",
      "search",
      "export jsonl",
      "export csv",
      "export claimreview",
      "import JSONL back",
    ]);
    for (const s of report.steps) {
      expect(s.counts_ok, s.step).toBe(true);
      expect(s.peak_mb).toBeGreaterThan(0);
    }
    expect(report.all_counts_ok).toBe(true);
    const match = report.steps.find((s) => s.step === "match")!;
    expect(match.index_recall).toBeGreaterThanOrEqual(0.99);
    expect(match.p95_ms).toBeGreaterThan(0);
    expect(report.steps.find((s) => s.step === "search")!.index_recall).toBeGreaterThanOrEqual(0.99);

    const again = await runCli(["bench", "size", "--scale", "0.005", "--no-pages"], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/starts from an empty database, and this one holds \d+ .*DATA_DIR=/);
  }, 300_000);
});

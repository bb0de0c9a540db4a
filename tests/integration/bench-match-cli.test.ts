import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli";
import { freshCliEnv } from "./test-db";

/**
 * `bench match` end to end on the committed CheckThat! sample (10 posts, 24 fact-checks): it
 * imports the candidates with the default encoder, runs every query and prints the four rankings'
 * metrics. What the numbers are is measured on the full splits (README); here they must exist and
 * be proportions, and the re-scored ranking must find some of the posts' fact-checks.
 */

const FIX = path.resolve("tests/fixtures/claim-matching");

describe("bench match", () => {
  it("prints MAP@1, MAP@5, recall@5/@20 and latency for lexical, dense, hybrid and re-scored", async () => {
    const env = await freshCliEnv();
    const args = [
      "bench",
      "match",
      "--queries",
      path.join(FIX, "bench-queries.jsonl"),
      "--candidates",
      path.join(FIX, "bench-candidates.jsonl"),
      "--qrels",
      path.join(FIX, "bench-qrels.tsv"),
    ];
    const r = await runCli([...args, "--json"], env);
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.import).toMatchObject({ imported: 24, invalid: 0 });
    expect(report.rows.map((x: { ranker: string }) => x.ranker)).toEqual(["lexical", "dense", "hybrid", "rescored"]);
    for (const row of report.rows) {
      expect(row.queries).toBe(10);
      for (const k of ["map_at_1", "map_at_5", "recall_at_5", "recall_at_20"]) {
        expect(row[k]).toBeGreaterThanOrEqual(0);
        expect(row[k]).toBeLessThanOrEqual(1);
      }
      expect(row.p95_ms).toBeGreaterThan(0);
    }
    expect(report.rows[3].recall_at_5).toBeGreaterThan(0.5);
    // 24 checks: the index must return every exact neighbour of the matcher's depth.
    expect(report.index_recall).toMatchObject({ k: 50, queries: 10, recall: 1, queries_missing_one: 0 });
  }, 600_000);
});

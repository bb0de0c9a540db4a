import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { listMatrixGroups } from "@/db/queries/eval-matrix";
import { BENCH_CORPUS, ensureBenchCorpus } from "@/lib/bench/protocols";
import { scriptedEmbedder } from "@/lib/bench/scripted-embedder";
import { scriptedModel } from "@/lib/bench/scripted-model";
import { parseConfig, resetConfigForTests } from "@/lib/config";
import type { ClaimRecord } from "@/lib/datasets/claims";
import {
  buildLeaderboard,
  leaderboardCsv,
  leaderboardJson,
  leaderboardMarkdown,
  LEADERBOARD_CSV_COLUMNS,
  type Leaderboard,
} from "@/lib/eval/leaderboard";
import { createMatrix, planMatrix, type MatrixEntry } from "@/lib/eval/matrix";
import { mcnemarExact } from "@/lib/eval/metrics";
import { buildReport, reportMarkdown, type EvalReport } from "@/lib/eval/report";
import { backend, freshDatabase } from "./test-db";

/**
 * An evaluation matrix end to end on the library: RADAR, Tool-MAD and PROClaim on the same six
 * claims (TRUE / HALF-TRUE / FALSE), scripted models whose verdicts differ by claim, the in-process
 * executor (the pg-boss one is the worker tests' subject). The leaderboard must be each run's own report, the
 * formats must agree. Then all four methods on FEVER-labelled claims (SUPPORTS / REFUTES / NOT
 * ENOUGH INFO): RADAR and ZoFia, whose labels cannot read that gold, are scored on the product scale.
 */

const LABELS = ["TRUE", "FALSE", "HALF-TRUE"] as const;
const claims: ClaimRecord[] = Array.from({ length: 9 }, (_, i) => ({
  id: `m${i + 1}`,
  claim: `Claim ${i + 1}: the boxer sold his Olympic medal ${i + 1} times to help children in the 2022 war.`,
  label: LABELS[i % 3],
  gold_evidence: [{ id: `e${i + 1}`, text: `A report says the boxer auctioned his Olympic gold medal (${i + 1}).` }],
}));

const FEVER_LABELS = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"] as const;
const feverClaims: ClaimRecord[] = claims.map((c, i) => ({ ...c, id: `f${i + 1}`, label: FEVER_LABELS[i % 3] }));

const entries = (protocols: string[]): MatrixEntry[] =>
  protocols.map((protocol) => ({
    protocol,
    config: {},
    models: {},
    evidence: protocol === "radar" ? { mode: "gold" } : { mode: "tools", corpus: BENCH_CORPUS },
    references: [],
    // The pg-boss executor is exercised by the worker tests; here the run is worked in this process on either database.
    executor: "in-process",
  }));

let h: DbHandle;
beforeAll(async () => {
  vi.stubEnv("WEB_SEARCH_PROVIDER", "");
  vi.stubEnv("TAVILY_API_KEY", "");
  vi.stubEnv("BRAVE_API_KEY", "");
  vi.stubEnv("DEFAULT_MODEL", "openai:gpt-4o-mini");
  resetConfigForTests();
  h = await freshDatabase();
  await ensureBenchCorpus(h.db);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

describe(`an evaluation matrix on ${backend}`, () => {
  let lb: Leaderboard;
  let reports: EvalReport[];
  let group: string;

  it("runs every protocol on exactly the same claims and records how each was scored", async () => {
    const plan = planMatrix({
      dataset: "matrix-fixture",
      claims,
      sample: { limit: 6, sample: "random", seed: 4 },
      entries: entries(["radar", "tool-mad", "proclaim"]),
    });
    expect(plan.refused).toEqual([]);
    // Tool-MAD given no label setting gets the scheme that reads every gold label: RADAR's three.
    expect(plan.runs.find((r) => r.entry.protocol === "tool-mad")!.entry.config.labels).toBe("radar");
    const proclaim = plan.runs.find((r) => r.entry.protocol === "proclaim")!.scoring;
    const halfTrue = plan.selected.filter((c) => c.label === "HALF-TRUE").length;
    expect(proclaim).toMatchObject({
      labels: ["SUPPORTED", "NOT SUPPORTED"],
      scored: 6 - halfTrue,
      unscored: halfTrue ? { "HALF-TRUE": halfTrue } : {},
    });

    const made = await createMatrix(h, plan, { validateModel: () => {} });
    group = made.group;
    const embedder = scriptedEmbedder();
    const search = { config: parseConfig({}, process.cwd()).search, deps: { db: h.db, embedder } };
    for (const m of made.runs) {
      await m.executor.work({
        concurrency: 2,
        runId: m.created.runId,
        untilRunDone: true,
        // Verdicts by claim position, not aligned with the gold order, and different per protocol: some right, some wrong.
        resolverFor: ({ position }) => {
          const c = plan.selected[position]!;
          const k = (position + m.protocol.length) % 3;
          const model = scriptedModel("openai:gpt-4o-mini", {
            pStop: 0.9,
            verdict: (["TRUE", "FALSE", "HALF-TRUE"] as const)[k],
            verdictProb: 0.9,
            toolMad: { claim: c.claim, rounds: [{ labels: { rag: k, search: k } }] },
          });
          return () => model.resolved;
        },
        runOptions: { embedder, search },
      });
      await m.executor.close();
    }

    reports = await Promise.all(made.runs.map((m) => buildReport(h.db, m.created.runId).then((r) => r!)));
    const selectedIds = plan.selected.map((c) => c.id);
    for (const r of reports) {
      expect(r.items.map((i) => i.claim_id)).toEqual(selectedIds);
      expect(r.progress).toMatchObject({ total: 6, done: 6, failed: 0 });
      expect(r.run.config.matrix).toMatchObject({ group, of: 3, dataset: "matrix-fixture", claims: 6 });
    }
    lb = (await buildLeaderboard(h.db, group))!;
    expect(lb.rows.map((r) => r.protocol).sort()).toEqual(["proclaim", "radar", "tool-mad"]);
  });

  it("shows each run's own report numbers: accuracy, macro-F1 with intervals, n, tokens, calls and cost per claim", () => {
    for (const r of reports) {
      const row = lb.rows.find((x) => x.run_id === r.run.id)!;
      expect(row.accuracy).toEqual(r.metrics.accuracy);
      expect(row.macro_f1).toEqual(r.metrics.macro_f1);
      expect(row.n).toBe(r.metrics.n);
      expect(row.tokens_per_claim).toBe(r.cost.per_claim.tokens.mean);
      expect(row.calls_per_claim).toBe(r.cost.per_claim.llm_calls.mean);
      expect(row.cost_per_claim_usd).toBe(r.cost.per_claim.cost_usd?.mean ?? null);
      expect(row.tokens_per_claim).toBeGreaterThan(0);
    }
    // PROClaim scores only the claims whose gold reads as SUPPORTED / NOT SUPPORTED.
    expect(lb.rows.find((x) => x.protocol === "proclaim")!.n).toBe(
      reports.find((r) => r.run.protocol === "proclaim")!.items.filter((i) => i.gold !== null).length,
    );
    // Best first.
    const accs = lb.rows.map((r) => r.accuracy.value ?? -1);
    expect([...accs].sort((a, b) => b - a)).toEqual(accs);
  });

  it("tests every pair with McNemar on the claims both scored, from the runs' own right and wrong", () => {
    expect(lb.pairs).toHaveLength(3);
    for (const p of lb.pairs) {
      const ra = reports.find((r) => r.run.protocol === p.a)!;
      const rb = reports.find((r) => r.run.protocol === p.b)!;
      const right = (r: EvalReport) =>
        new Map(r.items.filter((i) => i.correct !== null).map((i) => [i.claim_id, i.correct!]));
      const a = right(ra);
      const b = right(rb);
      const shared = [...a.keys()].filter((k) => b.has(k));
      const onlyA = shared.filter((k) => a.get(k) && !b.get(k)).length;
      const onlyB = shared.filter((k) => !a.get(k) && b.get(k)).length;
      expect(p).toMatchObject({
        shared: shared.length,
        only_a_right: onlyA,
        only_b_right: onlyB,
        p_value: mcnemarExact(onlyA, onlyB),
      });
    }
  });

  it("md, csv and json say the same numbers", () => {
    const json = JSON.parse(leaderboardJson(lb)) as Leaderboard;
    expect(json.rows.map((r) => [r.protocol, r.accuracy.value, r.macro_f1.value, r.n])).toEqual(
      lb.rows.map((r) => [r.protocol, r.accuracy.value, r.macro_f1.value, r.n]),
    );
    const csv = leaderboardCsv(lb).trim().split("\n");
    expect(csv[0]).toBe(LEADERBOARD_CSV_COLUMNS.join(","));
    const ours = csv.filter((l) => l.startsWith("ours,"));
    expect(ours).toHaveLength(3);
    for (const line of ours) {
      // The scoring column is quoted and may hold commas: read the leading columns only.
      const cells = line.split(",");
      const row = lb.rows.find((r) => r.protocol === cells[1])!;
      expect(cells[7]).toBe(String(row.n));
      expect(cells[8]).toBe(row.accuracy.value === null ? "" : String(row.accuracy.value));
      expect(cells[11]).toBe(row.macro_f1.value === null ? "" : String(row.macro_f1.value));
    }
    expect(csv.filter((l) => l.startsWith("# mcnemar"))).toHaveLength(3);
    const md = leaderboardMarkdown(lb);
    for (const r of lb.rows) {
      const pct = (x: number | null | undefined) => (x === null || x === undefined ? "—" : (x * 100).toFixed(1));
      expect(md).toContain(
        `| ${r.protocol} | \`${r.run_id}\` | ${r.status} (6/6) | ${r.n} | ${r.unparsed} / ${r.failed} | ${pct(r.accuracy.value)} [${pct(r.accuracy.ci?.low)}, ${pct(r.accuracy.ci?.high)}] | ${pct(r.macro_f1.value)} [`,
      );
    }
    expect(md).toContain("## The papers' numbers (reported by the papers, not reproduced here)");
    for (const p of lb.pairs)
      expect(md).toContain(`| ${p.a} | ${p.b} | ${p.shared} | ${p.only_a_right} | ${p.only_b_right} |`);
    // The scripted example, kept for reading (test-results/ is not committed).
    fs.mkdirSync("test-results", { recursive: true });
    fs.writeFileSync(`test-results/eval-matrix-leaderboard-${backend}.md`, md);
  });

  it("is listed as a group", async () => {
    const groups = await listMatrixGroups(h.db);
    expect(groups.map((g) => g.group)).toEqual([group]);
    expect(groups[0]!.runs.map((r) => r.protocol)).toEqual(["radar", "tool-mad", "proclaim"]);
  });

  it("runs all four methods on the same FEVER claims, RADAR and ZoFia on the product scale, and the leaderboard is still each run's report", async () => {
    const plan = planMatrix({
      dataset: "matrix-fever",
      claims: feverClaims,
      sample: { limit: 6, sample: "random", seed: 4 },
      entries: entries(["radar", "tool-mad", "zofia", "proclaim"]),
    });
    expect(plan.refused).toEqual([]);
    const scoring = Object.fromEntries(plan.runs.map((r) => [r.entry.protocol, r.scoring]));
    const nei = plan.selected.filter((c) => c.label === "NOT ENOUGH INFO").length;
    expect(nei).toBeGreaterThan(0);
    expect(scoring.radar).toMatchObject({
      scale: "product",
      labels: ["TRUE", "HALF-TRUE", "FALSE"],
      scored: 6 - nei,
      unscored: { "NOT ENOUGH INFO": nei },
    });
    expect(scoring.zofia).toMatchObject({ scale: "product", labels: ["TRUE", "FALSE"], scored: 6 - nei });
    expect(scoring.zofia!.how).toMatch(/read as a one-paragraph article .*the paper judges whole articles/);
    expect(scoring["tool-mad"]!.scale).toBeUndefined();
    expect(scoring.proclaim!.scale).toBeUndefined();

    const made = await createMatrix(h, plan, { validateModel: () => {} });
    const embedder = scriptedEmbedder();
    const search = { config: parseConfig({}, process.cwd()).search, deps: { db: h.db, embedder } };
    for (const m of made.runs) {
      await m.executor.work({
        concurrency: 2,
        runId: m.created.runId,
        untilRunDone: true,
        resolverFor: ({ position }) => {
          const c = plan.selected[position]!;
          const k = (position + m.protocol.length) % 3;
          const letter = (["R", "F", "R"] as const)[k]!;
          const model = scriptedModel("openai:gpt-4o-mini", {
            pStop: 0.9,
            verdict: (["TRUE", "FALSE", "HALF-TRUE"] as const)[k],
            verdictProb: 0.9,
            toolMad: { claim: c.claim, rounds: [{ labels: { rag: k, search: k } }] },
            zofia: { judge: [letter], final: letter },
          });
          return () => model.resolved;
        },
        runOptions: { embedder, search },
      });
      await m.executor.close();
    }

    const four = await Promise.all(made.runs.map((m) => buildReport(h.db, m.created.runId).then((r) => r!)));
    for (const r of four) {
      expect(r.items.map((i) => i.claim_id)).toEqual(plan.selected.map((c) => c.id));
      expect(r.progress).toMatchObject({ total: 6, done: 6, failed: 0 });
    }
    const byProtocol = Object.fromEntries(four.map((r) => [r.run.protocol, r]));
    // The reports honour the scale the plan recorded: RADAR and ZoFia on the product scale, the gold read the same way.
    for (const p of ["radar", "zofia"]) {
      const r = byProtocol[p]!;
      expect(r.scale).toBe("product");
      expect(r.metrics.n).toBe(6 - nei);
      for (const i of r.items) {
        const gold = { SUPPORTS: "TRUE", REFUTES: "FALSE", "NOT ENOUGH INFO": null }[
          plan.selected.find((c) => c.id === i.claim_id)!.label as (typeof FEVER_LABELS)[number]
        ];
        expect(i.gold).toBe(gold);
        if (gold !== null) expect(i.correct).toBe(i.counted_as === gold);
      }
    }
    expect(byProtocol.zofia!.items.every((i) => i.predicted === "REAL" || i.predicted === "FAKE")).toBe(true);
    expect(byProtocol.zofia!.items.map((i) => i.counted_as)).toEqual(
      byProtocol.zofia!.items.map((i) => (i.predicted === "REAL" ? "TRUE" : "FALSE")),
    );
    // ZoFia read each claim as a one-paragraph article: the claim text as its body, no headline, link or date (the fixture has none).
    for (const i of byProtocol.zofia!.items) {
      const [row] = await h.db
        .select({
          text: s.claims.text,
          metadata: s.claims.metadata,
          url: s.claims.appearanceUrl,
          date: s.claims.claimDate,
        })
        .from(s.debates)
        .innerJoin(s.claims, eq(s.debates.claimId, s.claims.id))
        .where(eq(s.debates.id, i.debate_id!));
      expect(row).toMatchObject({ text: plan.selected.find((c) => c.id === i.claim_id)!.claim, url: null, date: null });
      expect((row!.metadata as Record<string, unknown> | null)?.title).toBeUndefined();
    }
    expect(byProtocol["tool-mad"]!.scale).toBe("own");
    expect(byProtocol["tool-mad"]!.labels).toEqual(["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]);

    const board = (await buildLeaderboard(h.db, made.group))!;
    expect(board.rows.map((r) => r.protocol).sort()).toEqual(["proclaim", "radar", "tool-mad", "zofia"]);
    for (const r of four) {
      const row = board.rows.find((x) => x.run_id === r.run.id)!;
      expect(row.accuracy).toEqual(r.metrics.accuracy);
      expect(row.macro_f1).toEqual(r.metrics.macro_f1);
      expect(row.n).toBe(r.metrics.n);
      expect(row.on_product_scale).toBe(r.run.protocol === "radar" || r.run.protocol === "zofia");
    }
    expect(board.pairs).toHaveLength(6);
    const md = leaderboardMarkdown(board);
    expect(md).toMatch(
      /RADAR, ZoFia: Scored on the product scale: this method's own labels cannot be compared with the dataset's|ZoFia, RADAR: Scored on the product scale/,
    );
    expect(reportMarkdown(byProtocol.zofia!)).toContain("Scored on the product scale");
    fs.writeFileSync(`test-results/eval-matrix-four-${backend}.md`, md);
  });
});

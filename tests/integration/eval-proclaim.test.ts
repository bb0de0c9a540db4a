import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { scriptedEmbedder } from "@/lib/bench/scripted-embedder";
import { scriptedModel } from "@/lib/bench/scripted-model";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { ingestRecords } from "@/lib/corpus/ingest";
import { convertProclaimSubset } from "@/lib/datasets/proclaim-subsets";
import { InProcessExecutor } from "@/lib/eval/executor";
import { PRESETS } from "@/lib/eval/presets";
import { buildReport, reportMarkdown } from "@/lib/eval/report";
import { createEvalRun } from "@/lib/eval/run";
import { backend, freshDatabase } from "./test-db";

/**
 * proclaim-checkcovid's setting end to end through lib/eval: three repeat runs of the same claims,
 * each claim a full scripted PROClaim trial (premises, admissibility, P-RAG, both trials, the panel)
 * over a small corpus standing in for Check-COVID's, then the report of the group. The scripted panel
 * votes NOT SUPPORTED 2–1 (or INCONCLUSIVE when the abstaining ballots line up), so what is checked
 * is the arithmetic over stored verdicts: majority over runs, best-of-runs, per run, the policy for
 * INCONCLUSIVE, and tokens per claim beside the paper's.
 */

const FIX = path.join(__dirname, "..", "fixtures", "datasets", "proclaim_subsets");
const embedder = scriptedEmbedder();

let h: DbHandle;
beforeAll(async () => {
  h = await freshDatabase();
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_BASE_URL", "http://127.0.0.1:9/v1");
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_MODEL", "lab-model");
  vi.stubEnv("DEFAULT_MODEL", "openai-compatible:lab");
  vi.stubEnv("WEB_SEARCH_PROVIDER", "");
  vi.stubEnv("TAVILY_API_KEY", "");
  vi.stubEnv("BRAVE_API_KEY", "");
  resetConfigForTests();
  await ingestRecords(
    h.db,
    [
      {
        kind: "document",
        document: {
          id: "c1",
          title: "Stroke in young COVID-19 patients",
          text: "A 2020 report described young patients with COVID-19 who had strokes with few or no prior risk factors.",
        },
      },
      {
        kind: "document",
        document: {
          id: "c2",
          title: "Stroke risk factors",
          text: "Most strokes in COVID-19 patients occurred in those with hypertension or diabetes, a 2021 cohort found.",
        },
      },
      {
        kind: "document",
        document: {
          id: "c3",
          title: "Background",
          text: "Stroke is a medical emergency; the brain's blood supply is interrupted.",
        },
      },
    ],
    { corpus: "check-covid", embedder, source: "t", kind: "records" },
  );
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

describe(`a PROClaim evaluation with --repeats 3 (proclaim-checkcovid's setting) on ${backend}`, () => {
  it("debates every claim in each of three linked runs and reports the majority, the best of three and each run beside the paper", async () => {
    const preset = PRESETS["proclaim-checkcovid"];
    expect(preset.repeats).toBe(3);
    const claims = (await convertProclaimSubset(FIX, "proclaim-checkcovid")).slice(0, 2);
    expect(claims.map((c) => c.label).sort()).toEqual(["NOT SUPPORTED", "SUPPORTED"]);

    const group = "7a1f0c2e-5b4d-4e8a-9c3b-2d1e0f9a8b7c";
    const runIds: string[] = [];
    for (let k = 1; k <= 3; k++) {
      const { runId, items } = await createEvalRun(
        h.db,
        {
          dataset: preset.dataset,
          claims,
          evidence: preset.evidence,
          protocol: preset.protocol,
          config: preset.config,
          models: {},
          executor: "in-process",
          preset: "proclaim-checkcovid",
          references: preset.references,
          caveat: preset.caveat,
          repeat: { group, index: k, of: 3 },
        },
        { validateModel: () => {} },
      );
      expect(items).toBe(2);
      runIds.push(runId);
    }
    // One scripted model for every role and run; its PROClaim answers follow the templates asked.
    const model = scriptedModel("openai-compatible:lab");
    for (const runId of runIds) {
      await new InProcessExecutor(h.db).work({
        concurrency: 1,
        runId,
        untilRunDone: true,
        resolverFor: () => () => model.resolved,
        runOptions: { embedder, search: { config: getConfig().search, deps: { embedder, sleep: async () => {} } } },
      });
    }

    // Six real trials: every debate completed, with its panel and P-RAG searches over the corpus.
    const debates = await h.db.select().from(s.debates).where(inArray(s.debates.evalRunId, runIds));
    expect(debates).toHaveLength(6);
    expect(debates.map((d) => d.status)).toEqual(Array(6).fill("completed"));
    const ballots = await h.db.select().from(s.verdicts).where(eq(s.verdicts.debateId, debates[0]!.id));
    expect(ballots.filter((b) => !b.isFinal)).toHaveLength(3);

    const r = (await buildReport(h.db, runIds[1]!, { resamples: 20, seed: 1 }))!;
    const g = r.repeats!;
    expect(g).not.toBeNull();
    expect(g.of).toBe(3);
    expect(g.runs.map((x) => x.index)).toEqual([1, 2, 3]);
    expect(g.runs.every((x) => x.n === 2)).toBe(true);
    expect(g.incomplete).toBe(0);
    expect(g.policy).toBe("support");
    // The majority and the oracle follow from the stored labels: recompute them from the items.
    const stored = await h.db
      .select({ claimId: s.claims.datasetClaimId, debateId: s.evalItems.debateId })
      .from(s.evalItems)
      .innerJoin(s.claims, eq(s.claims.id, s.evalItems.claimId))
      .where(inArray(s.evalItems.runId, runIds));
    expect(stored).toHaveLength(6);
    const finals = await h.db
      .select({ debateId: s.verdicts.debateId, label: s.verdicts.label })
      .from(s.verdicts)
      .where(eq(s.verdicts.isFinal, true));
    const labelOf = new Map(finals.map((f) => [f.debateId, f.label]));
    const gold = new Map(claims.map((c) => [c.id, c.label]));
    let majorityRight = 0;
    let bestRight = 0;
    for (const c of claims) {
      const votes = stored.filter((x) => x.claimId === c.id).map((x) => labelOf.get(x.debateId!)!);
      expect(votes).toHaveLength(3);
      // INCONCLUSIVE counts as SUPPORTED under the paper's burden of refutation.
      const counted = votes.map((v) => (v === "INCONCLUSIVE" ? "SUPPORTED" : v));
      const tally = new Map<string, number>();
      for (const v of votes) tally.set(v, (tally.get(v) ?? 0) + 1);
      const top = Math.max(...tally.values());
      const winners = [...tally].filter(([, n]) => n === top).map(([l]) => l);
      const majority = winners.length === 1 ? winners[0]! : "INCONCLUSIVE";
      if ((majority === "INCONCLUSIVE" ? "SUPPORTED" : majority) === gold.get(c.id)) majorityRight++;
      if (counted.includes(gold.get(c.id)!)) bestRight++;
    }
    expect(g.majority.accuracy).toBeCloseTo(majorityRight / 2, 10);
    expect(g.best_of.accuracy).toBeCloseTo(bestRight / 2, 10);
    expect(g.tokens.per_debate).toBeGreaterThan(1000);

    const md = reportMarkdown(r);
    expect(md).toMatch(/Over 3 runs of the same claims/);
    expect(md).toMatch(/closed-world corpus, not comparable/);
    expect(md).toMatch(/81\.7/);
    expect(md).toMatch(/95\.8/);
    expect(md).toMatch(/210,900|210900/);
  });
});

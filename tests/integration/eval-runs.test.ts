import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { resetFailedItems, setRunStatus } from "@/db/queries/eval";
import { scriptedModel } from "@/lib/bench/scripted-model";
import { scriptedEvalResolver } from "@/lib/bench/scripted-eval";
import type { ClaimRecord } from "@/lib/datasets/claims";
import { calibrate } from "@/lib/eval/calibrate";
import { InProcessExecutor, type ResolverFactory } from "@/lib/eval/executor";
import { buildReport, compareRuns, reportCsv, reportMarkdown } from "@/lib/eval/report";
import { createEvalRun } from "@/lib/eval/run";
import { scoresFromRun } from "@/lib/eval/run-scores";
import { evalRunList, evalRunView, heat } from "@/lib/eval/view";
import { freshDatabase } from "./test-db";

let h: DbHandle;
beforeAll(async () => {
  h = await freshDatabase();
});
afterAll(async () => {
  await h?.close();
});

const LABELS = ["TRUE", "HALF-TRUE", "FALSE"] as const;
const CLAIMS: ClaimRecord[] = Array.from({ length: 6 }, (_, i) => ({
  id: `c${i}`,
  claim: `Claim number ${i} says something about the 2012 medal auction.`,
  label: LABELS[i % 3],
  gold_evidence: [{ id: "g1", text: `Gold passage for claim ${i}.` }],
  supplied_evidence: [{ id: "r1", text: `Retrieved passage for claim ${i}.`, score: 0.1 }],
}));
const MODELS = { politician: "openai:gpt-4o-mini", scientist: "openai:gpt-4o-mini", judge: "openai:gpt-4o-mini" };
const noValidation = { validateModel: () => {} };

async function newRun(extra: Partial<Parameters<typeof createEvalRun>[1]> = {}) {
  return createEvalRun(
    h.db,
    {
      dataset: "test-set",
      claims: CLAIMS,
      evidence: { mode: "gold" },
      protocol: "radar",
      config: { variant: "expertise" },
      models: MODELS,
      executor: "in-process",
      ...extra,
    },
    noValidation,
  );
}

describe("evaluation runs, in-process executor", () => {
  it("runs every claim once as a stored debate and reports metrics, cost and stop rounds", async () => {
    const { runId, items } = await newRun({ evidence: { mode: "supplied" } });
    expect(items).toBe(6);
    await new InProcessExecutor(h.db).work({
      concurrency: 3,
      runId,
      untilRunDone: true,
      resolverFor: scriptedEvalResolver(),
    });
    const r = (await buildReport(h.db, runId, { resamples: 200 }))!;
    expect(r.run.status).toBe("completed");
    expect(r.progress).toMatchObject({ total: 6, done: 6, failed: 0, pending: 0, running: 0 });
    // Scripted verdicts by position: FALSE FALSE TRUE HALF-TRUE FALSE FALSE vs gold TRUE HALF-TRUE FALSE TRUE HALF-TRUE FALSE.
    expect(r.items.map((i) => i.predicted)).toEqual(["FALSE", "FALSE", "TRUE", "HALF-TRUE", "FALSE", "FALSE"]);
    expect(r.metrics.accuracy.value).toBeCloseTo(1 / 6, 12);
    expect(r.metrics.confusion.TRUE!["HALF-TRUE"]!.value).toBe(1);
    expect(r.cost.per_claim.llm_calls.mean).toBeGreaterThan(5);
    expect(r.stop_rounds).toEqual({ "3": 6 });
    // Every item's debate is a debate like any other, with the supplied evidence frozen.
    const evidence = await h.db
      .select()
      .from(s.debateEvidence)
      .where(eq(s.debateEvidence.debateId, r.items[0]!.debate_id!));
    expect(evidence.map((e) => [e.source, e.text])).toEqual([["supplied", "Retrieved passage for claim 0."]]);
    const debates = await h.db
      .select({ status: s.debates.status })
      .from(s.debates)
      .where(eq(s.debates.evalRunId, runId));
    expect(debates.every((d) => d.status === "completed")).toBe(true);
    expect(reportMarkdown(r)).toMatch(/\| accuracy \| 16\.7 \[/);
    const csv = reportCsv(r).trim().split("\n");
    expect(csv).toHaveLength(7);
    expect(csv[0]).toMatch(/^position,claim_id,claim,gold/);
  });

  it("pauses at the token budget, lists failed items with their error and retries them alone", async () => {
    const { runId } = await newRun({ budget: { maxTokens: 1 } });
    let n = 0;
    // The second item's model fails for good; the others succeed.
    const resolver: ResolverFactory = (item) => {
      const m = scriptedModel(
        "openai:gpt-4o-mini",
        item.position === 1
          ? { failOnCall: { n: 1, error: Object.assign(new Error("invalid api key"), { statusCode: 401 }) } }
          : {},
      );
      n++;
      return () => m.resolved;
    };
    await new InProcessExecutor(h.db).work({ concurrency: 1, runId, untilRunDone: true, resolverFor: resolver });
    let r = (await buildReport(h.db, runId, { resamples: 10 }))!;
    // One claim ran, then the budget (1 token) stopped the rest.
    expect(r.run.status).toBe("paused");
    expect(r.run.status_reason).toMatch(/token budget reached/);
    expect(r.progress.done).toBe(1);
    expect(r.progress.pending).toBe(5);

    await h.db.update(s.evalRuns).set({ budget: null }).where(eq(s.evalRuns.id, runId));
    await setRunStatus(h.db, runId, "running", null, ["paused"]);
    await new InProcessExecutor(h.db).work({ concurrency: 2, runId, untilRunDone: true, resolverFor: resolver });
    r = (await buildReport(h.db, runId, { resamples: 10 }))!;
    expect(r.run.status).toBe("completed");
    expect(r.progress).toMatchObject({ done: 5, failed: 1 });
    expect(r.failed).toHaveLength(1);
    expect(r.failed[0]!.claim_id).toBe("c1");
    expect(r.failed[0]!.error).toMatch(/invalid api key/);
    // Failed items are not scored.
    expect(r.metrics.n).toBe(5);

    const retried = await resetFailedItems(h.db, runId, [r.failed[0]!.item_id]);
    expect(retried).toHaveLength(1);
    await new InProcessExecutor(h.db).work({
      concurrency: 1,
      runId,
      untilRunDone: true,
      resolverFor: scriptedEvalResolver(),
    });
    r = (await buildReport(h.db, runId, { resamples: 10 }))!;
    expect(r.progress).toMatchObject({ done: 6, failed: 0 });
    expect(r.items.find((i) => i.claim_id === "c1")!.attempts).toBe(2);
    expect(n).toBeGreaterThan(0);
  });

  it("takes over an item whose worker died, resuming its debate instead of starting over", async () => {
    const { runId } = await newRun({ claims: CLAIMS.slice(0, 1) });
    const [item] = await h.db.select().from(s.evalItems).where(eq(s.evalItems.runId, runId));
    // A worker that leased it and died: no heartbeat for a minute, its debate left running.
    await h.db
      .update(s.evalItems)
      .set({ status: "running", workerId: "dead:1", heartbeatAt: new Date(Date.now() - 60_000), attempts: 1 })
      .where(eq(s.evalItems.id, item!.id));
    await h.db.update(s.debates).set({ status: "running" }).where(eq(s.debates.id, item!.debateId!));
    await new InProcessExecutor(h.db).work({
      concurrency: 1,
      runId,
      untilRunDone: true,
      leaseMs: 5_000,
      resolverFor: scriptedEvalResolver(),
    });
    const [after] = await h.db.select().from(s.evalItems).where(eq(s.evalItems.id, item!.id));
    expect(after).toMatchObject({ status: "done", attempts: 2 });
    const [d] = await h.db.select().from(s.debates).where(eq(s.debates.id, item!.debateId!));
    expect(d!.status).toBe("completed");
  });

  it("calibrates on a score-only run's stored checkpoints and compares two runs on shared claims", async () => {
    const { runId } = await newRun({ config: { variant: "expertise", earlyStopping: "score-only" } });
    await new InProcessExecutor(h.db).work({
      concurrency: 2,
      runId,
      untilRunDone: true,
      resolverFor: scriptedEvalResolver({ pStop: 0.7 }),
    });
    const scores = await scoresFromRun(h.db, runId);
    expect(scores).toHaveLength(6);
    expect(scores[0]!.checkpoints.map((c) => c.after)).toEqual(["opening", "rebuttal-1"]);
    expect(scores[0]!.checkpoints[0]!.p_stop).toBeCloseTo(0.7, 5);
    expect(scores[0]!.checkpoints[0]!.tokens!).toBeLessThan(scores[0]!.total_tokens!);
    const result = calibrate(scores);
    expect(result.grid).toHaveLength(861);
    // The scripted round judge says what the final judge says, so stopping at the opening costs nothing in accuracy: fewest rounds wins.
    expect(result.best.avg_rounds).toBe(1);
    expect(result.best.accuracy).toBeCloseTo(1 / 6, 12);

    const other = await newRun({ config: { variant: "single" } });
    await new InProcessExecutor(h.db).work({
      concurrency: 2,
      runId: other.runId,
      untilRunDone: true,
      resolverFor: scriptedEvalResolver(),
    });
    const c = await compareRuns(h.db, runId, other.runId, { resamples: 100 });
    expect(c.shared).toBe(6);
    expect(c.paired.only_a_correct + c.paired.only_b_correct).toBe(0);
    expect(c.paired.mcnemar.p_value).toBe(1);
  });

  it("gives the /eval pages their data: runs with progress and metrics, a run's report and calibration grid", async () => {
    const list = await evalRunList(h.db);
    expect(list.length).toBeGreaterThanOrEqual(5);
    expect(list.every((r) => r.progress.total > 0)).toBe(true);
    const scoreOnly = list.find((r) => r.name.includes("expertise"))!;
    expect(scoreOnly.avg_tokens).toBeGreaterThan(0);
    const runs = await h.db.select().from(s.evalRuns);
    const calibrated = runs.find(
      (r) => (r.config as { radar?: { earlyStopping?: string } }).radar?.earlyStopping === "score-only",
    )!;
    const view = (await evalRunView(h.db, calibrated.id, { resamples: 50 }))!;
    expect(view.report.progress.done).toBe(6);
    expect(view.calibration!.grid).toHaveLength(861);
    expect(view.calibrationError).toBeNull();
    const plain = runs.find((r) => (r.config as { radar?: { earlyStopping?: string } }).radar?.earlyStopping === "on")!;
    expect((await evalRunView(h.db, plain.id, { resamples: 50 }))!.calibration).toBeNull();
    expect(await evalRunView(h.db, "00000000-0000-0000-0000-000000000000")).toBeNull();
    expect(heat(0).background).toBe("rgb(250, 250, 247)");
    expect(heat(1)).toEqual({ background: "rgb(180, 71, 31)", color: "#fff" });
  });

  it("skips a claim with 16,000 evidence paragraphs, saying why, and runs the others", async () => {
    const huge: ClaimRecord = {
      id: "huge",
      claim: "A claim with far too much evidence.",
      label: "TRUE",
      gold_evidence: Array.from({ length: 16_000 }, (_, i) => ({ id: `e${i}`, text: `Passage ${i}.` })),
    };
    const { runId, items, skipped } = await newRun({ claims: [huge, ...CLAIMS.slice(0, 2)] });
    expect(items).toBe(2);
    expect(skipped).toEqual([
      { id: "huge", reason: expect.stringMatching(/The evidence has 16,000 passages; a debate takes at most 300/) },
    ]);
    const r = (await buildReport(h.db, runId, { resamples: 10 }))!;
    expect(r.items.map((i) => i.claim_id)).toEqual(["c0", "c1"]);
  });
});

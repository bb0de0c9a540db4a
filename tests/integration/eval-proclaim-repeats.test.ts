import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { insertEvalItem, repeatGroupRuns, upsertClaim } from "@/db/queries/eval";
import { convertProclaimSubset } from "@/lib/datasets/proclaim-subsets";
import { PRESETS } from "@/lib/eval/presets";
import { buildReport, reportCsv, reportMarkdown } from "@/lib/eval/report";
import { backend, freshDatabase } from "./test-db";

/**
 * `eval --repeats 3` as it is stored: three runs over the same claims linked by config.repeat, each
 * claim's debate finished with a stored PROClaim label. The protocol itself is not needed (nor
 * registered here): the rows are what a worker would have written. Checked: every run of the group
 * reports the same majority / best-of / per-run figures, the INCONCLUSIVE policy is applied and
 * named while the stored label stays, and the paper's rows (81.7, best-of-3 95.8, 210,900 tokens)
 * are printed beside ours.
 */

const SUBSETS = path.join(__dirname, "..", "fixtures", "datasets", "proclaim_subsets");
const GROUP = "7d1f2a8e-0000-4000-8000-000000000001";

let h: DbHandle;
beforeAll(async () => {
  h = await freshDatabase();
});
afterAll(async () => {
  await h?.close();
});

type Outcome = { label: string | null; tokens: number } | "pending";

/** One stored run of the group: a run row, and per claim an item whose debate ended with `label` after `tokens`. */
async function storedRun(
  index: number,
  claims: Awaited<ReturnType<typeof convertProclaimSubset>>,
  outcomes: Outcome[],
  reporting?: Record<string, unknown>,
) {
  const preset = PRESETS["proclaim-checkcovid"];
  const [run] = await h.db
    .insert(s.evalRuns)
    .values({
      name: `proclaim-checkcovid · run ${index}/3`,
      dataset: preset.dataset,
      protocol: "proclaim",
      variant: null,
      config: {
        proclaim: {},
        models: { judge: "m" },
        evidence: preset.evidence,
        preset: "proclaim-checkcovid",
        references: preset.references,
        caveat: preset.caveat,
        repeat: { group: GROUP, index, of: 3 },
        ...(reporting ? { reporting } : {}),
      },
      status: outcomes.includes("pending") ? "running" : "completed",
      executor: "in-process",
    })
    .returning({ id: s.evalRuns.id });
  const runId = run!.id;
  for (const [position, rec] of claims.entries()) {
    const claimId = await upsertClaim(h.db, preset.dataset, rec);
    const { itemId, debateId } = await insertEvalItem(h.db, {
      runId,
      claimId,
      position,
      protocol: "proclaim",
      variant: null,
      config: {},
      models: { judge: "m" },
      thresholds: null,
      promptsHash: "test",
      evidenceMode: "retrieved",
      corpusId: null,
      evidence: [],
    });
    const o = outcomes[position]!;
    if (o === "pending") continue;
    await h.db.update(s.debates).set({ status: "completed" }).where(eq(s.debates.id, debateId));
    if (o.label !== null)
      await h.db
        .insert(s.verdicts)
        .values({ debateId, label: o.label, isFinal: true, judgeRole: "judge-1", roundsCompleted: 4 });
    await h.db
      .insert(s.llmCalls)
      .values({ debateId, model: "m", purpose: "turn", promptTokens: o.tokens - 100, completionTokens: 100 });
    await h.db.update(s.evalItems).set({ status: "done" }).where(eq(s.evalItems.id, itemId));
  }
  return runId;
}

describe(`PROClaim repeats over stored runs on ${backend}`, () => {
  it("majority over 3 runs, best-of-3, each run, the policy named, the paper's rows beside ours", async () => {
    const claims = await convertProclaimSubset(SUBSETS, "proclaim-checkcovid");
    // Gold: c0 NOT SUPPORTED, c1 SUPPORTED, c2 NOT SUPPORTED.
    expect(claims.map((c) => c.label)).toEqual(["NOT SUPPORTED", "SUPPORTED", "NOT SUPPORTED"]);
    const N = "NOT SUPPORTED";
    const S = "SUPPORTED";
    const I = "INCONCLUSIVE";
    // c0: N, N, S → N right. c1: I, N, S → tie → INCONCLUSIVE → (support) S right. c2: I, I, pending → I → S wrong; oracle: wrong too under support.
    const r1 = await storedRun(1, claims, [
      { label: N, tokens: 1000 },
      { label: I, tokens: 2000 },
      { label: I, tokens: 3000 },
    ]);
    const r2 = await storedRun(2, claims, [
      { label: N, tokens: 1000 },
      { label: N, tokens: 2000 },
      { label: I, tokens: 3000 },
    ]);
    const r3 = await storedRun(3, claims, [{ label: S, tokens: 1000 }, { label: S, tokens: 2000 }, "pending"]);

    expect((await repeatGroupRuns(h.db, GROUP)).map((r) => r.id)).toEqual([r1, r2, r3]);

    const rep = (await buildReport(h.db, r1, { resamples: 20, seed: 1 }))!;
    expect(rep.labels).toEqual([S, N]);
    // Run 1 alone, policy support: c0 right, c1 I → S right, c2 I → S wrong.
    expect(rep.metrics.accuracy.value).toBeCloseTo(2 / 3, 10);
    expect(rep.inconclusive).toEqual({ policy: "support", label: I, counted_as: S, verdicts: 2, excluded: 0 });
    // The stored verdict keeps its label; only what it is scored as changes.
    const c1 = rep.items.find((i) => i.position === 1)!;
    expect(c1).toMatchObject({ predicted: I, counted_as: S, gold: S, correct: true });

    const g = rep.repeats!;
    expect(g).toMatchObject({ group: GROUP, of: 3, policy: "support", tie_label: I, incomplete: 1 });
    expect(g.claims.map((c) => [c.majority, c.counted_as, c.correct, c.any_correct])).toEqual([
      [N, N, true, true],
      [I, S, true, true],
      [I, S, false, false],
    ]);
    expect(g.majority).toMatchObject({ n: 3, ties: 1, excluded: 0 });
    expect(g.majority.accuracy).toBeCloseTo(2 / 3, 10);
    expect(g.best_of).toMatchObject({ n: 3 });
    expect(g.best_of.accuracy).toBeCloseTo(2 / 3, 10);
    expect(g.runs.map((r) => [r.index, r.n])).toEqual([
      [1, 3],
      [2, 3],
      [3, 2],
    ]);
    // Run 2: c0 right, c1 N wrong, c2 I → S wrong. Run 3: c0 S wrong, c1 S right.
    expect(g.runs.map((r) => r.accuracy)).toEqual([2 / 3, 1 / 3, 1 / 2]);
    // 8 finished debates: 1000 × 3 + 2000 × 3 + 3000 × 2 = 15,000 tokens; 3 claims.
    expect(g.tokens).toEqual({ per_debate: 15_000 / 8, per_claim_all_runs: 5_000 });

    // Any run of the group reports the same aggregate.
    const fromRun3 = (await buildReport(h.db, r3, { resamples: 20 }))!;
    expect(fromRun3.repeats!.majority).toEqual(g.majority);

    const md = reportMarkdown(rep);
    expect(md).toMatch(
      /INCONCLUSIVE verdicts: 2, counted as SUPPORTED under the reporting policy "support" \(the paper's burden of refutation/,
    );
    expect(md).toMatch(/## Over 3 runs of the same claims/);
    expect(md).toMatch(/Not the paper's setting: closed-world corpus, not comparable/);
    expect(md).toMatch(/ties \(1\) are INCONCLUSIVE, then read by the policy "support"/);
    expect(md).toMatch(/\| majority of 3 runs \| 3 \| 66\.7 \| .* \| 1,875 \| 81\.7 \| 210,900 \|/);
    expect(md).toMatch(/\| best of 3 \(oracle\) \| 3 \| 66\.7 \| — \| — \| 95\.8 \| — \|/);
    expect(md).toMatch(/1 claim scored with fewer than 3 finished runs/);
    // The paper's table gains a tokens column, since the preset's rows carry tokens per claim.
    expect(md).toMatch(/\| who \| system \| model \| dataset \| n \| accuracy \| macro-F1 \| tokens per claim \|/);
    expect(md).toMatch(/\| PROClaim, majority of 3 runs \| .* \| Check-COVID \| 120 \| 81\.7 \| — \| 210,900 \|/);
    const csv = reportCsv(rep).split("\n");
    expect(csv[0]).toMatch(/,predicted,counted_as,correct,/);
    expect(csv.find((l) => l.includes(",INCONCLUSIVE,SUPPORTED,true,"))).toBeDefined();

    // Reading the same rows by another policy: the stored labels are untouched.
    const refute = (await buildReport(h.db, r1, { resamples: 20, inconclusive: "refute" }))!;
    // c1's tie → NOT SUPPORTED (wrong), c2's INCONCLUSIVE → NOT SUPPORTED (right).
    expect(refute.repeats!.majority.accuracy).toBeCloseTo(2 / 3, 10);
    expect(refute.repeats!.claims.map((c) => c.correct)).toEqual([true, false, true]);
    expect(refute.repeats!.best_of.accuracy).toBe(1);
    const exclude = (await buildReport(h.db, r1, { resamples: 20, inconclusive: "exclude" }))!;
    expect(exclude.repeats!.majority).toMatchObject({ n: 1, accuracy: 1, excluded: 2 });
    expect(exclude.metrics.n).toBe(1);
    expect(reportMarkdown(exclude)).toMatch(/left out \(2 claims\) under the reporting policy "exclude"/);
    const stored = await h.db.select({ label: s.verdicts.label }).from(s.verdicts);
    expect(stored.filter((v) => v.label === I)).toHaveLength(3);
  });

  it("a run created with --inconclusive refute reports by it unless a report asks otherwise", async () => {
    const claims = (await convertProclaimSubset(SUBSETS, "proclaim-checkcovid")).slice(0, 2);
    const id = await storedRun(
      1,
      claims,
      [
        { label: "INCONCLUSIVE", tokens: 500 },
        { label: "INCONCLUSIVE", tokens: 500 },
      ],
      { inconclusive: "refute" },
    );
    // A group of its own would mix with the first test's; read the run alone through its policy.
    await h.db
      .update(s.evalRuns)
      .set({ config: { proclaim: {}, models: {}, reporting: { inconclusive: "refute" } } })
      .where(eq(s.evalRuns.id, id));
    const r = (await buildReport(h.db, id, { resamples: 20 }))!;
    expect(r.repeats).toBeNull();
    expect(r.inconclusive).toMatchObject({ policy: "refute", counted_as: "NOT SUPPORTED" });
    // Gold NOT SUPPORTED then SUPPORTED: one right.
    expect(r.metrics.accuracy.value).toBe(0.5);
    expect((await buildReport(h.db, id, { resamples: 20, inconclusive: "support" }))!.inconclusive).toMatchObject({
      policy: "support",
    });
  });
});

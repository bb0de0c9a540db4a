import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { insertEvalItem, upsertClaim } from "@/db/queries/eval";
import {
  bestSentence,
  buildLeaderboard,
  leaderboardCsv,
  leaderboardMarkdown,
  LEADERBOARD_CSV_COLUMNS,
} from "@/lib/eval/leaderboard";
import { buildReport, reportMarkdown } from "@/lib/eval/report";
import { evalRunList } from "@/lib/eval/view";
import { backend, freshDatabase } from "./test-db";

/**
 * A matrix of three runs over the same four claims, stored as a worker would have left them:
 * - radar: three right, one unparsed;
 * - tool-mad: all four wrong, nothing unparsed (a bad method, honestly scored);
 * - a broken run (protocol "zofia", scored on RADAR's labels, first in the matrix and the cheapest):
 *   every verdict unparsed, one claim failed.
 * The broken run's accuracy is 0, like a method that judged everything wrong; the report, the run
 * list and the leaderboard must say it could not be read, and the headline must leave it out.
 */

const GROUP = "5e0c9a11-0000-4000-8000-0000000000aa";
const CLAIMS = [
  { id: "u1", claim: "Unparsed claim one.", label: "TRUE" },
  { id: "u2", claim: "Unparsed claim two.", label: "FALSE" },
  { id: "u3", claim: "Unparsed claim three.", label: "FALSE" },
  { id: "u4", claim: "Unparsed claim four.", label: "HALF-TRUE" },
];
type Outcome = { label: string | null } | "failed";

let h: DbHandle;
beforeAll(async () => {
  h = await freshDatabase();
});
afterAll(async () => {
  await h?.close();
});

async function storedRun(protocol: string, index: number, outcomes: Outcome[], tokens = 1000) {
  const scoring = { labels: ["TRUE", "HALF-TRUE", "FALSE"], how: "on RADAR's labels", scored: 4, unscored: {} };
  const [run] = await h.db
    .insert(s.evalRuns)
    .values({
      name: `unparsed matrix · ${protocol}`,
      dataset: "unparsed-fixture",
      protocol,
      variant: null,
      // Every run is scored on TRUE / HALF-TRUE / FALSE: Tool-MAD and ZoFia through their `labels` setting.
      config: {
        [protocol]: { labels: "radar" },
        models: { judge: "m" },
        matrix: { group: GROUP, protocol, index, of: 3, dataset: "unparsed-fixture", claims: 4, sample: {}, scoring },
      },
      status: "completed",
      executor: "in-process",
    })
    .returning({ id: s.evalRuns.id });
  const runId = run!.id;
  for (const [position, rec] of CLAIMS.entries()) {
    const claimId = await upsertClaim(h.db, "unparsed-fixture", rec);
    const { itemId, debateId } = await insertEvalItem(h.db, {
      runId,
      claimId,
      position,
      protocol,
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
    await h.db
      .insert(s.llmCalls)
      .values({ debateId, model: "m", purpose: "turn", promptTokens: tokens - 100, completionTokens: 100 });
    if (o === "failed") {
      await h.db.update(s.debates).set({ status: "failed" }).where(eq(s.debates.id, debateId));
      await h.db
        .update(s.evalItems)
        .set({ status: "failed", error: "model unreachable" })
        .where(eq(s.evalItems.id, itemId));
      continue;
    }
    await h.db.update(s.debates).set({ status: "completed" }).where(eq(s.debates.id, debateId));
    if (o.label !== null)
      await h.db
        .insert(s.verdicts)
        .values({ debateId, label: o.label, isFinal: true, judgeRole: "judge", roundsCompleted: 3 });
    await h.db.update(s.evalItems).set({ status: "done" }).where(eq(s.evalItems.id, itemId));
  }
  return runId;
}

describe(`unparsed and failed verdicts in reports and the leaderboard on ${backend}`, () => {
  let ids: Record<string, string>;
  beforeAll(async () => {
    ids = {
      // Two stored as UNPARSED, one with no verdict row at all (also unparsed), one failed.
      zofia: await storedRun(
        "zofia",
        0,
        [{ label: "UNPARSED" }, { label: null }, { label: "UNPARSED" }, "failed"],
        200,
      ),
      radar: await storedRun("radar", 1, [
        { label: "TRUE" },
        { label: "FALSE" },
        { label: "UNPARSED" },
        { label: "HALF-TRUE" },
      ]),
      "tool-mad": await storedRun("tool-mad", 2, [
        { label: "FALSE" },
        { label: "TRUE" },
        { label: "TRUE" },
        { label: "TRUE" },
      ]),
    };
  });

  it("a run whose every verdict is unparsed says so in its report instead of reading as accuracy 0", async () => {
    const broken = (await buildReport(h.db, ids.zofia!, { resamples: 20 }))!;
    expect(broken.metrics.accuracy.value).toBe(0);
    expect(broken.verdicts).toEqual({ scored: 3, unparsed: 3, failed: 1, unreadable: true });
    const md = reportMarkdown(broken);
    expect(md).toContain("**Warning:** No verdict could be read: all 3 scored verdicts are unparsed");
    expect(md).toContain("1 claim failed and is not scored.");

    const partial = (await buildReport(h.db, ids.radar!, { resamples: 20 }))!;
    expect(partial.verdicts).toEqual({ scored: 4, unparsed: 1, failed: 0, unreadable: false });
    expect(reportMarkdown(partial)).toContain("**Note:** 1 verdict of 4 unparsed and counted as wrong.");
    const clean = (await buildReport(h.db, ids["tool-mad"]!, { resamples: 20 }))!;
    expect(clean.verdicts.unparsed).toBe(0);
    expect(reportMarkdown(clean)).not.toMatch(/\*\*(Warning|Note):\*\*/);
  });

  it("the run list carries the same counts", async () => {
    const list = await evalRunList(h.db);
    const row = (id: string) => list.find((r) => r.id === id)!;
    expect(row(ids.zofia!).verdicts).toMatchObject({ unparsed: 3, failed: 1, unreadable: true });
    expect(row(ids.radar!).verdicts).toMatchObject({ unparsed: 1, failed: 0, unreadable: false });
  });

  it("the leaderboard counts unparsed and failed per row and leaves the unreadable run out of the headline", async () => {
    const lb = (await buildLeaderboard(h.db, GROUP, { resamples: 20 }))!;
    // Tool-MAD and the broken run both score 0; by accuracy and matrix order the broken run would be the runner-up,
    // and as the cheapest it would be on the frontier. It must be neither.
    expect(lb.rows.map((r) => [r.protocol, r.unparsed, r.failed, r.unreadable])).toEqual([
      ["radar", 1, 0, false],
      ["tool-mad", 0, 0, false],
      ["zofia", 3, 1, true],
    ]);
    expect(lb.best).toMatchObject({ protocol: "radar", runner_up: "tool-mad" });
    expect(lb.frontier.protocols).not.toContain("zofia");
    const sentence = bestSentence(lb);
    expect(sentence).toMatch(/Left out of this comparison: .*\(all 3 verdicts unparsed\)/);
    expect(leaderboardMarkdown(lb)).toContain("| zofia |");
    expect(leaderboardMarkdown(lb)).toMatch(/\| 3 \| 3 \/ 1 \| 0\.0 \[[^\]]*\] \(all unparsed: not comparable\) \|/);
    const header = leaderboardCsv(lb).split("\n")[0]!.split(",");
    expect(header).toEqual([...LEADERBOARD_CSV_COLUMNS]);
    const zofia = leaderboardCsv(lb)
      .split("\n")
      .find((l) => l.startsWith("ours,zofia,"))!
      .split(",");
    expect(zofia.slice(-3)).toEqual(["3", "1", "true"]);
  });

  it("when every run is unreadable, no method is named best and the sentence says why", async () => {
    const only = (await buildLeaderboard(h.db, GROUP, { resamples: 20 }))!;
    const brokenOnly = { ...only, rows: only.rows.filter((r) => r.unreadable), best: null };
    expect(bestSentence(brokenOnly)).toMatch(/^No method has a scored claim yet\. Left out of this comparison: /);
  });
});

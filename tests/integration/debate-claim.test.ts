import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createDebateRecord, loadDebate } from "@/db/queries/debates";
import { scriptedModel } from "@/lib/bench/scripted-model";
import { subscribe } from "@/lib/debate/events";
import { radarConfigSchema, radarProtocol, type RadarConfig } from "@/lib/debate/radar/protocol";
import { cancelDebate, runDebate } from "@/lib/debate/runner";
import type { DebateEvidence } from "@/lib/debate/types";
import { processItem } from "@/lib/eval/executor";
import { createEvalRun } from "@/lib/eval/run";
import { promptsHash } from "@/lib/prompts";
import { freshDatabase } from "./test-db";

/**
 * One claimant at a time: every way of running a debate (Resume on its page, an evaluation worker,
 * the CLI) goes through one atomic claim, so racing claimants never run a debate twice; and a
 * stopped debate keeps what its unfinished turn had written, and resumes after it.
 */

let h: DbHandle;
beforeAll(async () => {
  h = await freshDatabase();
});
afterAll(async () => {
  await h?.close();
});

const EVIDENCE: DebateEvidence[] = [
  { rank: 1, text: "The boxer auctioned his Olympic medal in 2012 to fund a children's hospital.", source: "gold" },
  { rank: 2, text: "In 2022 the war displaced millions of children.", source: "gold" },
];

async function newDebate(config: Partial<RadarConfig> = {}) {
  const parsed = radarConfigSchema.parse(config);
  return createDebateRecord(h.db, {
    claim: { text: "The boxer sold his medal to help children in the 2022 war." },
    protocol: "radar",
    variant: parsed.variant,
    config: parsed,
    models: Object.fromEntries(radarProtocol.roles(parsed).map((r) => [r, "openai:gpt-4o-mini"])),
    promptsHash: promptsHash(radarProtocol.templates(parsed)),
    evidenceMode: "gold",
    evidence: EVIDENCE,
  });
}

const speechKeys = (turns: Array<{ kind: string; role: string; phase: string; status: string }>) =>
  turns.filter((t) => t.kind === "speech" && t.status === "completed").map((t) => `${t.phase}:${t.role}`);
const FULL = [
  "opening:politician",
  "opening:scientist",
  "rebuttal-1:politician",
  "rebuttal-1:scientist",
  "closing:politician",
  "closing:scientist",
];

async function until(what: string, fn: () => Promise<boolean>, timeoutMs = 20_000) {
  const t0 = Date.now();
  while (!(await fn())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("claiming a debate", () => {
  it("two Resumes pressed together: one runs the debate, the other is refused and told why", async () => {
    const id = await newDebate({ earlyStopping: "off" });
    await h.db.update(s.debates).set({ status: "interrupted" }).where(eq(s.debates.id, id));
    const a = scriptedModel("openai:gpt-4o-mini", { delayMs: 2 });
    const b = scriptedModel("openai:gpt-4o-mini", { delayMs: 2 });
    const outcomes = await Promise.all([
      runDebate(h.db, id, { resolve: () => a.resolved }),
      runDebate(h.db, id, { resolve: () => b.resolved }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["completed", "skipped"]);
    expect(outcomes.find((o) => o.status === "skipped")!.error).toMatch(/already running/);
    const d = (await loadDebate(h.db, id))!;
    expect(speechKeys(d.turns)).toEqual(FULL);
    expect(d.turns.map((t) => t.seq)).toEqual(d.turns.map((_, i) => i + 1));
  });

  it("a worker taking an item whose debate a user just resumed waits for that run instead of running it twice", async () => {
    const { runId } = await createEvalRun(
      h.db,
      {
        dataset: "race",
        claims: [
          {
            id: "c1",
            claim: "The boxer sold his medal to help children in the 2022 war.",
            label: "HALF-TRUE",
            gold_evidence: [{ id: "g1", text: "The sale was in 2012." }],
          },
        ],
        evidence: { mode: "gold" },
        protocol: "radar",
        config: { variant: "expertise", earlyStopping: "off" },
        models: { politician: "openai:gpt-4o-mini", scientist: "openai:gpt-4o-mini", judge: "openai:gpt-4o-mini" },
        executor: "in-process",
      },
      { validateModel: () => {} },
    );
    const [item] = await h.db.select().from(s.evalItems).where(eq(s.evalItems.runId, runId));
    const debateId = item!.debateId!;
    // After a restart: the worker that held the item is gone, its debate is interrupted.
    await h.db
      .update(s.evalItems)
      .set({ status: "running", workerId: "dead:1", heartbeatAt: new Date(Date.now() - 120_000), attempts: 1 })
      .where(eq(s.evalItems.id, item!.id));
    await h.db.update(s.debates).set({ status: "interrupted" }).where(eq(s.debates.id, debateId));

    // A user presses Resume; the debate is running when a worker takes the item.
    const page = scriptedModel("openai:gpt-4o-mini", { delayMs: 3 });
    const resumed = runDebate(h.db, debateId, { resolve: () => page.resolved });
    await until(
      "the resumed debate to start a turn",
      async () => (await h.db.select().from(s.turns).where(eq(s.turns.debateId, debateId))).length > 0,
    );
    const worker = scriptedModel("openai:gpt-4o-mini", { delayMs: 3 });
    const taken = processItem(h.db, {
      workerId: "w2",
      itemId: item!.id,
      leaseMs: 5_000,
      heartbeatMs: 50,
      resolverFor: () => () => worker.resolved,
    });

    const [r1, r2] = await Promise.all([resumed, taken]);
    expect(r1.status).toBe("completed");
    expect(r2.outcome).toBe("done");
    expect(worker.calls()).toBe(0);
    const d = (await loadDebate(h.db, debateId))!;
    expect(d.debate.status).toBe("completed");
    expect(speechKeys(d.turns)).toEqual(FULL);
    expect(d.turns.every((t) => t.status === "completed")).toBe(true);
  });

  it("takes over a debate whose run stopped beating, but not one whose run is alive", async () => {
    const id = await newDebate({ variant: "single" });
    await h.db
      .update(s.debates)
      .set({ status: "running", runnerId: "other-host:1:x/1", heartbeatAt: new Date() })
      .where(eq(s.debates.id, id));
    const m = scriptedModel("openai:gpt-4o-mini", {});
    const refused = await runDebate(h.db, id, { resolve: () => m.resolved });
    expect(refused).toMatchObject({ status: "skipped", error: expect.stringMatching(/already running/) });
    expect(m.calls()).toBe(0);
    await h.db
      .update(s.debates)
      .set({ heartbeatAt: new Date(Date.now() - 60_000) })
      .where(eq(s.debates.id, id));
    expect((await runDebate(h.db, id, { resolve: () => m.resolved })).status).toBe("completed");
  });
});

describe("stopping and resuming", () => {
  it("keeps the stopped turn's text, marked stopped, and resumes from the last finished turn", async () => {
    const id = await newDebate({ earlyStopping: "off" });
    const first = scriptedModel("openai:gpt-4o-mini", { delayMs: 10 });
    let streamed = "";
    const unsubscribe = subscribe(id, (e) => {
      if (e.type === "delta" && e.seq === 3) {
        streamed += e.text;
        // Stop part-way through the third turn.
        if (streamed.length > 20) void cancelDebate(h.db, id);
      }
    });
    expect((await runDebate(h.db, id, { resolve: () => first.resolved })).status).toBe("cancelled");
    unsubscribe();
    let d = (await loadDebate(h.db, id))!;
    expect(d.debate.status).toBe("cancelled");
    expect(d.turns.map((t) => [t.seq, t.status])).toEqual([
      [1, "completed"],
      [2, "completed"],
      [3, "stopped"],
    ]);
    const stopped = d.turns[2]!;
    expect(stopped.content.length).toBeGreaterThan(20);
    expect(streamed.startsWith(stopped.content)).toBe(true);

    const second = scriptedModel("openai:gpt-4o-mini", {});
    expect((await runDebate(h.db, id, { resolve: () => second.resolved })).status).toBe("completed");
    d = (await loadDebate(h.db, id))!;
    // The stopped turn is still there with its text; the debate went on after the last finished turn.
    expect(d.turns.find((t) => t.seq === 3)).toMatchObject({ status: "stopped", content: stopped.content });
    expect(speechKeys(d.turns)).toEqual(FULL);
    // Two openings replayed, four speeches and the verdict new: the stopped turn was regenerated, not replayed.
    expect(second.calls()).toBe(5);
    expect(d.verdict).not.toBeNull();

    // A later resume of a finished debate is refused, and replays nothing.
    const again = await runDebate(h.db, id, { resolve: () => second.resolved });
    expect(again).toMatchObject({ status: "skipped", error: expect.stringMatching(/already finished/) });
  });
});

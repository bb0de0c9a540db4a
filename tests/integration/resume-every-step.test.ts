import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createPresetDebate, ensureBenchCorpus } from "@/lib/bench/protocols";
import { scriptedEmbedder } from "@/lib/bench/scripted-embedder";
import { scriptedModel } from "@/lib/bench/scripted-model";
import { parseConfig } from "@/lib/config";
import { subscribe } from "@/lib/debate/events";
import { getProtocol, PROTOCOL_NAMES } from "@/lib/debate/protocols";
import { handBack, runDebate, type RunOptions } from "@/lib/debate/runner";
import { freshDatabase } from "./test-db";

/**
 * Resume, for every method, at every step boundary of a scripted debate: the run is handed back
 * right after its k-th step is stored (as a worker stopping does, the same place a crash leaves
 * it), then a new run finishes it. The transcript must equal an uninterrupted run's, the k stored
 * steps must be the same rows (replayed, not run again), and every model call is made once.
 */

let h: DbHandle;
beforeAll(async () => {
  h = await freshDatabase();
  await ensureBenchCorpus(h.db);
});
afterAll(async () => {
  await h?.close();
});

/**
 * Each method's first preset, but PROClaim's plain multi-agent debate: its full method stores 84
 * steps (84 resumed debates, minutes); searches, embeddings and records are covered by Tool-MAD
 * and ZoFia, and PROClaim's own stages by tests/integration/proclaim.test.ts's resume test.
 */
const PRESET: Record<string, string | undefined> = { proclaim: "standard-mad" };

function runOptions() {
  const model = scriptedModel("openai:gpt-4o-mini", { pStop: 0.2, verdictProb: 0.9 });
  const embedder = scriptedEmbedder();
  const search = parseConfig({}, process.cwd()).search;
  return {
    model,
    opts: {
      resolve: () => model.resolved,
      embedder,
      search: { config: search, deps: { db: h.db, embedder } },
    } satisfies RunOptions,
  };
}

async function transcript(debateId: string) {
  const rows = await h.db
    .select({
      id: s.turns.id,
      seq: s.turns.seq,
      round: s.turns.round,
      phase: s.turns.phase,
      role: s.turns.role,
      kind: s.turns.kind,
      status: s.turns.status,
      content: s.turns.content,
    })
    .from(s.turns)
    .where(eq(s.turns.debateId, debateId))
    .orderBy(asc(s.turns.seq));
  return rows;
}
/**
 * What a reader compares: each step's identity and what it said (ids and timings differ by run).
 * Sorted: branches that run side by side (ctx.parallel) may finish, and so be numbered, in another order.
 */
const said = (rows: Awaited<ReturnType<typeof transcript>>, withText = true) =>
  rows
    .map(({ round, phase, role, kind, status, content }) =>
      JSON.stringify({ round, phase, role, kind, status, ...(withText ? { content } : {}) }),
    )
    .sort();

async function modelCalls(debateId: string) {
  const [r] = await h.db
    .select({ n: sql<number>`count(*)::int` })
    .from(s.llmCalls)
    .where(eq(s.llmCalls.debateId, debateId));
  return r!.n;
}

async function verdictOf(debateId: string) {
  const [v] = await h.db
    .select({ label: s.verdicts.label, confidence: s.verdicts.confidence, reason: s.verdicts.reason })
    .from(s.verdicts)
    .where(and(eq(s.verdicts.debateId, debateId), eq(s.verdicts.isFinal, true)));
  return v ?? null;
}

describe.each(PROTOCOL_NAMES)("%s resumed at every step boundary", (name) => {
  it("replays what was stored, runs the rest once, and ends with the uninterrupted transcript", async () => {
    const preset = PRESET[name] ?? Object.keys(getProtocol(name).presets)[0]!;
    const whole = await createPresetDebate(h.db, name, preset);
    const straight = runOptions();
    expect(await runDebate(h.db, whole, straight.opts)).toEqual({ status: "completed" });
    const expected = await transcript(whole);
    const expectedCalls = await modelCalls(whole);
    expect(expected.length).toBeGreaterThan(2);

    for (let k = 1; k < expected.length; k++) {
      const id = await createPresetDebate(h.db, name, preset);
      const first = runOptions();
      let ended = 0;
      const unsubscribe = subscribe(id, (e) => {
        if (e.type === "turn-end" && ++ended === k) handBack([id]);
      });
      const cut = await runDebate(h.db, id, first.opts).finally(unsubscribe);
      expect(cut.status, `${name}: handed back after step ${k}`).toBe("released");
      const stored = (await transcript(id)).filter((t) => t.status === "completed");
      const callsStored = await modelCalls(id);
      expect(stored.length, `${name}: steps stored before the cut at ${k}`).toBeGreaterThanOrEqual(k);

      // The same scripted model goes on answering: it counts what it was asked, as a debate's
      // participants remember what they said, so a fresh one would answer the rest differently.
      const before = first.model.calls();
      const resumed = await runDebate(h.db, id, first.opts);
      expect(resumed, `${name}: resumed after step ${k}`).toEqual({ status: "completed" });
      const after = await transcript(id);
      // A cut in the middle of parallel branches stops a sibling's model call mid-stream; it is
      // made again on resume. The scripted model counts every call it gets, so it then answers the
      // rest one step on: what was said differs by the test double, not by the runner. There the
      // steps are compared without their text.
      const wasted = before - callsStored;
      if (wasted === 0) expect(said(after), `${name}: transcript after a cut at step ${k}`).toEqual(said(expected));
      else expect(said(after, false), `${name}: steps after a cut at step ${k}`).toEqual(said(expected, false));
      // The steps stored before the cut are the same rows: replayed, never run again.
      const ids = new Set(after.map((t) => t.id));
      for (const t of stored)
        expect(ids.has(t.id), `${name}: step ${t.seq} (${t.role}, ${t.phase}) kept after a cut at ${k}`).toBe(true);
      // Every model call recorded once over both runs; the resumed run makes exactly the calls that
      // were not stored (a parallel branch's call cut mid-stream is made again, as it must be).
      expect(await modelCalls(id), `${name}: model calls after a cut at ${k}`).toBe(expectedCalls);
      expect(first.model.calls() - before, `${name}: model calls made by the run resumed after step ${k}`).toBe(
        expectedCalls - callsStored,
      );
      if (wasted === 0) expect(await verdictOf(id)).toEqual(await verdictOf(whole));
    }
  });
});

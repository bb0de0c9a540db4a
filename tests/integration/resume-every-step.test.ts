import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createPresetDebate, ensureBenchCorpus } from "@/lib/bench/protocols";
import { scriptedEmbedder } from "@/lib/bench/scripted-embedder";
import { scriptedModel } from "@/lib/bench/scripted-model";
import { parseConfig, resetConfigForTests } from "@/lib/config";
import { subscribe } from "@/lib/debate/events";
import { getProtocol, PROTOCOL_NAMES } from "@/lib/debate/protocols";
import { handBack, runDebate, type RunOptions } from "@/lib/debate/runner";
import { ruleNer, type NerProvider } from "@/lib/tools/ner";
import type { WikiProvider } from "@/lib/tools/wiki";
import { freshDatabase } from "./test-db";

/**
 * Resume, for every method, at every step boundary of a scripted debate: the run is handed back
 * right after its k-th step is stored (as a worker stopping does, the same place a crash leaves
 * it), then a new run finishes it. The transcript must equal an uninterrupted run's, the k stored
 * steps must be the same rows (replayed, not run again), and every model call is made once; ZoFia's
 * entity recogniser and encyclopedia are asked once per step too.
 */

let h: DbHandle;
beforeAll(async () => {
  // ZoFia freezes an encyclopedia when its debate is created (scripted below), so its lookups are steps to cut at.
  vi.stubEnv("WIKI_PROVIDER", "corpus");
  vi.stubEnv("WIKI_CORPUS", "encyclopedia");
  resetConfigForTests();
  h = await freshDatabase();
  await ensureBenchCorpus(h.db);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

/**
 * A recogniser and an encyclopedia that count what they are asked, by the step that asks
 * (`ner`, `wiki-candidates:<keyword>`, `wiki:<keyword>`). Each answers by the provider the debate
 * froze: another provider answers differently, so a run that took the server's current setting
 * instead would say something else.
 */
function scriptedLookups() {
  const calls = new Map<string, number>();
  const count = (key: string) => calls.set(key, (calls.get(key) ?? 0) + 1);
  const ner = (id: string): NerProvider => {
    const rule = ruleNer();
    return {
      ...rule,
      async recognise(text, opts) {
        count("ner");
        // The other provider finds only the first entity.
        const tokens = await rule.recognise(text, opts);
        return id === "rule" ? tokens : tokens.slice(0, 1);
      },
    };
  };
  const encyclopedia = (id: string): WikiProvider => ({
    id: id as WikiProvider["id"],
    live: false,
    label: `scripted encyclopedia (${id})`,
    async candidates(keyword) {
      count(`wiki-candidates:${keyword}`);
      return [
        { title: `${keyword} (${id})`, description: `a person called ${keyword}`, key: `${keyword}-1` },
        { title: `${keyword} (place)`, description: `a town called ${keyword}`, key: `${keyword}-2` },
      ];
    },
    async summary(c) {
      count(`wiki:${c.title.replace(/ \(.*\)$/, "")}`);
      return {
        title: c.title,
        extract: `${c.title} is in the ${id} encyclopedia. More.`,
        url: null,
        revision: "1",
        lastEdited: null,
      };
    },
  });
  return {
    calls,
    lookups: {
      ner: (f) => ner(f.provider),
      encyclopedia: (f) => (f.provider === "none" ? null : encyclopedia(f.provider)),
    } satisfies RunOptions["lookups"],
  };
}

/** The lookup steps a transcript stored, as the calls they made (a candidates list, an entry, the entities). */
const LOOKUP_PHASE = /^(ner|wiki-candidates:.+|wiki:.+)$/;
const lookupSteps = (rows: Awaited<ReturnType<typeof transcript>>) =>
  rows.filter((t) => t.status === "completed" && LOOKUP_PHASE.test(t.phase)).map((t) => t.phase);

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
  const lookups = scriptedLookups();
  return {
    model,
    lookupCalls: lookups.calls,
    opts: {
      resolve: () => model.resolved,
      embedder,
      search: { config: search, deps: { db: h.db, embedder } },
      lookups: lookups.lookups,
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
      const lookupsBefore = new Map(first.lookupCalls);
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
      // Entities and encyclopedia entries: a stored lookup is never asked again; the rest once each.
      const storedLookups = new Set(lookupSteps(stored));
      const askedOnResume = [...first.lookupCalls]
        .filter(([key, n]) => n > (lookupsBefore.get(key) ?? 0))
        .map(([key]) => key)
        .sort();
      expect(askedOnResume, `${name}: lookups asked by the run resumed after step ${k}`).toEqual(
        lookupSteps(expected)
          .filter((p) => !storedLookups.has(p))
          .sort(),
      );
      for (const [key, n] of first.lookupCalls)
        expect(
          n - (lookupsBefore.get(key) ?? 0),
          `${name}: "${key}" asked on resume after step ${k}`,
        ).toBeLessThanOrEqual(1);
    }
    if (name === "zofia")
      expect(
        lookupSteps(expected).map((p) => p.replace(/:.*/, "")),
        "ZoFia's lookups under test",
      ).toEqual(expect.arrayContaining(["ner", "wiki-candidates", "wiki"]));
  });
});

describe("ZoFia's recogniser and encyclopedia", () => {
  it("stay the ones frozen when the debate was created, whatever the server is set to when it starts or resumes", async () => {
    const preset = Object.keys(getProtocol("zofia").presets)[0]!;
    const whole = await createPresetDebate(h.db, "zofia", preset);
    expect((await runDebate(h.db, whole, runOptions().opts)).status).toBe("completed");
    const expected = said(await transcript(whole));
    const notStarted = await createPresetDebate(h.db, "zofia", preset);
    const cut = await createPresetDebate(h.db, "zofia", preset);
    const first = runOptions();
    const unsubscribe = subscribe(cut, (e) => {
      // Cut once the entities are stored, before any encyclopedia entry.
      if (e.type === "turn-end" && e.turn.phase === "ner") handBack([cut]);
    });
    expect((await runDebate(h.db, cut, first.opts).finally(unsubscribe)).status).toBe("released");
    expect(lookupSteps(await transcript(cut))).toEqual(["ner"]);

    // The server now names another recogniser and encyclopedia.
    vi.stubEnv("NER_PROVIDER", "http");
    vi.stubEnv("NER_URL", "http://127.0.0.1:9/ner");
    vi.stubEnv("WIKI_PROVIDER", "wikipedia-rest");
    resetConfigForTests();
    try {
      expect((await runDebate(h.db, cut, first.opts)).status).toBe("completed");
      expect(first.lookupCalls.get("ner"), "entities asked once over both runs").toBe(1);
      expect(said(await transcript(cut))).toEqual(expected);
      expect((await runDebate(h.db, notStarted, runOptions().opts)).status).toBe("completed");
      expect(said(await transcript(notStarted))).toEqual(expected);
    } finally {
      vi.stubEnv("NER_PROVIDER", "rule");
      vi.stubEnv("WIKI_PROVIDER", "corpus");
      resetConfigForTests();
    }
  });
});

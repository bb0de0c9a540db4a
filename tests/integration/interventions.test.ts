import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { createUser } from "@/db/queries/users";
import * as s from "@/db/schema";
import { createPresetDebate, ensureBenchCorpus } from "@/lib/bench/protocols";
import { scriptedEmbedder } from "@/lib/bench/scripted-embedder";
import { scriptedModel } from "@/lib/bench/scripted-model";
import type { Principal } from "@/lib/auth/policy";
import { parseConfig, resetConfigForTests } from "@/lib/config";
import { subscribe } from "@/lib/debate/events";
import { submitIntervention } from "@/lib/debate/interventions/service";
import { findMethod } from "@/lib/debate/methods";
import { getProtocol, PROTOCOL_NAMES } from "@/lib/debate/protocols";
import { handBack, runDebate, type RunOptions } from "@/lib/debate/runner";
import { ruleNer } from "@/lib/tools/ner";
import { createApiToken } from "@/lib/auth/api-tokens";
import { permissionsOf } from "@/lib/auth/policy";
import { callApi } from "../helpers/api";
import { useDatabase } from "../helpers/next-request";
import { exportDebates, type ExportedDebate } from "@/lib/export/debates";
import { csvRow } from "@/lib/export/formats";
import { backend, freshDatabase } from "./test-db";

/**
 * Issue 39: a person's interventions in a running debate, per method, through the one service and
 * the engine. Each debate is cut (handed back, as a worker stopping does) after its first stored
 * step, the method's interventions are submitted, and the debate is resumed: the next turn's
 * prompt must carry the question and the added passage fenced, no later prompt may carry the
 * struck passage, the judge is told it was struck, the record says where each entered, and the
 * verdict says people intervened. ZoFia takes them only before it starts.
 */

let h: DbHandle;
let fc: Principal;
const QUESTION = "Does the 40 % include capital spending, or only running costs?";
const ADDED =
  "The council's own 2025 budget document lists capital spending of 12 million separately from running costs.";

beforeAll(async () => {
  vi.stubEnv("WIKI_PROVIDER", "corpus");
  vi.stubEnv("WIKI_CORPUS", "encyclopedia");
  resetConfigForTests();
  h = await freshDatabase();
  await ensureBenchCorpus(h.db);
  const u = await createUser(h.db, { email: "fc@x.org", passwordHash: null, roles: ["fact-checker"] });
  fc = { id: u.id, email: "fc@x.org", name: "Ada Checker", roles: ["fact-checker"] };
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

const PRESET: Record<string, string | undefined> = { proclaim: "standard-mad" };

function runOptions() {
  const model = scriptedModel("openai:gpt-4o-mini", { pStop: 0.2, verdictProb: 0.9 });
  const embedder = scriptedEmbedder();
  const rule = ruleNer();
  return {
    model,
    opts: {
      resolve: () => model.resolved,
      embedder,
      search: { config: parseConfig({}, process.cwd()).search, deps: { db: h.db, embedder } },
      lookups: {
        ner: () => rule,
        encyclopedia: () => ({
          id: "corpus" as never,
          live: false,
          label: "scripted",
          candidates: async () => [],
          summary: async () => null as never,
        }),
      },
    } satisfies RunOptions,
  };
}

const rows = (id: string) =>
  h.db
    .select()
    .from(s.debateInterventions)
    .where(eq(s.debateInterventions.debateId, id))
    .orderBy(asc(s.debateInterventions.createdAt));
const evidence = (id: string) =>
  h.db.select().from(s.debateEvidence).where(eq(s.debateEvidence.debateId, id)).orderBy(asc(s.debateEvidence.rank));
/** The last finished step (a turn cut mid-stream is run again, under its number, on resume). */
const maxSeq = async (id: string) =>
  Math.max(
    0,
    ...(
      await h.db
        .select({ seq: s.turns.seq })
        .from(s.turns)
        .where(and(eq(s.turns.debateId, id), eq(s.turns.status, "completed")))
    ).map((t) => t.seq),
  );
/**
 * The first model turn after `seq` (a step that made a model call; searches, lookups and records
 * take none) of a kind the method says takes interventions (any kind when it names none).
 */
const firstModelTurnAfter = async (id: string, seq: number, takenBy?: readonly string[]) =>
  Math.min(
    ...(
      await h.db
        .selectDistinct({ seq: s.turns.seq, kind: s.turns.kind })
        .from(s.turns)
        .innerJoin(s.llmCalls, eq(s.llmCalls.turnId, s.turns.id))
        .where(eq(s.turns.debateId, id))
    )
      .filter((t) => t.seq > seq && (!takenBy || takenBy.includes(t.kind)))
      .map((t) => t.seq),
  );

/** The first turn after `seq` in which a court heard a motion (PROClaim's `motion` step, of either trial). */
const motionTurnAfter = async (id: string, seq: number) =>
  Math.min(
    ...(await h.db.select({ seq: s.turns.seq, phase: s.turns.phase }).from(s.turns).where(eq(s.turns.debateId, id)))
      .filter((t) => t.seq > seq && /(^|:)motion$/.test(t.phase))
      .map((t) => t.seq),
  );

/** Runs until `k` steps are stored, then hands the debate back (a stopping worker). */
async function runAndCut(id: string, opts: RunOptions, k = 1) {
  let ended = 0;
  const off = subscribe(id, (e) => {
    if (e.type === "turn-end" && ++ended === k) handBack([id]);
  });
  const out = await runDebate(h.db, id, opts).finally(off);
  expect(out.status).toBe("released");
}

/** The part of a prompt inside one fence of `kind`, for every such fence. */
const fenced = (prompt: string, kind: string) =>
  [...prompt.matchAll(new RegExp(`<<${kind}-([0-9a-f]+)>>([\\s\\S]*?)<</${kind}-\\1>>`, "g"))].map((m) => m[2]!);

describe.each(PROTOCOL_NAMES)("%s: interventions", (name) => {
  it("applies each kind it takes at the next step, fenced, once, and on the record", async () => {
    const accepts = findMethod(name)?.interventions;
    expect(accepts, `${name} declares where interventions enter`).toBeDefined();
    const preset = PRESET[name] ?? Object.keys(getProtocol(name).presets)[0]!;
    const id = await createPresetDebate(h.db, name, preset);
    const run = runOptions();
    const beforeStart = accepts!.until === "start";
    if (!beforeStart) await runAndCut(id, run.opts);
    const cutAt = await maxSeq(id);
    const promptsBefore = run.model.seen.length;

    const pool = await evidence(id);
    const struck = pool.find((e) => e.text.length >= 40);
    const submit = (input: unknown) => submitIntervention(fc, id, input, h.db);
    const sent: string[] = [];
    if (accepts!.kinds.includes("ask")) {
      const r = await submit({ kind: "ask", question: QUESTION });
      expect(r.ok, JSON.stringify(r)).toBe(true);
      sent.push("ask");
    }
    if (accepts!.kinds.includes("add_evidence")) {
      const r = await submit({
        kind: "add_evidence",
        source: { from: "text", text: ADDED, title: "Council budget 2025" },
      });
      expect(r.ok, JSON.stringify(r)).toBe(true);
      sent.push("add_evidence");
    }
    if (struck && accepts!.kinds.includes("strike")) {
      const r = await submit({ kind: "strike", evidenceRank: struck.rank, reason: "anonymous blog" });
      expect(r.ok, JSON.stringify(r)).toBe(true);
      sent.push("strike");
    }
    expect(sent.length).toBeGreaterThan(0);

    expect(await runDebate(h.db, id, run.opts)).toEqual({ status: "completed" });

    const stored = await rows(id);
    const entered = await firstModelTurnAfter(id, cutAt, accepts!.takenBy);
    // A method that hears added evidence as a motion (PROClaim) records it at the hearing turn.
    const heardAt = accepts!.motions ? await motionTurnAfter(id, cutAt) : entered;
    const enteredAt = (kind: string) => (kind === "add_evidence" ? heardAt : entered);
    expect(stored.map((r) => r.kind)).toEqual(sent);
    // All entered before the first turn opened after they were sent (a motion: its hearing).
    for (const r of stored) {
      expect(r.status, `${name}: ${r.kind}`).toBe("applied");
      expect(r.beforeSeq, `${name}: ${r.kind} entered before the first new turn`).toBe(enteredAt(r.kind));
    }
    const after = run.model.seen.slice(promptsBefore).map((p) => p.user);
    if (sent.includes("ask")) {
      expect(stored.find((r) => r.kind === "ask")!.answeredBySeq).toBe(entered);
      // Carried by that one turn only, inside the debate's fence.
      const asked = after.filter((p) => p.includes(QUESTION));
      expect(asked, `${name}: prompts carrying the question`).toHaveLength(1);
      expect(
        fenced(asked[0]!, "argument").some((t) => t.includes(QUESTION)),
        `${name}: the question, fenced`,
      ).toBe(true);
    }
    if (sent.includes("add_evidence")) {
      const added = (await evidence(id)).filter((e) => e.origin === "person");
      expect(added).toHaveLength(1);
      expect(added[0]!.addedSeq).toBe(heardAt);
      expect(stored.find((r) => r.kind === "add_evidence")!.evidenceRank).toBe(added[0]!.rank);
      const carrying = after.filter((p) => p.includes(ADDED));
      expect(carrying.length, `${name}: prompts carrying the added passage`).toBeGreaterThan(0);
      for (const p of carrying)
        expect(
          fenced(p, "evidence").some((t) => t.includes(ADDED)),
          `${name}: the added passage, fenced`,
        ).toBe(true);
    }
    if (sent.includes("strike")) {
      const text = struck!.text.replace(/\s+/g, " ").trim();
      for (const p of after)
        expect(p.replace(/\s+/g, " ").includes(text), `${name}: struck passage in a later prompt`).toBe(false);
      expect(after.at(-1)).toContain("A person struck these sources");
      expect(after.at(-1)).toContain("anonymous blog");
    }
    const [v] = await h.db
      .select({ details: s.verdicts.details })
      .from(s.verdicts)
      .where(and(eq(s.verdicts.debateId, id), eq(s.verdicts.isFinal, true)));
    expect(v?.details).toMatchObject({ intervened: true, interventions: sent.length });
    // The export says so too: each intervention with the turn it entered before, and the CSV's count.
    let exported: ExportedDebate | undefined;
    for await (const d of exportDebates(h.db, {})) if (d.id === id) exported = d;
    expect(exported!.interventions.map((i) => [i.kind, i.status, i.beforeSeq])).toEqual(
      sent.map((k) => [k, "applied", enteredAt(k)]),
    );
    expect(csvRow(exported!).trimEnd().split(",").at(-1)).toBe(String(sent.length));

    // The verdict is written: nothing more is taken.
    const late = await submit({ kind: "ask", question: QUESTION });
    expect(late).toMatchObject({ ok: false, code: "finished" });
  });
});

// PROClaim hears added evidence as a motion its court may refuse (its definition's `interventions.motions`).
describe.each(["proclaim"])("%s: added evidence as a motion", (name) => {
  it("the court can refuse it: refused with its reason, on the record, and in no later prompt", async () => {
    const id = await createPresetDebate(h.db, name, PRESET[name] ?? Object.keys(getProtocol(name).presets)[0]!);
    const run = runOptions();
    // The scripted arbiter discards "Background passage" text (w 0.08): the court refuses the motion.
    const moved = "Background passage a person moved: the council publishes many documents every year.";
    const events: unknown[] = [];
    const off = subscribe(id, (e) => {
      if (e.type === "intervention") events.push(e.intervention);
    });
    const r = await submitIntervention(
      fc,
      id,
      { kind: "add_evidence", source: { from: "text", text: moved, title: "Council archive" } },
      h.db,
    );
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(await runDebate(h.db, id, run.opts).finally(off)).toEqual({ status: "completed" });

    const [row] = await rows(id);
    expect(row).toMatchObject({ kind: "add_evidence", status: "refused" });
    expect(row!.refusal).toContain("General background that does not mention this sale.");
    expect(row!.refusal).not.toContain("\n");
    expect(row!.beforeSeq).toBe(await motionTurnAfter(id, 0));
    // Viewers were told, with the reason.
    expect(events.at(-1)).toMatchObject({ status: "refused", refusal: row!.refusal });
    expect((await evidence(id)).filter((e) => e.origin === "person")).toHaveLength(0);
    // Only the court's weighing quoted it; no later prompt does.
    const prompts = run.model.seen.map((p) => p.user);
    const carrying = prompts.flatMap((p, i) => (p.includes(moved) ? [i] : []));
    expect(carrying).toHaveLength(1);
    expect(prompts[carrying[0]!]).toContain("proclaim/admissibility");
    expect(carrying[0]!).toBeLessThan(prompts.length - 1);
    const [v] = await h.db
      .select({ details: s.verdicts.details })
      .from(s.verdicts)
      .where(and(eq(s.verdicts.debateId, id), eq(s.verdicts.isFinal, true)));
    expect(v?.details).not.toHaveProperty("intervened");
  });
});

describe("refusals", () => {
  it("refuses a person without debate:control, a token without the scope, bad input and ZoFia once started", async () => {
    const id = await createPresetDebate(h.db, "radar", Object.keys(getProtocol("radar").presets)[0]!);
    const journalist: Principal = { ...fc, roles: ["journalist"] };
    expect(await submitIntervention(journalist, id, { kind: "ask", question: "Why?" }, h.db)).toMatchObject({
      ok: false,
      code: "forbidden",
    });
    const token: Principal = { ...fc, scopes: ["debate:start"] };
    const r = await submitIntervention(token, id, { kind: "ask", question: "Why?" }, h.db);
    expect(r).toMatchObject({ ok: false, code: "forbidden" });
    expect(!r.ok && r.message).toContain("debate:control");
    const bad = await submitIntervention(fc, id, { kind: "strike", evidenceRank: 99, reason: "x" }, h.db);
    expect(bad).toMatchObject({ ok: false, code: "invalid" });
    const empty = await submitIntervention(fc, id, { kind: "ask", question: "  " }, h.db);
    expect(!empty.ok && empty.message).toMatch(/question is empty.*at question/);

    const zofia = await createPresetDebate(h.db, "zofia", Object.keys(getProtocol("zofia").presets)[0]!);
    await runAndCut(zofia, runOptions().opts);
    const z = await submitIntervention(fc, zofia, { kind: "hold_verdict", hold: true }, h.db);
    expect(z).toMatchObject({ ok: false, code: "not_accepted" });
    expect(!z.ok && z.message).toContain("before the debate starts");
  });
});

describe("the API", () => {
  it("takes an intervention with debate:control (once per Idempotency-Key), lists it, and refuses others and finished debates", async () => {
    useDatabase(h);
    const token = async (email: string, roles: s.UserRole[], scopes = permissionsOf(roles)) => {
      const u = await createUser(h.db, { email, passwordHash: null, roles });
      return (await createApiToken(h.db, { id: u.id, email, name: "Api Person", roles }, { name: email, scopes }))
        .token;
    };
    const control = await token("api-fc@x.org", ["fact-checker"]);
    const startOnly = await token("api-start@x.org", ["fact-checker"], ["debate:start"]);
    const reader = await token("api-reader@x.org", ["journalist"]);
    const id = await createPresetDebate(h.db, "radar", Object.keys(getProtocol("radar").presets)[0]!);
    const path = "/api/v1/debates/{id}/interventions";
    const body = { kind: "ask", question: QUESTION };

    for (const t of [startOnly, reader]) {
      const refused = await callApi({ method: "POST", path, params: { id }, token: t, body });
      expect(refused.status).toBe(403);
    }
    const headers = { "idempotency-key": "iv-1" };
    const first = await callApi({ method: "POST", path, params: { id }, token: control, body, headers });
    expect(first.status).toBe(201);
    const again = await callApi({ method: "POST", path, params: { id }, token: control, body, headers });
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(await first.json());
    const bad = await callApi({ method: "POST", path, params: { id }, token: control, body: { kind: "ask" } });
    expect(bad.status).toBe(400);
    const list = await callApi({ method: "GET", path, params: { id }, token: reader });
    expect(list.status).toBe(200);
    const { data } = (await list.json()) as { data: Array<{ summary: string; status: string; by: string }> };
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ status: "waiting", summary: `Asked: ${QUESTION}` });
    // A person without a display name is not shown by their email.
    expect(data[0]!.by).not.toContain("@");

    expect(await runDebate(h.db, id, runOptions().opts)).toEqual({ status: "completed" });
    const late = await callApi({ method: "POST", path, params: { id }, token: control, body });
    expect(late.status).toBe(409);
    expect(((await late.json()) as { error: { message: string } }).error.message).toContain("verdict");
  });
});

describe("resume and hold (RADAR)", () => {
  const radar = () => createPresetDebate(h.db, "radar", Object.keys(getProtocol("radar").presets)[0]!);

  it("a run cut inside the turn an intervention entered gives that turn the same intervention again, and applies it once", async () => {
    const id = await radar();
    const run = runOptions();
    await runAndCut(id, run.opts);
    const cutAt = await maxSeq(id);
    await submitIntervention(fc, id, { kind: "ask", question: QUESTION }, h.db);
    await submitIntervention(
      fc,
      id,
      { kind: "add_evidence", source: { from: "text", text: ADDED, title: "Budget" } },
      h.db,
    );
    // Handed back as soon as the next turn starts: it was applied to that turn, which is not finished.
    const off = subscribe(id, (e) => {
      if (e.type === "turn-start") handBack([id]);
    });
    expect((await runDebate(h.db, id, run.opts).finally(off)).status).toBe("released");
    const mid = await rows(id);
    expect(mid.map((r) => [r.status, r.beforeSeq])).toEqual([
      ["applied", cutAt + 1],
      ["applied", cutAt + 1],
    ]);
    const seen = run.model.seen.length;
    expect(await runDebate(h.db, id, run.opts)).toEqual({ status: "completed" });
    const after = run.model.seen.slice(seen).map((p) => p.user);
    // The turn is run again with the question it was given, and no other turn gets it.
    expect(after.filter((p) => p.includes(QUESTION))).toHaveLength(1);
    expect(after[0]).toContain(QUESTION);
    expect((await evidence(id)).filter((e) => e.origin === "person")).toHaveLength(1);
    expect((await rows(id)).map((r) => r.beforeSeq)).toEqual([cutAt + 1, cutAt + 1]);
  });

  it("a held verdict waits for its release", async () => {
    const id = await radar();
    expect((await submitIntervention(fc, id, { kind: "hold_verdict", hold: true }, h.db)).ok).toBe(true);
    const running = runDebate(h.db, id, runOptions().opts);
    // Bounded wait (about 20 s at most) for the judge to reach the hold.
    let held = false;
    for (let i = 0; i < 200 && !held; i++) {
      await new Promise((r) => setTimeout(r, 100));
      held = (await rows(id))[0]!.status === "applied";
    }
    expect(held).toBe(true);
    const [d] = await h.db.select({ status: s.debates.status }).from(s.debates).where(eq(s.debates.id, id));
    expect(d!.status).toBe("running");
    const judged = await h.db
      .select({ seq: s.turns.seq })
      .from(s.turns)
      .where(and(eq(s.turns.debateId, id), eq(s.turns.kind, "judge")));
    expect(judged).toEqual([]);
    expect((await submitIntervention(fc, id, { kind: "hold_verdict", hold: false }, h.db)).ok).toBe(true);
    expect(await running).toEqual({ status: "completed" });
    const [hold, release] = await rows(id);
    expect(release!.status).toBe("applied");
    expect(release!.beforeSeq).toBe(hold!.beforeSeq);
  });
});

describe.each(PROTOCOL_NAMES)("%s: interventions resumed at every step boundary", (name) => {
  it("gives the uninterrupted transcript, and applies each intervention once, to the same turn", async () => {
    const accepts = findMethod(name)!.interventions!;
    const preset = PRESET[name] ?? Object.keys(getProtocol(name).presets)[0]!;
    /** A debate given the method's interventions: after its first step, or before it starts (ZoFia). */
    const prepared = async () => {
      const id = await createPresetDebate(h.db, name, preset);
      const run = runOptions();
      if (accepts.until !== "start") await runAndCut(id, run.opts);
      if (accepts.kinds.includes("ask")) await submitIntervention(fc, id, { kind: "ask", question: QUESTION }, h.db);
      if (accepts.kinds.includes("add_evidence"))
        await submitIntervention(
          fc,
          id,
          { kind: "add_evidence", source: { from: "text", text: ADDED, title: "B" } },
          h.db,
        );
      return { id, run, from: await maxSeq(id) };
    };
    const steps = async (id: string) =>
      (
        await h.db
          .select({ round: s.turns.round, phase: s.turns.phase, role: s.turns.role, status: s.turns.status })
          .from(s.turns)
          .where(eq(s.turns.debateId, id))
      )
        .map((t) => JSON.stringify(t))
        .sort();
    /**
     * Each intervention and whether the step it entered before is a finished model turn (not a turn
     * cut and dropped). Which step takes it is not compared: where branches run side by side
     * (Tool-MAD's agents, ZoFia's lookups) the next turn to open depends on how far each got.
     */
    const record = async (id: string) => {
      const turns = await h.db
        .selectDistinct({ seq: s.turns.seq, status: s.turns.status })
        .from(s.turns)
        .innerJoin(s.llmCalls, eq(s.llmCalls.turnId, s.turns.id))
        .where(eq(s.turns.debateId, id));
      const finished = (seq: number | null) => turns.some((t) => t.seq === seq && t.status === "completed");
      return (await rows(id)).map((r) => [r.kind, r.status, finished(r.beforeSeq)]);
    };

    const whole = await prepared();
    expect(await runDebate(h.db, whole.id, whole.run.opts)).toEqual({ status: "completed" });
    const expected = await steps(whole.id);
    const expectedRecord = await record(whole.id);
    expect(expectedRecord.every(([, status, finished]) => status === "applied" && finished)).toBe(true);
    const total = (await steps(whole.id)).length;

    for (let k = 1; whole.from + k < total; k++) {
      const { id, run } = await prepared();
      await runAndCut(id, run.opts, k);
      expect(await runDebate(h.db, id, run.opts), `${name}: resumed after ${k} more steps`).toEqual({
        status: "completed",
      });
      expect(await steps(id), `${name}: steps after a cut ${k} steps on`).toEqual(expected);
      expect(await record(id), `${name}: interventions after a cut ${k} steps on`).toEqual(expectedRecord);
      expect((await evidence(id)).filter((e) => e.origin === "person").length).toBe(
        accepts.kinds.includes("add_evidence") ? 1 : 0,
      );
    }
  });
});

describe("an intervention the debate never reached", () => {
  it("is closed as refused, saying why, in the verdict's transaction, and does not mark the verdict", async () => {
    const { closeUnreached, withInterventions } = await import("@/lib/debate/interventions/apply");
    const { listInterventions } = await import("@/db/queries/interventions");
    const id = await createPresetDebate(h.db, "radar", Object.keys(getProtocol("radar").presets)[0]!);
    const filed = await submitIntervention(fc, id, { kind: "hold_verdict", hold: true }, h.db);
    expect(filed).toMatchObject({ ok: true });
    const seen: unknown[] = [];
    const off = subscribe(id, (e) => void seen.push(e));
    const verdict = await withInterventions({ db: h.db, debateId: id }, { label: "FALSE", details: {} });
    expect(verdict.details).toEqual({});
    const tell = await h.db.transaction((tx) => closeUnreached(tx, id));
    tell();
    off();
    const [row] = await listInterventions(h.db, id);
    expect(row).toMatchObject({ status: "refused", refusal: expect.stringContaining("verdict"), beforeSeq: null });
    expect(seen).toContainEqual(
      expect.objectContaining({ type: "intervention", intervention: expect.objectContaining({ status: "refused" }) }),
    );
  });

  // PostgreSQL only: PGlite runs one transaction at a time, so there the filing cannot come in
  // while the verdict's transaction is open, and the case could not fail.
  it.skipIf(backend !== "postgres")(
    "is refused as too late when filed while the verdict is being written, never left waiting",
    async () => {
      const { closeUnreached } = await import("@/lib/debate/interventions/apply");
      const { listInterventions } = await import("@/db/queries/interventions");
      const id = await createPresetDebate(h.db, "radar", Object.keys(getProtocol("radar").presets)[0]!);
      let submitted: Promise<unknown> = Promise.resolve();
      // The verdict's transaction has updated the debate's row and not yet committed when the
      // question comes in: the service's first checks still see a running debate.
      await h.db.transaction(async (tx) => {
        await tx.update(s.debates).set({ status: "completed" }).where(eq(s.debates.id, id));
        submitted = submitIntervention(fc, id, { kind: "ask", question: QUESTION }, h.db);
        // The question is filed on another connection: wait until it stands at the debate's row
        // lock, so the sweep below runs while it waits (bounded: 100 looks, 50 ms apart).
        let waiting = 0;
        for (let i = 0; i < 100 && waiting === 0; i++) {
          const r = await h.db.execute<{ n: number }>(
            sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
          );
          waiting = Number(r.rows[0]?.n ?? 0);
          if (!waiting) await new Promise((ok) => setTimeout(ok, 50));
        }
        expect(waiting, "the question should wait at the debate's row lock").toBe(1);
        await closeUnreached(tx, id);
      });
      expect(await submitted).toMatchObject({ ok: false, code: "finished" });
      expect(await listInterventions(h.db, id)).toEqual([]);
    },
  );
});

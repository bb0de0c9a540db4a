import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { count, eq, sql } from "drizzle-orm";
import { httpRequest, Redirect, signedInAs, useDatabase } from "../helpers/next-request";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { hashPassword } from "@/lib/auth/password";
import { createSession } from "@/lib/auth/sessions";
import { resetConfigForTests } from "@/lib/config";
import { scriptedEvalResolver } from "@/lib/bench/scripted-eval";
import { installResolverFactory } from "@/lib/eval/model-override";
import { EVAL_QUEUE, PgBossExecutor } from "@/lib/eval/pgboss";
import { MAX_CLAIMS_FILE_BYTES } from "@/lib/eval/limits";
import { createEvalRun } from "@/lib/eval/run";
import { evalRunList, evalRunView } from "@/lib/eval/view";
import { createRunAction, type NewRunState } from "@/app/eval/new/actions";
import { POST as uploadClaims } from "@/app/api/eval/uploads/route";
import { backend, freshDatabase } from "./test-db";

/**
 * Evaluation runs started from the web (/eval/new), as a fact-checker's browser does it: the
 * server action (and the upload route for large files), then workers. On PostgreSQL the run must
 * reach the pg-boss queue like a CLI run; on the embedded database this process works it.
 */

let h: DbHandle;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-evalweb-"));
const tokens: Record<string, string> = {};

async function person(email: string) {
  const u = await createUser(h.db, {
    email,
    passwordHash: await hashPassword("correct horse battery"),
    roles: ["fact-checker"],
  });
  tokens[email] = (await createSession(h.db, u.id)).token;
}

beforeAll(async () => {
  h = await freshDatabase();
  if (backend === "postgres") await h.db.execute(sql`drop schema if exists pgboss cascade`);
  useDatabase(h);
  vi.stubEnv("DATA_DIR", dataDir);
  // A model the configuration names; no call reaches it: workers here answer with scripted models.
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_BASE_URL", "http://127.0.0.1:9/v1");
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_MODEL", "lab-model");
  vi.stubEnv("DEFAULT_MODEL", "openai-compatible:lab");
  // As on a server: the queue connects to the database the configuration names.
  if (backend === "postgres") vi.stubEnv("DATABASE_URL", process.env.TEST_DATABASE_URL!);
  resetConfigForTests();
  installResolverFactory(scriptedEvalResolver());
  await person("checker@x.org");
  await person("busy@x.org");
  await person("big@x.org");
});
afterAll(async () => {
  // Runs this process hosts in the background stop taking claims before the database closes.
  await h?.db.update(s.evalRuns).set({ status: "cancelled" });
  await new Promise((r) => setTimeout(r, 1500));
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const LABELS = ["TRUE", "HALF-TRUE", "FALSE"] as const;
const CLAIMS = Array.from({ length: 3 }, (_, i) => ({
  id: `o${i}`,
  claim: `Orphaned claim ${i}.`,
  label: LABELS[i % 3],
  gold_evidence: [{ id: "g", text: `Gold passage ${i}.` }],
}));
const claimsJsonl = (n: number, pad = 0) =>
  Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      id: `c${i}`,
      claim: `Claim ${i} about the medal auction.`,
      label: LABELS[i % 3],
      gold_evidence: [{ id: "g", text: `Gold passage ${i}. ${"x".repeat(pad)}` }],
    }),
  ).join("\n") + "\n";

function runForm(values: Record<string, string>, file?: { name: string; text: string }) {
  const f = new FormData();
  for (const [k, v] of Object.entries({
    evidence: "gold",
    variant: "expertise",
    earlyStopping: "on",
    seed: "1",
    ...values,
  }))
    f.set(k, v);
  if (file) f.set("claims", new File([file.text], file.name));
  return f;
}

/** The action's outcome: the run it redirected to, or the error it showed. */
async function submit(form: FormData): Promise<{ runId?: string; error?: string }> {
  let state: NewRunState;
  try {
    state = await createRunAction({}, form);
  } catch (e) {
    if (e instanceof Redirect) return { runId: e.url.replace(/^\/eval\//, "") };
    throw e;
  }
  return { error: state.error };
}

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const runCount = async () => (await h.db.select({ n: count() }).from(s.evalRuns))[0]!.n;
const runStatus = async (id: string) =>
  (await h.db.select({ status: s.evalRuns.status }).from(s.evalRuns).where(eq(s.evalRuns.id, id)))[0]?.status;

let webRunId: string;

describe("an evaluation run started from the web", () => {
  it("is queued like a CLI run, and a worker completes it", async () => {
    signedInAs(tokens["checker@x.org"]!);
    const { runId, error } = await submit(
      runForm({ name: "from the web" }, { name: "web-claims.jsonl", text: claimsJsonl(6) }),
    );
    expect(error).toBeUndefined();
    webRunId = runId!;
    if (backend === "postgres") {
      // One pg-boss job per claim, as `npx counterpoint eval --detach` makes; before the fix there were none.
      const jobs = await h.db.execute<{ n: number }>(
        sql`select count(*)::int as n from pgboss.job where name = ${EVAL_QUEUE} and data->>'runId' = ${webRunId}`,
      );
      expect(Number(jobs.rows[0]!.n)).toBe(6);
      const worker = new PgBossExecutor(h.db, process.env.TEST_DATABASE_URL!, { pollingIntervalSeconds: 0.5 });
      try {
        await worker.work({ concurrency: 2, runId: webRunId, untilRunDone: true, resolverFor: scriptedEvalResolver() });
      } finally {
        await worker.close();
      }
    }
    // On the embedded database the server process works the run itself.
    await until("the run to complete", async () => (await runStatus(webRunId)) === "completed");
    const items = await h.db
      .select({ status: s.evalItems.status })
      .from(s.evalItems)
      .where(eq(s.evalItems.runId, webRunId));
    expect(items.map((i) => i.status)).toEqual(Array(6).fill("done"));
  });

  it("shows the same accuracy and macro-F1 on the run list as on the run's page", async () => {
    const row = (await evalRunList(h.db)).find((r) => r.id === webRunId)!;
    const page = (await evalRunView(h.db, webRunId, { resamples: 50 }))!.report.metrics;
    expect(page.accuracy.value).not.toBeNull();
    expect(row.accuracy).toBe(page.accuracy.value);
    expect(row.macro_f1).toBe(page.macro_f1.value);
    expect(row.n).toBe(page.n);
  });

  it("accepts a claims file larger than a server action body through the upload route", async () => {
    signedInAs(tokens["big@x.org"]!);
    const text = claimsJsonl(2000, 800);
    expect(Buffer.byteLength(text)).toBeGreaterThan(1_600_000);
    const res = await uploadClaims(
      httpRequest("/api/eval/uploads?filename=big-claims.jsonl", {
        method: "POST",
        body: text,
        headers: { "content-length": String(Buffer.byteLength(text)) },
      }),
    );
    expect(res.status).toBe(201);
    const { upload } = (await res.json()) as { upload: string };
    const { runId, error } = await submit(runForm({ upload, limit: "3" }));
    expect(error).toBeUndefined();
    const items = await h.db.select({ n: count() }).from(s.evalItems).where(eq(s.evalItems.runId, runId!));
    expect(items[0]!.n).toBe(3);
    // The upload is read once: naming it again says so instead of finding another file.
    expect((await submit(runForm({ upload, limit: "3" }))).error).toMatch(/uploaded claims file is gone/);
  });

  it("refuses a file past the stated limit, and another person's upload", async () => {
    signedInAs(tokens["big@x.org"]!);
    const over = await uploadClaims(
      httpRequest("/api/eval/uploads?filename=huge.jsonl", {
        method: "POST",
        body: "{}\n",
        headers: { "content-length": String(MAX_CLAIMS_FILE_BYTES + 1) },
      }),
    );
    expect(over.status).toBe(413);
    expect(((await over.json()) as { error: string }).error).toMatch(
      /huge\.jsonl is larger than the 50 MiB limit for claims files/,
    );
    const mine = (await (
      await uploadClaims(httpRequest("/api/eval/uploads?filename=mine.jsonl", { method: "POST", body: claimsJsonl(2) }))
    ).json()) as { upload: string };
    signedInAs(tokens["checker@x.org"]!);
    expect((await submit(runForm({ upload: mine.upload }))).error).toMatch(/uploaded claims file is gone/);
  });

  it("a refused run comes back with everything entered, the refusal beside the field it concerns", async () => {
    signedInAs(tokens["checker@x.org"]!);
    const before = await runCount();
    const bad = JSON.stringify({
      id: "b1",
      claim: "The mayor cut the budget.",
      label: "FALSE",
      gold_evidence: ["The council raised it."],
    });
    const f = runForm(
      { name: "Tuesday's run", dataset: "mine", limit: "2", budgetUsd: "0.5" },
      { name: "bad.jsonl", text: `${bad}\n` },
    );
    f.append("protocols", "radar");
    f.append("protocols", "tool-mad");
    const state = await createRunAction({}, f);
    expect(state.field).toBe("claims");
    expect(state.error).toMatch(
      /^bad\.jsonl:1: gold_evidence: passage 1 is not an object: write each passage as an object with its text/,
    );
    expect(state.values).toMatchObject({
      name: "Tuesday's run",
      dataset: "mine",
      limit: "2",
      budgetUsd: "0.5",
      evidence: "gold",
      seed: "1",
    });
    expect(state.lists?.protocols).toEqual(["radar", "tool-mad"]);
    expect(state.files).toEqual({ claims: "bad.jsonl" });
    // A number that is not one is named beside its own field, with the rest kept.
    const typo = await createRunAction(
      {},
      runForm({ name: "kept", limit: "ten" }, { name: "ok.jsonl", text: claimsJsonl(2) }),
    );
    expect(typo).toMatchObject({ field: "limit", values: { name: "kept", limit: "ten" }, lists: { protocols: [] } });
    expect(typo.error).toMatch(/Limit \(claims\): "ten" is not a number/);
    expect(await runCount()).toBe(before);
  });

  it("refuses a run larger than the web allows, with what to do, and stores nothing", async () => {
    vi.stubEnv("EVAL_WEB_MAX_CLAIMS", "5");
    resetConfigForTests();
    try {
      signedInAs(tokens["big@x.org"]!);
      const before = await runCount();
      const { error } = await submit(runForm({}, { name: "six.jsonl", text: claimsJsonl(6) }));
      expect(error).toMatch(/This run would start 6 debates; a run started from the web may have at most 5 claims/);
      expect(error).toMatch(/EVAL_WEB_MAX_CLAIMS/);
      expect(await runCount()).toBe(before);
      // Within the limit once sampled down.
      expect((await submit(runForm({ limit: "5" }, { name: "six.jsonl", text: claimsJsonl(6) }))).runId).toBeTruthy();
    } finally {
      vi.unstubAllEnvs();
      vi.stubEnv("DATA_DIR", dataDir);
      vi.stubEnv("OPENAI_COMPATIBLE_LAB_BASE_URL", "http://127.0.0.1:9/v1");
      vi.stubEnv("OPENAI_COMPATIBLE_LAB_MODEL", "lab-model");
      vi.stubEnv("DEFAULT_MODEL", "openai-compatible:lab");
      if (backend === "postgres") vi.stubEnv("DATABASE_URL", process.env.TEST_DATABASE_URL!);
      resetConfigForTests();
    }
  });

  it("counts runs per person against the web run limit", async () => {
    vi.stubEnv("EVAL_WEB_RUN_LIMIT", "2/hour");
    resetConfigForTests();
    signedInAs(tokens["busy@x.org"]!);
    for (let i = 0; i < 2; i++)
      expect((await submit(runForm({}, { name: "two.jsonl", text: claimsJsonl(2) }))).runId).toBeTruthy();
    const before = await runCount();
    const { error } = await submit(runForm({}, { name: "two.jsonl", text: claimsJsonl(2) }));
    expect(error).toMatch(/You have started 2 evaluation runs in this period \(limit 2\/hour\)/);
    expect(await runCount()).toBe(before);
    // Someone else's count is their own.
    signedInAs(tokens["checker@x.org"]!);
    expect((await submit(runForm({}, { name: "two.jsonl", text: claimsJsonl(2) }))).runId).toBeTruthy();
  });

  it.skipIf(backend !== "postgres")("has workers take a run whose claims never reached the queue", async () => {
    // As runs made on /eval/new before it queued them: items pending, no pg-boss job.
    const { runId } = await createEvalRun(h.db, {
      dataset: "orphans",
      claims: CLAIMS,
      evidence: { mode: "gold" },
      protocol: "radar",
      config: {},
      models: {},
      executor: "pg-boss",
    });
    await h.db.execute(sql`update eval_items set created_at = now() - interval '1 hour' where run_id = ${runId}`);
    const worker = new PgBossExecutor(h.db, process.env.TEST_DATABASE_URL!, { pollingIntervalSeconds: 0.5 });
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), 45_000);
    try {
      await worker.work({
        concurrency: 2,
        runId,
        untilRunDone: true,
        signal: stop.signal,
        resolverFor: scriptedEvalResolver(),
      });
    } finally {
      clearTimeout(timer);
      await worker.close();
    }
    expect(await runStatus(runId)).toBe("completed");
  });
});

describe("a claims file the web cannot read right", () => {
  it("is refused with the command line's words, naming the labels and the line, and nothing is stored", async () => {
    signedInAs(tokens["checker@x.org"]!);
    const before = await runCount();
    const typo = [0, 1, 2]
      .map((i) =>
        JSON.stringify({
          id: i,
          claim: `Claim ${i}.`,
          label: i === 2 ? "TURE" : "TRUE",
          gold_evidence: [{ text: "Gold." }],
        }),
      )
      .join("\n");
    const t = await submit(runForm({}, { name: "typo.jsonl", text: `${typo}\n` }));
    expect(t.error).toMatch(
      /^Not started: 1 claim of 3 would go unscored by RADAR: the gold label "TURE" \(1\) has no reading in its labels \(TRUE \/ HALF-TRUE \/ FALSE\)\. .*dataset validate/,
    );
    const blank = await submit(
      runForm({}, { name: "blank.jsonl", text: `${JSON.stringify({ id: "a", claim: "   ", label: "TRUE" })}\n` }),
    );
    expect(blank.error).toMatch(/^blank\.jsonl:1: claim: blank claim/);
    expect(await runCount()).toBe(before);
  });
});

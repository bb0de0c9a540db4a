import { Redirect, signedInAs, useDatabase } from "../helpers/next-request";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { createApiToken } from "@/lib/auth/api-tokens";
import { permissionsOf } from "@/lib/auth/policy";
import { createSession } from "@/lib/auth/sessions";
import { resetConfigForTests } from "@/lib/config";
import { startDebateAction } from "@/app/debates/actions";
import { startComparisonAction } from "@/app/compare/actions";
import { startClaimsAction } from "@/app/check-text/actions";
import { buildProgram } from "@/lib/cli/program";
import { claimLengthError } from "@/lib/debate/claim-length";
import { ingestRecords } from "@/lib/corpus/ingest";
import { callApi } from "../helpers/api";
import { EARLIER, PARAPHRASE, seedEarlierCheck } from "../helpers/earlier-check";
import { backend, freshDatabase } from "./test-db";

/*
 * Every way to start debates goes through one start service (lib/debate/start-service.ts): the
 * debate form, POST /api/v1/debates, `counterpoint debate`, the comparison form, POST
 * /api/v1/comparisons, `counterpoint debate --protocols`, /check-text's batch and `counterpoint
 * eval` (a batch of its own: a claim it refuses is left out of the run) refuse and accept the
 * same requests with the same words, and nothing is stored or counted on a refusal.
 * Debates are stored but not run: the queue's start is a recorder (no model is called).
 */

const started: string[] = [];
vi.mock("@/lib/debate/queue", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/debate/queue")>();
  return { ...real, startOrEnqueue: async (_h: unknown, id: string) => void started.push(id) };
});
// The CLI runs a foreground debate itself; here it returns at once, as a failed run would.
vi.mock("@/lib/debate/runner", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/debate/runner")>();
  return { ...real, runDebate: async () => ({ status: "failed", error: "not run in this test" }) };
});

let h: DbHandle;
let apiToken = "";
let goldFile = "";
let session = "";
const FRESH = "The city council of Leeds spent 12 million pounds on cycle lanes last spring.";
const GOLD = "The tower was 312 metres tall when it opened in 1889.\n\nAn antenna added in 2022 made it 330 metres.";
const LONG = `The council said that ${"the budget grew again and again, ".repeat(70)}every year.`;

const counts = async () => ({
  claims: (await h.db.select().from(s.claims)).length,
  debates: (await h.db.select().from(s.debates)).length,
  // The start limit's count (API tokens have a limit of their own, counted per request).
  counted: (await h.db.select().from(s.rateLimits))
    .filter((r) => r.key.startsWith("debate-start:"))
    .reduce((a, r) => a + r.count, 0),
});

function formOf(values: Record<string, string>, extra: Array<[string, string]> = []) {
  const f = new FormData();
  for (const [k, v] of Object.entries(values)) f.set(k, v);
  for (const [k, v] of extra) f.append(k, v);
  return f;
}

/** `counterpoint <args>` in this process, on this database: what it printed, or the error it stopped with. */
async function cli(args: string[]): Promise<{ out: string; error?: Error }> {
  let out = "";
  const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  try {
    await buildProgram().parseAsync(args, { from: "user" });
    return { out };
  } catch (e) {
    return { out, error: e as Error };
  } finally {
    write.mockRestore();
  }
}

const api = (path: "/api/v1/debates" | "/api/v1/comparisons", body: unknown) =>
  callApi({ method: "POST", path, token: apiToken, body });

beforeAll(async () => {
  vi.stubEnv("DEFAULT_MODEL", "openai-compatible:lab");
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_BASE_URL", "http://127.0.0.1:9/v1");
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_MODEL", "lab-model");
  vi.stubEnv("ROLE_MODELS", "");
  vi.stubEnv("WEB_SEARCH_PROVIDER", "");
  vi.stubEnv("TAVILY_API_KEY", "");
  vi.stubEnv("DEBATE_RATE_LIMIT", "6/day");
  vi.stubEnv("API_TOKEN_RATE_LIMIT", "1000/day");
  if (backend === "postgres") vi.stubEnv("DATABASE_URL", process.env.TEST_DATABASE_URL!);
  resetConfigForTests();
  h = await freshDatabase();
  useDatabase(h);
  goldFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cp-start-")), "gold.txt");
  fs.writeFileSync(goldFile, GOLD);
  await ingestRecords(
    h.db,
    [GOLD, "Leeds built cycle lanes in 2023 for 12 million pounds."].map((text, i) => ({
      kind: "document" as const,
      document: { id: `n${i}`, title: `News ${i}`, text },
    })),
    { corpus: "news", source: "t", kind: "records" },
  );
  const u = await createUser(h.db, { email: "checker@x.org", passwordHash: null, roles: ["fact-checker"] });
  session = (await createSession(h.db, u.id)).token;
  apiToken = (
    await createApiToken(
      h.db,
      { id: u.id, email: u.email, name: null, roles: ["fact-checker"] },
      { name: "t", scopes: permissionsOf(["fact-checker"]) },
    )
  ).token;
  await seedEarlierCheck(h.db);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

describe(`one start service behind every entry point (${backend})`, () => {
  const debateForm = (claim: string) =>
    formOf({ claim, protocol: "radar", variant: "single", evidenceMode: "gold", goldEvidence: GOLD });
  const compareForm = (claim: string) =>
    formOf({ claim, corpus: "news" }, [
      ["method", "radar"],
      ["method", "proclaim"],
    ]);
  const compareBody = (claim: string) => ({
    claim,
    corpus: "news",
    methods: [{ method: "radar" }, { method: "proclaim" }],
  });
  const cliCompare = (claim: string) => cli(["debate", claim, "--corpus", "news", "--protocols", "radar,proclaim"]);
  const cliDebate = (claim: string, ...more: string[]) =>
    cli(["debate", claim, "--gold-file", goldFile, "--variant", "single", ...more]);

  it("refuses a claim over the method's length limit with the same words everywhere, storing and counting nothing", async () => {
    signedInAs(session);
    const words = claimLengthError(LONG, 2000)!;
    const before = await counts();
    expect((await startDebateAction({}, debateForm(LONG))).error).toBe(words);
    const fromApi = await api("/api/v1/debates", { claim: LONG, method: "radar", evidence: GOLD });
    expect(fromApi.status).toBe(400);
    expect(((await fromApi.json()) as { error: { message: string } }).error.message).toBe(words);
    expect((await cliDebate(LONG)).error?.message).toBe(`claim: ${words}`);
    expect((await startComparisonAction({}, compareForm(LONG))).error).toContain(words);
    const cmp = await api("/api/v1/comparisons", compareBody(LONG));
    expect(cmp.status).toBe(400);
    expect(((await cmp.json()) as { error: { message: string } }).error.message).toContain(words);
    expect((await cliCompare(LONG)).error?.message).toContain(words);
    expect(await counts()).toEqual(before);
  });

  it("answers a claim checked before with the earlier check everywhere, the comparisons included, and starts nothing", async () => {
    signedInAs(session);
    const before = await counts();
    expect((await startDebateAction({}, debateForm(PARAPHRASE))).match?.matches).toHaveLength(1);
    expect((await startComparisonAction({}, compareForm(PARAPHRASE))).match?.matches).toHaveLength(1);
    const one = await api("/api/v1/debates", { claim: PARAPHRASE, method: "radar", evidence: GOLD });
    expect([one.status, ((await one.json()) as { error: { code: string } }).error.code]).toEqual([
      409,
      "claim_matched",
    ]);
    // Comparisons through the API were stored without matching before the one start service.
    const cmp = await api("/api/v1/comparisons", compareBody(PARAPHRASE));
    expect([cmp.status, ((await cmp.json()) as { error: { code: string } }).error.code]).toEqual([
      409,
      "claim_matched",
    ]);
    const fromCli = await cliDebate(PARAPHRASE);
    expect(fromCli.error?.message).toMatch(/nothing was started/);
    expect(fromCli.out).toContain(EARLIER);
    expect((await cliCompare(PARAPHRASE)).error?.message).toMatch(/nothing was started/);
    const batch = await startClaimsAction(
      {},
      formOf({ claim_0: PARAPHRASE, protocol: "radar", variant: "single", evidenceMode: "gold", goldEvidence: GOLD }, [
        ["pick", "0"],
      ]),
    );
    expect(batch.matched?.map((m) => m.claim)).toEqual([PARAPHRASE]);
    expect(await counts()).toEqual(before);
  });

  it("counts every web start against one limit, all or none, while the command line is not counted", async () => {
    signedInAs(session);
    // 6 a day: one debate from the form, one from the API, a comparison of two, then a batch of two.
    await expect(startDebateAction({}, debateForm(FRESH))).rejects.toBeInstanceOf(Redirect);
    expect((await api("/api/v1/debates", { claim: FRESH, method: "radar", evidence: GOLD })).status).toBe(201);
    await expect(startComparisonAction({}, compareForm(FRESH))).rejects.toBeInstanceOf(Redirect);
    const batchForm = formOf(
      {
        claim_0: FRESH,
        claim_1: "Leeds opened four new libraries in 2023.",
        claim_2: "Leeds planted ten thousand trees in 2022.",
        protocol: "radar",
        variant: "single",
        evidenceMode: "gold",
        goldEvidence: GOLD,
      },
      [
        ["pick", "0"],
        ["pick", "1"],
        ["pick", "2"],
      ],
    );
    // Three would pass the limit: none starts, nothing is counted.
    let before = await counts();
    const refused = await startClaimsAction({}, batchForm);
    expect(refused.error).toMatch(/Checking 3 claims starts 3 debates, and you have 2 of 6 left/);
    expect(await counts()).toEqual(before);
    batchForm.delete("pick");
    batchForm.append("pick", "1");
    batchForm.append("pick", "2");
    expect((await startClaimsAction({}, batchForm)).started).toHaveLength(2);
    before = await counts();
    expect(before.counted).toBe(6);
    const cmp = await api("/api/v1/comparisons", compareBody(FRESH));
    expect(cmp.status).toBe(429);
    expect(((await cmp.json()) as { error: { message: string } }).error.message).toMatch(/has 0 of 6 left/);
    expect((await startComparisonAction({}, compareForm(FRESH))).error).toMatch(/you have 0 of 6 left/);
    expect((await api("/api/v1/debates", { claim: FRESH, method: "radar", evidence: GOLD })).status).toBe(429);
    expect(await counts()).toEqual(before);
    // The command line holds the database already: it starts without counting.
    const fromCli = await cliDebate(FRESH, "--json");
    expect(fromCli.error).toBeUndefined();
    const after = await counts();
    expect(after.debates).toBe(before.debates + 1);
    expect(after.counted).toBe(before.counted);
  });

  it("starts `counterpoint eval`'s debates through the same service: a too-long claim is left out in the same words, and the operator is not counted", async () => {
    // Runs after the test above, so the day's limit is spent: the command line's runs start anyway.
    const claims = path.join(path.dirname(goldFile), "claims.jsonl");
    const line = (id: string, claim: string) =>
      JSON.stringify({ id, claim, label: "FALSE", gold_evidence: [{ id: "g1", text: GOLD }] });
    fs.writeFileSync(claims, `${line("fine", "Leeds closed two bridges in 2021.")}\n${line("long", LONG)}\n`);
    const before = await counts();
    const r = await cli(["eval", "--claims", claims, "--evidence", "gold", "--variant", "single", "--detach", "--yes"]);
    expect(r.error).toBeUndefined();
    const [run] = await h.db.select().from(s.evalRuns);
    expect((run!.config as { skipped?: unknown }).skipped).toEqual([
      { id: "long", reason: claimLengthError(LONG, 2000) },
    ]);
    const after = await counts();
    expect(after.debates).toBe(before.debates + 1);
    expect(after.counted).toBe(before.counted);
  });
});

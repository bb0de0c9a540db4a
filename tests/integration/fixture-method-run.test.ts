import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { createApiToken } from "@/lib/auth/api-tokens";
import { permissionsOf } from "@/lib/auth/policy";
import { scriptedModel } from "@/lib/bench/scripted-model";
import { resetConfigForTests } from "@/lib/config";
import { runDebate } from "@/lib/debate/runner";
import { buildProgram } from "@/lib/cli/program";
import { exportDebates } from "@/lib/export/debates";
import { serialise } from "@/lib/export/formats";
import { installFixtureMethods } from "../fixtures/methods/install";
import { callApi } from "../helpers/api";
import { useDatabase } from "../helpers/next-request";
import { backend, freshDatabase } from "./test-db";

/*
 * The fifth method, defined as a built-in one is (tests/fixtures/methods/verity: a folder, plus one
 * line in tests/fixtures/methods/methods.json from which gen:methods writes the registry barrels),
 * runs end to end: started through the API and the one start service, run by the real runner with
 * a stand-in model to a verdict, then read back through the API and an export.
 */

installFixtureMethods();

const started: string[] = [];
vi.mock("@/lib/debate/queue", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/debate/queue")>();
  return { ...real, startOrEnqueue: async (_h: unknown, id: string) => void started.push(id) };
});

const CLAIM = "The city council of Leeds spent 40 million pounds on cycle lanes last spring.";
let h: DbHandle;
let token = "";

/** A model that argues, then judges NO: the answer the test method's protocol parses. */
function judgeSaysNo() {
  const base = scriptedModel("openai:gpt-4o-mini").resolved;
  const model = new MockLanguageModelV3({
    doStream: async (options) => {
      const system = JSON.stringify(options.prompt[0]);
      const text = system.includes("Judge.")
        ? "[REASON]: The budget lists 12 million, not 40.\n[ANSWER]: NO"
        : "The figure in the claim is three times the budget line.";
      const parts: LanguageModelV3StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: text },
        { type: "text-end", id: "t" },
        {
          type: "finish",
          finishReason: { unified: "stop", raw: "stop" },
          usage: {
            inputTokens: { total: 20, noCache: 20, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 10, text: 10, reasoning: 0 },
          },
        },
      ];
      return { stream: simulateReadableStream({ chunks: parts }) };
    },
  });
  return { ...base, model, scoring: "none" as const };
}

beforeAll(async () => {
  // A model id for every role; the run itself gets the stand-in model below (nothing is called).
  vi.stubEnv("DEFAULT_MODEL", "openai-compatible:scripted");
  vi.stubEnv("OPENAI_COMPATIBLE_SCRIPTED_BASE_URL", "http://127.0.0.1:9/v1");
  vi.stubEnv("OPENAI_COMPATIBLE_SCRIPTED_MODEL", "scripted-debater");
  vi.stubEnv("ROLE_MODELS", "");
  vi.stubEnv("DEBATE_RATE_LIMIT", "50/day");
  vi.stubEnv("API_TOKEN_RATE_LIMIT", "1000/day");
  if (backend === "postgres") vi.stubEnv("DATABASE_URL", process.env.TEST_DATABASE_URL!);
  resetConfigForTests();
  h = await freshDatabase();
  useDatabase(h);
  const roles: s.UserRole[] = ["admin", "fact-checker"];
  const u = await createUser(h.db, { email: "desk@x.org", passwordHash: null, roles });
  token = (
    await createApiToken(
      h.db,
      { id: u.id, email: u.email, name: null, roles },
      { name: "desk", scopes: permissionsOf(roles) },
    )
  ).token;
});

afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

describe("a method that is a folder and one line in a list", () => {
  it("is listed by GET /api/v1/methods, runs through the start service and the runner to a verdict, and reads back through the API and an export", async () => {
    const listed = await callApi({ method: "GET", path: "/api/v1/methods", token });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(await listed.json())).toContain('"verity"');

    // The CLI's list is the API's, read from the same registries.
    let printed = "";
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      printed += String(chunk);
      return true;
    });
    try {
      await buildProgram().parseAsync(["methods"], { from: "user" });
    } finally {
      write.mockRestore();
    }
    expect(printed).toMatch(/^verity: Verity/m);
    expect(printed).toContain("presets: verity-quick");

    const res = await callApi({
      method: "POST",
      path: "/api/v1/debates",
      token,
      body: {
        claim: CLAIM,
        method: "verity",
        preset: "verity-quick",
        evidence: "The 2025 budget lists 12 million pounds for cycle lanes.",
      },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(started).toEqual([id]);

    const model = judgeSaysNo();
    const outcome = await runDebate(h.db, id, { resolve: () => model });
    expect(outcome.status).toBe("completed");

    const read = await callApi({ method: "GET", path: "/api/v1/debates/{id}", params: { id }, token });
    expect(read.status).toBe(200);
    const body = JSON.stringify(await read.json());
    expect(body).toContain('"verity"');
    expect(body).toContain('"NO"');
    expect(body).toContain("The budget lists 12 million, not 40.");

    let out = "";
    for await (const chunk of serialise(exportDebates(h.db), "jsonl", { name: "Desk" }, "https://x.example.org"))
      out += chunk;
    const row = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((r) => JSON.stringify(r).includes(id));
    expect(row, out).toBeDefined();
    expect(JSON.stringify(row)).toContain('"FALSE"');
  });
});

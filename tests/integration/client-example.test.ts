import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { createApiToken } from "@/lib/auth/api-tokens";
import { PRODUCT_LABELS } from "@/lib/debate/methods";
import { checkClaim } from "@/client/example";
import { createCounterpointClient } from "@/client/counterpoint-api";
import { serveApiOnLoopback } from "../helpers/api-server";
import { backend } from "./test-db";
import { closeScriptedApp, openScriptedDatabase, startScriptedModel } from "../helpers/scripted-app";

/*
 * The example of docs/api-and-webhooks.md, run as an integrator would: client/example.ts (the file
 * the doc shows, word for word) with the generated client (openapi-fetch) and the `eventsource`
 * package, over HTTP on 127.0.0.1 to the API, whose debate runs on a scripted model (an
 * OpenAI-compatible server on 127.0.0.1, e2e/fake-openai.mjs).
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
let h: DbHandle;
let fake: ChildProcess;
let api: { url: string; close(): Promise<void> };
let token = "";
/** A newsroom system that also stops and resumes what it started. */
let control = "";

beforeAll(async () => {
  fake = await startScriptedModel({ delayMs: 2 });
  h = await openScriptedDatabase();
  const u = await createUser(h.db, { email: "cms@x.org", passwordHash: null, roles: ["fact-checker"] });
  token = (
    await createApiToken(
      h.db,
      { id: u.id, email: "cms@x.org", name: null, roles: ["fact-checker"] },
      { name: "newsroom CMS", scopes: ["debate:start"] },
    )
  ).token;
  control = (
    await createApiToken(
      h.db,
      { id: u.id, email: "cms@x.org", name: null, roles: ["fact-checker"] },
      { name: "newsroom dashboard", scopes: ["debate:start", "debate:control", "corpus:write"] },
    )
  ).token;
  api = await serveApiOnLoopback();
});

/** Reads a debate through the client until `done` says so (bounded: 60 s). */
async function waitFor(id: string, done: (status: string) => boolean) {
  const client = createCounterpointClient(api.url, control);
  for (let i = 0; i < 600; i++) {
    const { data } = await client.GET("/api/v1/debates/{id}", { params: { path: { id } } });
    if (data && done(data.status)) return data;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`debate ${id} never reached the awaited state`);
}

afterAll(async () => {
  await api?.close();
  await closeScriptedApp(h, fake);
});

describe(`the typed client's example (${backend})`, () => {
  it("is the code the doc shows", () => {
    const doc = readFileSync(path.join(ROOT, "docs/api-and-webhooks.md"), "utf8");
    const example = readFileSync(path.join(ROOT, "client/example.ts"), "utf8");
    expect(doc).toContain(`\`\`\`ts\n// client/example.ts\n${example}\`\`\``);
  });

  it("starts a debate, follows its events to the end and reads the verdict", async () => {
    const said: string[] = [];
    // The example's lines, not the server's own log lines ("[debates worker] ...") in this process.
    const log = vi.spyOn(console, "log").mockImplementation((m: unknown) => {
      if (typeof m === "string" && !m.startsWith("[")) said.push(m);
    });
    try {
      const verdict = await checkClaim(
        api.url,
        token,
        "Elena Marsh's charity auction raised $2.4 million for flood relief in 2019.",
        "Elena Marsh hosted a charity auction in 2019 that raised $2.4 million.",
      );
      expect(verdict).not.toBeNull();
      expect(PRODUCT_LABELS).toContain(verdict!.product);
      expect(verdict!.reason).toBeTruthy();
      // The events were followed: each finished turn was announced before the verdict was read.
      expect(said.length).toBeGreaterThan(1);
      expect(said.at(-1)).toMatch(/^judge: /);
    } finally {
      log.mockRestore();
    }
  });

  it("retries a start safely, stops and resumes it, pages the list and reads a comparison back", async () => {
    const client = createCounterpointClient(api.url, control);
    // "SLOW" makes the scripted model answer word by word, so the debate is still running when stopped.
    const body = {
      claim: "SLOW: the flood relief fund paid out 1.1 million dollars in 2020.",
      evidence: "The fund's 2020 report lists payments of 1.1 million dollars.",
      earlierChecks: "debate-anyway" as const,
    };
    const key = crypto.randomUUID();
    const first = await client.POST("/api/v1/debates", { body, params: { header: { "Idempotency-Key": key } } });
    expect(first.response.status, JSON.stringify(first.error)).toBe(201);
    const id = first.data!.id;
    // The same key and body: the first answer again, no second debate (nothing paid twice).
    const again = await client.POST("/api/v1/debates", { body, params: { header: { "Idempotency-Key": key } } });
    expect(again.data?.id).toBe(id);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    // The same key with another body is refused, in the one error shape.
    const other = await client.POST("/api/v1/debates", {
      body: { ...body, claim: `${body.claim} Another.` },
      params: { header: { "Idempotency-Key": key } },
    });
    expect(other.response.status).toBe(409);
    expect(other.error?.error.code).toBeTruthy();

    const stopped = await client.POST("/api/v1/debates/{id}/stop", { params: { path: { id } } });
    expect(stopped.response.status).toBe(202);
    await waitFor(id, (st) => !["queued", "running"].includes(st));
    const resumed = await client.POST("/api/v1/debates/{id}/resume", { params: { path: { id } } });
    expect(resumed.response.status).toBe(202);
    const done = await waitFor(id, (st) => st === "completed" || st === "failed");
    expect(done.status).toBe("completed");
    expect(PRODUCT_LABELS).toContain(done.verdict?.product);

    // The list, one debate a page, followed by its absolute `next` link: every debate once.
    const seen: string[] = [];
    let page = await client.GET("/api/v1/debates", { params: { query: { limit: 1 } } });
    for (let i = 0; i < 10 && page.data; i++) {
      seen.push(...page.data.debates.map((d) => d.id));
      const next = page.data.next;
      if (!next) break;
      expect(next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/debates\?/);
      const cursor = new URL(next).searchParams.get("cursor")!;
      page = await client.GET("/api/v1/debates", { params: { query: { limit: 1, cursor } } });
    }
    expect(seen).toContain(id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(2);

    // A corpus pushed as a CMS would (records, as an ingest job followed to its end), then a
    // comparison over it, started and read back with its members.
    const corpus = await client.POST("/api/v1/corpora", {
      body: { name: "cms" },
      params: { header: { "Idempotency-Key": crypto.randomUUID() } },
    });
    expect(corpus.response.status, JSON.stringify(corpus.error)).toBe(201);
    const pushed = await client.POST("/api/v1/corpora/{name}/documents", {
      params: { path: { name: "cms" }, header: { "Idempotency-Key": crypto.randomUUID() } },
      body: {
        documents: [
          { id: "report-2020", title: "Fund report 2020", text: "The fund paid out 1.1 million dollars in 2020." },
          { id: "audit-2021", title: "Audit", text: "The auditors confirmed payments of 1.1 million dollars." },
        ],
      },
    });
    expect(pushed.response.status, JSON.stringify(pushed.error)).toBe(202);
    let job = pushed.data!;
    for (let i = 0; i < 600 && job.status === "running"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = (await client.GET("/api/v1/ingest-jobs/{id}", { params: { path: { id: job.id } } })).data!;
    }
    expect(job.status).toBe("completed");
    const cmp = await client.POST("/api/v1/comparisons", {
      body: {
        corpus: "cms",
        claim: "The flood relief fund paid out 1.1 million dollars in 2020.",
        methods: [{ method: "radar" }, { method: "radar", preset: "radar-three-agent" }],
        earlierChecks: "debate-anyway",
      },
      params: { header: { "Idempotency-Key": crypto.randomUUID() } },
    });
    expect(cmp.response.status, JSON.stringify(cmp.error)).toBe(201);
    const read = await client.GET("/api/v1/comparisons/{id}", { params: { path: { id: cmp.data!.id } } });
    expect(read.response.status).toBe(200);
    expect(read.data!.members).toHaveLength(2);
  });
});

import { useDatabase } from "../helpers/next-request";
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { createApiToken } from "@/lib/auth/api-tokens";
import { resetConfigForTests } from "@/lib/config";
import { debateQueue, startInProcessWorker } from "@/lib/debate/queue";
import { PRODUCT_LABELS } from "@/lib/debate/methods";
import { checkClaim } from "@/client/example";
import { serveApiOnLoopback } from "../helpers/api-server";
import { backend, freshDatabase } from "./test-db";

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

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const port = await freePort();
  fake = spawn(process.execPath, [path.join(ROOT, "e2e/fake-openai.mjs")], {
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", FAKE_OPENAI_PORT: String(port), FAKE_OPENAI_DELAY_MS: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    fake.stdout!.on("data", (b: Buffer) => b.toString().includes("fake OpenAI") && resolve());
    fake.on("exit", (code) => reject(new Error(`the scripted model server exited (${code})`)));
  });
  vi.stubEnv("DEFAULT_MODEL", "openai-compatible:scripted");
  vi.stubEnv("OPENAI_COMPATIBLE_SCRIPTED_BASE_URL", `http://127.0.0.1:${port}/v1`);
  vi.stubEnv("OPENAI_COMPATIBLE_SCRIPTED_MODEL", "scripted-debater");
  vi.stubEnv("ROLE_MODELS", "");
  if (backend === "postgres") vi.stubEnv("DATABASE_URL", process.env.TEST_DATABASE_URL!);
  resetConfigForTests();
  h = await freshDatabase();
  useDatabase(h);
  // On PostgreSQL the API queues the debate; this process's worker runs it, as the app's does.
  if (backend === "postgres") startInProcessWorker(h, 2);
  const u = await createUser(h.db, { email: "cms@x.org", passwordHash: null, roles: ["fact-checker"] });
  token = (
    await createApiToken(
      h.db,
      { id: u.id, email: "cms@x.org", name: null, roles: ["fact-checker"] },
      { name: "newsroom CMS", scopes: ["debate:start"] },
    )
  ).token;
  api = await serveApiOnLoopback();
});

afterAll(async () => {
  for (let i = 0; i < 300 && h; i++) {
    const busy = await h.db
      .select({ id: s.debates.id })
      .from(s.debates)
      .where(inArray(s.debates.status, ["queued", "running"]));
    if (!busy.length) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await api?.close();
  if (backend === "postgres" && h) await debateQueue(h).close();
  fake?.kill();
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
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
});

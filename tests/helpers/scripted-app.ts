import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { inArray } from "drizzle-orm";
import { vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { resetConfigForTests } from "@/lib/config";
import { debateQueue, startInProcessWorker } from "@/lib/debate/queue";
import { backend, freshDatabase } from "../integration/test-db";
import { useDatabase } from "./next-request";

/*
 * The set-up the tests that run whole debates through an entry point share: the scripted model
 * (e2e/fake-openai.mjs, an OpenAI-compatible server on 127.0.0.1) as every role's model, a fresh
 * database the app's code reads, and on PostgreSQL this process's worker; then its tidy-up.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

/** A port on 127.0.0.1 nobody listens on now (the kernel's pick). */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts the scripted model server on `port` (a free one by default) and points the app's default
 * model at it; `delayMs` is its pause between streamed words. Resolves once it listens.
 */
export async function startScriptedModel({ delayMs = 0, port }: { delayMs?: number; port?: number } = {}) {
  const at = port ?? (await freePort());
  const fake = spawn(process.execPath, [path.join(ROOT, "e2e/fake-openai.mjs")], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "test",
      FAKE_OPENAI_PORT: String(at),
      FAKE_OPENAI_DELAY_MS: String(delayMs),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    fake.stdout!.on("data", (b: Buffer) => b.toString().includes("fake OpenAI") && resolve());
    fake.on("exit", (code) => reject(new Error(`the scripted model server exited (${code})`)));
  });
  vi.stubEnv("DEFAULT_MODEL", "openai-compatible:scripted");
  vi.stubEnv("OPENAI_COMPATIBLE_SCRIPTED_BASE_URL", `http://127.0.0.1:${at}/v1`);
  vi.stubEnv("OPENAI_COMPATIBLE_SCRIPTED_MODEL", "scripted-debater");
  vi.stubEnv("ROLE_MODELS", "");
  return fake;
}

/**
 * A fresh database for the app's code (settings read again after the test's env stubs); on
 * PostgreSQL the API queues debates, and this process's worker runs them as the app's does.
 */
export async function openScriptedDatabase(): Promise<DbHandle> {
  if (backend === "postgres") vi.stubEnv("DATABASE_URL", process.env.TEST_DATABASE_URL!);
  resetConfigForTests();
  const h = await freshDatabase();
  useDatabase(h);
  if (backend === "postgres") startInProcessWorker(h, 2);
  return h;
}

/**
 * Lets the debates the tests started finish (at most 30 s) before the database closes, then stops
 * the worker and the scripted model and puts the settings back.
 */
export async function closeScriptedApp(
  h: DbHandle | undefined,
  fake: ChildProcess | undefined,
  /** Debates left queued on purpose (no worker will take them): waiting on them would cost the full 30 s. */
  neverStarted: readonly string[] = [],
) {
  for (let i = 0; i < 300 && h; i++) {
    const busy = (
      await h.db
        .select({ id: s.debates.id, status: s.debates.status })
        .from(s.debates)
        .where(inArray(s.debates.status, ["queued", "running"]))
    ).filter((d) => !(d.status === "queued" && neverStarted.includes(d.id)));
    if (!busy.length) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (backend === "postgres" && h) await debateQueue(h).close();
  fake?.kill();
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
}

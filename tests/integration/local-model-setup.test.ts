import type { AddressInfo } from "node:net";
import { signedInAs, useDatabase } from "../helpers/next-request";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { createSession } from "@/lib/auth/sessions";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { currentModelSettings, saveModelSettings } from "@/lib/ai/model-settings";
import type { LocalModelPreset } from "@/lib/ai/local/model-file";
import { localSetupJob, localSetupState, startLocalModelSetup } from "@/lib/ai/local-model-setup";
import { setProcessGlobal } from "@/lib/process/globals";
import { localModelProgressAction, startLocalModelAction } from "@/app/welcome/actions";
import { writeLocalModelSetup } from "@/db/queries/local-model-setup";
import { settings } from "@/db/schema";
import { eq } from "drizzle-orm";
import { buildTinyGguf } from "../helpers/tiny-gguf";
import { backend, freshDatabase } from "./test-db";

/*
 * "Use a small model on this server" on /welcome: the local preset is downloaded in the background
 * from a scripted server on 127.0.0.1 (LOCAL_MODEL_BASE_URL), its progress readable while it runs,
 * its SHA-256 checked, and then the default model saved as local:<preset>, in force at once. A file
 * with the wrong checksum is refused and removed, and the settings in use stay as they were.
 */

const GGUF = buildTinyGguf({ seed: 7 });
const SHA = createHash("sha256").update(GGUF).digest("hex");
const HALF = Math.floor(GGUF.length / 2);
const ENV_KEYS = ["LOCAL_MODEL_BASE_URL", "LOCAL_MODEL_CACHE_DIR", "LOCAL_MODEL_DOWNLOAD", "LOCAL_MODEL_PATH"];
const savedEnv: Record<string, string | undefined> = {};
let h: DbHandle;
let server: http.Server;
let cacheDir: string;
const requested: string[] = [];
// The server sends the first half, then waits for the test to let the rest go.
let release: () => void = () => {};

const preset = (fileName: string, sha256: string): Record<string, LocalModelPreset> => ({
  tiny: {
    id: "tiny",
    fileName,
    // Never reached: LOCAL_MODEL_BASE_URL sends the download to the scripted server.
    url: "https://models.invalid/tiny.gguf",
    sizeBytes: GGUF.length,
    sha256,
    description: "A tiny test model",
  },
});

beforeAll(async () => {
  for (const k of ENV_KEYS) savedEnv[k] = process.env[k];
  server = http.createServer((req, res) => {
    requested.push(req.url ?? "");
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(GGUF.length) });
    res.write(GGUF.subarray(0, HALF));
    new Promise<void>((r) => (release = r)).then(() => res.end(GGUF.subarray(HALF)));
  });
  // A free port of the system's choosing: the PGlite and PostgreSQL passes run this file side by side.
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  cacheDir = mkdtempSync(path.join(os.tmpdir(), "cp-local-setup-"));
  process.env.LOCAL_MODEL_BASE_URL = `http://127.0.0.1:${port}/mirror/`;
  process.env.LOCAL_MODEL_CACHE_DIR = cacheDir;
  process.env.LOCAL_MODEL_DOWNLOAD = "true";
  delete process.env.LOCAL_MODEL_PATH;
  resetConfigForTests();
  h = await freshDatabase();
  useDatabase(h);
  setProcessGlobal("model-overlay", undefined);
  setProcessGlobal("local-model-setup", undefined);
});
afterAll(async () => {
  release();
  setProcessGlobal("model-overlay", undefined);
  setProcessGlobal("local-model-setup", undefined);
  await new Promise((r) => server?.close(r));
  await h?.close();
  for (const [k, v] of Object.entries(savedEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfigForTests();
});

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe(`the small model on this server, from /welcome (${backend})`, () => {
  it("is refused to a signed-in user who is not an admin, before anything is downloaded", async () => {
    const editor = await createUser(h.db, { email: "editor@x.org", passwordHash: null, roles: ["editor"] });
    signedInAs((await createSession(h.db, editor.id)).token);
    const answer = await startLocalModelAction();
    expect(answer.error).toBeTruthy();
    expect(answer.state).toBeUndefined();
    expect((await localModelProgressAction()).state).toBeUndefined();
    expect(await localSetupState(h.db)).toBeUndefined();
    expect(requested).toEqual([]);
  });

  it("downloads from the mirror with progress, checks the SHA-256, and makes local:<preset> the default at once", async () => {
    const admin = await createUser(h.db, { email: "admin@x.org", passwordHash: null, roles: ["admin"] });
    signedInAs((await createSession(h.db, admin.id)).token);
    // Settings saved earlier are kept; only the default model changes.
    await saveModelSettings(h.db, { webModels: ["openai-compatible:kept"] });

    const started = await startLocalModelSetup(h.db, { preset: "tiny", presets: preset("tiny.gguf", SHA) });
    expect(started.phase).toBe("downloading");
    const job = localSetupJob();
    // Another app server knows nothing of this process's download: its memory is empty.
    setProcessGlobal("local-model-setup", undefined);
    // Half-way: the page's poll, answered by that other server, sees bytes received of the total.
    const half = await until("half the file", async () => {
      const s = (await localModelProgressAction()).state;
      return s && s.received === HALF ? s : undefined;
    });
    expect(half).toMatchObject({ phase: "downloading", received: HALF, total: GGUF.length });
    // A second click there joins the running download instead of starting another.
    expect((await startLocalModelAction()).state).toMatchObject({ phase: "downloading", received: HALF });
    expect(requested).toEqual(["/mirror/tiny.gguf"]);
    release();
    await job;

    expect((await localModelProgressAction()).state).toMatchObject({
      phase: "done",
      received: GGUF.length,
      total: GGUF.length,
      sha256: SHA,
    });
    expect(requested).toEqual(["/mirror/tiny.gguf"]);
    expect(readFileSync(path.join(cacheDir, "tiny.gguf")).equals(GGUF)).toBe(true);
    const { settings } = await currentModelSettings(h.db);
    expect(settings.defaultModel).toBe("local:tiny");
    expect(settings.webModels).toEqual(["openai-compatible:kept"]);
    // In force in this process without a restart.
    expect(getConfig().models.default).toBe("local:tiny");
  });

  it("refuses a file whose checksum is wrong, removes it, says so, and keeps the settings in use", async () => {
    requested.length = 0;
    const wrong = "0".repeat(64);
    await startLocalModelSetup(h.db, { preset: "tiny", presets: preset("wrong.gguf", wrong) });
    await until("the first half", async () => ((await localSetupState(h.db))?.received === HALF ? true : undefined));
    release();
    await localSetupJob();

    const state = await localSetupState(h.db);
    expect(state?.phase).toBe("failed");
    expect(state?.error).toContain("Checksum mismatch");
    expect(state?.error).toContain(`expected ${wrong}`);
    expect(state?.error).toContain("the partial file was removed");
    expect(requested).toEqual(["/mirror/wrong.gguf"]);
    expect(readdirSync(cacheDir).filter((f) => f.startsWith("wrong"))).toEqual([]);
    expect(existsSync(path.join(cacheDir, "wrong.gguf"))).toBe(false);
    expect((await currentModelSettings(h.db)).settings.defaultModel).toBe("local:tiny");
  });

  it("shows a download whose server stopped as stopped, and a new click starts it again", async () => {
    requested.length = 0;
    // The row a server left when it died mid-download: "downloading", last written two minutes ago.
    const stopped = { preset: "tiny", description: "A tiny test model", phase: "downloading", received: HALF };
    await writeLocalModelSetup(h.db, stopped);
    await h.db
      .update(settings)
      .set({ updatedAt: new Date(Date.now() - 120_000) })
      .where(eq(settings.key, "local_model_setup"));
    const shown = (await localModelProgressAction()).state;
    expect(shown?.phase).toBe("failed");
    expect(shown?.error).toContain("Start it again");

    const again = await startLocalModelSetup(h.db, { preset: "tiny", presets: preset("again.gguf", SHA) });
    // Downloading again (how far it got by the time the answer is read depends on the machine; the
    // request below to the new file's address shows it is a new download, not the dead one's row).
    expect(again).toMatchObject({ phase: "downloading" });
    await until("its first half", async () => ((await localSetupState(h.db))?.received === HALF ? true : undefined));
    release();
    await until("the second download", async () =>
      (await localSetupState(h.db))?.phase === "done" ? true : undefined,
    );
    expect(requested).toEqual(["/mirror/again.gguf"]);
  });
});

import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/*
 * What every browser benchmark stands on: the production server (built first when sources
 * changed) on a fresh embedded database, talking to the scripted OpenAI-compatible server whose
 * every spoken token carries the time it was sent, and Debian's headless Chromium.
 */

const ROOT = process.env.COUNTERPOINT_ROOT ?? process.cwd();

/** Keeps the last lines a child printed, so a server that fails to start can say why. */
export function start(cmd: string, args: string[], env: Record<string, string>): ChildProcess & { tail: () => string } {
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const keep = (d: Buffer) => {
    lines.push(...d.toString().split("\n").filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 30));
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return Object.assign(child, { tail: () => lines.join("\n") });
}

export async function waitFor(url: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not come up within ${timeoutMs / 1000} s`);
}

/** Headless Chromium from the system, never a downloaded one. */
export async function launchChromium(executablePath: string) {
  if (!fs.existsSync(executablePath))
    throw new Error(`No Chromium at ${executablePath}: install Debian's chromium package or set CHROMIUM_PATH.`);
  const { chromium } = await import("@playwright/test");
  return chromium.launch({
    executablePath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

export type ScriptedApp = {
  base: string;
  dataDir: string;
  /**
   * Signs `page` in as an admin, whatever state the install is in: on a fresh one the first admin is
   * created through /setup with the code the server wrote (wherever set-up then lands: /welcome
   * today); on an installed one the rig's own admin account, made before the server started, signs
   * in on /signin. Checked by opening /admin, not by guessing the landing page.
   */
  createAdmin(page: import("@playwright/test").Page): Promise<void>;
  /** Stops both servers; resolves once both have exited (the ports are free again). */
  stop(): Promise<void>;
};

const BENCH_EMAIL = "bench@counterpoint.invalid";
const BENCH_PASSWORD = "bench-password-123456";

/**
 * On an installed data folder (it has users, so /setup is closed) the rig cannot know anyone's
 * password: it creates its own admin, or resets its password and role, before the server opens
 * the embedded database (PGlite allows one process at a time).
 */
async function ensureBenchAdmin(dataDir: string) {
  const { openDatabase } = await import("@/db/client");
  const users = await import("@/db/queries/users");
  const { hashPassword } = await import("@/lib/auth/password");
  const { getConfig } = await import("@/lib/config");
  // Named here, not left to the composition root: the rig also runs inside test processes that start none.
  const h = await openDatabase(
    { backend: "pglite", dataDir: path.join(dataDir, "pglite") },
    { migrationsDir: getConfig().migrationsDir },
  );
  try {
    if ((await users.countUsers(h.db)) === 0) return;
    const hash = await hashPassword(BENCH_PASSWORD);
    const found = await users.findUserByEmail(h.db, BENCH_EMAIL);
    if (!found) {
      await users.createUser(h.db, { email: BENCH_EMAIL, name: "Benchmark", passwordHash: hash, roles: ["admin"] });
      return;
    }
    await users.setPassword(h.db, found.id, hash);
    await users.setRoles(h.db, found.id, ["admin"]);
    await users.setDisabled(h.db, found.id, false);
  } finally {
    await h.close();
  }
}

/**
 * Starts the scripted model server and the app, and waits until both answer. On a fresh DATA_DIR
 * (removed on stop) unless `dataDir` names an installed one (kept, with the rig's admin added).
 */
export async function startScriptedApp(opts: {
  port: number;
  fakePort: number;
  tokenDelayMs?: number;
  healthTimeoutMs: number;
  dataDir?: string;
}): Promise<ScriptedApp> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "cp-bench-browser-"));
  if (opts.dataDir && fs.existsSync(path.join(opts.dataDir, "pglite"))) await ensureBenchAdmin(opts.dataDir);
  const fake = start(process.execPath, [path.join(ROOT, "e2e/fake-openai.mjs")], {
    FAKE_OPENAI_PORT: String(opts.fakePort),
    FAKE_OPENAI_TIMESTAMPS: "1",
    FAKE_OPENAI_DELAY_MS: String(opts.tokenDelayMs ?? 20),
  });
  const server = start(process.execPath, [path.join(ROOT, "scripts/start.mjs")], {
    PORT: String(opts.port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    DEFAULT_MODEL: "openai-compatible:scripted",
    ROLE_MODELS: "",
    OPENAI_COMPATIBLE_SCRIPTED_BASE_URL: `http://127.0.0.1:${opts.fakePort}/v1`,
    OPENAI_COMPATIBLE_SCRIPTED_MODEL: "scripted",
    WEB_SEARCH_PROVIDER: "",
    TAVILY_API_KEY: "",
    BRAVE_API_KEY: "",
  });
  const base = `http://127.0.0.1:${opts.port}`;
  const exited = (c: ChildProcess) =>
    c.exitCode !== null || c.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((r) => c.once("exit", () => r()));
  const stop = async () => {
    server.kill("SIGTERM");
    fake.kill("SIGTERM");
    await Promise.all([exited(server), exited(fake)]);
    if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor(`http://127.0.0.1:${opts.fakePort}/`, 30_000);
    await Promise.race([
      waitFor(`${base}/api/health`, opts.healthTimeoutMs),
      new Promise((_, reject) =>
        server.once("exit", (code) =>
          reject(new Error(`the app server exited (${code}) before it was ready:\n${server.tail()}`)),
        ),
      ),
    ]);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    base,
    dataDir,
    stop,
    async createAdmin(page) {
      await page.goto(`${base}/setup`);
      if (new URL(page.url()).pathname === "/setup") {
        const code = fs.readFileSync(path.join(dataDir, "setup-code"), "utf8").trim();
        await page.getByLabel("Setup code").fill(code);
        await page.getByLabel("Email").fill(BENCH_EMAIL);
        await page.getByLabel("Password", { exact: true }).fill(BENCH_PASSWORD);
        await page.getByLabel("Password again").fill(BENCH_PASSWORD);
        await page.getByRole("button", { name: "Create admin account" }).click();
        await page.waitForURL((u) => u.pathname !== "/setup");
      } else {
        await page.goto(`${base}/signin`);
        await page.getByLabel("Email").fill(BENCH_EMAIL);
        await page.getByLabel("Password", { exact: true }).fill(BENCH_PASSWORD);
        await page.getByRole("button", { name: /sign in/i }).click();
        await page.waitForURL((u) => u.pathname !== "/signin");
      }
      await page.goto(`${base}/admin`);
      if (new URL(page.url()).pathname !== "/admin")
        throw new Error(
          `the browser rig could not sign in as an admin: /admin led to ${page.url()} (the set-up or sign-in flow changed?)`,
        );
    },
  };
}

/**
 * A page script that records, for every timestamped token (⟦sent-ms⟧) the moment it first shows,
 * its latency in window.__tokenTimes. A string, not a function: tsx compiles functions with helpers
 * that do not exist in the page.
 */
export const TOKEN_CLOCK_SCRIPT = `
    const seen = new Map();
    window.__tokenTimes = seen;
    const scan = (text) => {
      if (!text) return;
      const now = Date.now();
      for (const m of text.matchAll(/\u27E6(\\d+)\u27E7/g)) if (!seen.has(m[1])) seen.set(m[1], now - Number(m[1]));
    };
    new MutationObserver((records) => {
      for (const r of records) scan(r.target.textContent);
    }).observe(document, { subtree: true, childList: true, characterData: true });
`;

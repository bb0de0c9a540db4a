import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Time from a model emitting a token to that token being visible in a browser: the production
 * server streams a debate from a scripted OpenAI-compatible server whose every token carries the
 * time it was sent; a MutationObserver in headless Chromium records when each one appears.
 * Both clocks are the local computer's.
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

function percentile(xs: number[], p: number) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export async function benchTokenToBrowser(
  opts: { port?: number; fakePort?: number; chromium?: string; tokenDelayMs?: number } = {},
) {
  const port = opts.port ?? 3297;
  const fakePort = opts.fakePort ?? 3298;
  const chromium = opts.chromium ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!fs.existsSync(chromium))
    throw new Error(`No Chromium at ${chromium}: install Debian's chromium package or set CHROMIUM_PATH.`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-bench-browser-"));
  const fake = start(process.execPath, [path.join(ROOT, "e2e/fake-openai.mjs")], {
    FAKE_OPENAI_PORT: String(fakePort),
    FAKE_OPENAI_TIMESTAMPS: "1",
    FAKE_OPENAI_DELAY_MS: String(opts.tokenDelayMs ?? 20),
  });
  const server = start(process.execPath, [path.join(ROOT, "scripts/start.mjs")], {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    DEFAULT_MODEL: "openai-compatible:scripted",
    ROLE_MODELS: "",
    OPENAI_COMPATIBLE_SCRIPTED_BASE_URL: `http://127.0.0.1:${fakePort}/v1`,
    OPENAI_COMPATIBLE_SCRIPTED_MODEL: "scripted",
  });
  const { chromium: pw } = await import("@playwright/test");
  const browser = await pw.launch({
    executablePath: chromium,
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
  try {
    await waitFor(`http://127.0.0.1:${fakePort}/`, 30_000);
    await Promise.race([
      waitFor(`http://127.0.0.1:${port}/api/health`, 600_000),
      new Promise((_, reject) =>
        server.once("exit", (code) =>
          reject(new Error(`the app server exited (${code}) before it was ready:\n${server.tail()}`)),
        ),
      ),
    ]);
    const page = await browser.newPage();
    // A string, not a function: tsx compiles functions with helpers that do not exist in the page.
    await page.addInitScript(`
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
    `);
    // A fresh install: the first admin is created on /setup with the code the server wrote.
    await page.goto(`http://127.0.0.1:${port}/setup`);
    const code = fs.readFileSync(path.join(dataDir, "setup-code"), "utf8").trim();
    await page.getByLabel("Setup code").fill(code);
    await page.getByLabel("Email").fill("bench@counterpoint.invalid");
    await page.getByLabel("Password", { exact: true }).fill("bench-password-123456");
    await page.getByLabel("Password again").fill("bench-password-123456");
    await page.getByRole("button", { name: "Create admin account" }).click();
    await page.waitForURL(/\/admin$/);
    await page.goto(`http://127.0.0.1:${port}/debates/new`);
    await page.getByLabel("Claim", { exact: true }).fill("The boxer sold his medal to help children in the 2022 war.");
    await page.getByLabel("Paste gold evidence").check();
    await page
      .getByLabel(/Evidence passages, one per paragraph/)
      .fill("The medal was auctioned in 2012.\n\nThe war began in 2022.");
    await page.getByRole("button", { name: "Start debate" }).click();
    await page.waitForURL(/\/debates\/[0-9a-f-]{36}$/);
    await page.getByTestId("verdict").waitFor({ timeout: 300_000 });
    const latencies = (await page.evaluate("[...window.__tokenTimes.values()]")) as number[];
    if (latencies.length === 0) throw new Error("no timestamped token reached the page");
    return {
      token_to_browser_ms_p50: percentile(latencies, 50),
      token_to_browser_ms_p95: percentile(latencies, 95),
      token_to_browser_samples: latencies.length,
    };
  } finally {
    await browser.close();
    server.kill("SIGTERM");
    fake.kill("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

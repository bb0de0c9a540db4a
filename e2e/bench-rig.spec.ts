import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { openDatabase } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { hashPassword } from "@/lib/auth/password";
import { launchChromium, startScriptedApp } from "@/lib/bench/browser-rig";
import { benchTokenToBrowser } from "@/lib/bench/token-latency";

/*
 * The browser rig every browser benchmark stands on (`bench debate`, `bench compare`), run once as
 * the benchmarks run it: on a fresh data folder (the first admin through /setup, wherever set-up
 * lands), and on an installed one whose admin the rig does not know. A change to the first-run or
 * sign-in flow that breaks the benchmarks fails here. Its own app server and model server, on
 * E2E_PORT + 5 and FAKE_OPENAI_PORT + 5 (multi-server.spec.ts uses E2E_PORT + 1 to + 4).
 */

const PORT = Number(process.env.E2E_PORT ?? 3210) + 5;
const FAKE_PORT = Number(process.env.FAKE_OPENAI_PORT ?? 3291) + 5;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

test.describe.configure({ mode: "serial" });

test("bench debate's browser part runs on a fresh data folder", async () => {
  test.setTimeout(300_000);
  const r = await benchTokenToBrowser({ port: PORT, fakePort: FAKE_PORT, chromium: CHROMIUM, tokenDelayMs: 2 });
  expect(r.token_to_browser_samples).toBeGreaterThan(0);
  expect(r.token_to_browser_ms_p95).toBeGreaterThanOrEqual(r.token_to_browser_ms_p50);
});

test("the rig signs in as an admin on an installed data folder whose admin it does not know", async () => {
  test.setTimeout(300_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-rig-installed-"));
  // This spec's process runs no composition root, so it names the migrations itself.
  const h = await openDatabase(
    { backend: "pglite", dataDir: path.join(dataDir, "pglite") },
    { migrationsDir: path.resolve("db/migrations") },
  );
  await createUser(h.db, {
    email: "editor@newsroom.invalid",
    name: "Editor",
    passwordHash: await hashPassword("a-password-nobody-tells-the-rig"),
    roles: ["admin"],
  });
  await h.close();
  const browser = await launchChromium(CHROMIUM);
  const app = await startScriptedApp({ port: PORT, fakePort: FAKE_PORT, healthTimeoutMs: 120_000, dataDir });
  try {
    const page = await browser.newPage();
    await app.createAdmin(page);
    expect(new URL(page.url()).pathname).toBe("/admin");
    await page.goto(`${app.base}/debates/new`);
    await expect(page.getByLabel("Claim", { exact: true })).toBeVisible();
  } finally {
    await browser.close();
    await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

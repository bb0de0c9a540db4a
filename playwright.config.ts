import fs from "node:fs";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { AUTH_DIR, USERS } from "./e2e/users";

const PORT = Number(process.env.E2E_PORT ?? 3210);
const FAKE_OPENAI_PORT = Number(process.env.FAKE_OPENAI_PORT ?? 3291);
// A fresh embedded database for every run: the app must create and migrate it at start-up.
const DATA_DIR = path.resolve(".test-data/e2e");
// The signed-in browser states of the previous run belong to accounts that no longer exist.
if (!process.env.E2E_KEEP_DATA && process.env.TEST_WORKER_INDEX === undefined)
  fs.rmSync(AUTH_DIR, { recursive: true, force: true });
// Workers load this file too, while the server is running: only the main process may wipe the data.
if (!process.env.E2E_KEEP_DATA && process.env.TEST_WORKER_INDEX === undefined)
  fs.rmSync(DATA_DIR, { recursive: true, force: true });

const browserUse = {
  ...devices["Desktop Chrome"],
  // Debian's chromium: Playwright must never download a browser here.
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  },
};

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: process.env.CI ? [["list"], ["json", { outputFile: "test-results/e2e.json" }]] : "list",
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
  },
  projects: [
    // Creates the accounts (first admin through /setup, the others by invitation) and their browser states.
    { name: "setup", testMatch: /auth\.setup\.ts/, use: { ...browserUse } },
    {
      name: "chromium",
      dependencies: ["setup"],
      testIgnore: /(server-restart|multi-server|accessibility)\.spec\.ts/,
      // Specs act as the admin unless they open a context for another role.
      use: { ...browserUse, storageState: USERS.admin.state },
    },
    // Every page of the route table through axe-core, after the other specs have made debates,
    // comparisons, runs and fact-checks, so pages that need an id have one to show.
    {
      name: "accessibility",
      dependencies: ["chromium"],
      testMatch: /accessibility\.spec\.ts/,
      use: { ...browserUse, storageState: USERS.admin.state },
    },
    // Kills and replaces the server Playwright started, so it runs after every other spec.
    {
      name: "server-restart",
      dependencies: ["accessibility"],
      testMatch: /server-restart\.spec\.ts/,
      use: { ...browserUse, storageState: USERS.admin.state },
    },
    // Two app servers and two workers of its own on PostgreSQL (E2E_POSTGRES_URL), on the production
    // build the others used; late, so its processes do not compete with the other specs.
    { name: "multi-server", dependencies: ["chromium"], testMatch: /multi-server\.spec\.ts/, use: { ...browserUse } },
  ],
  webServer: [
    {
      // A scripted OpenAI-compatible model server: the app reaches it through its real provider.
      command: "node e2e/fake-openai.mjs",
      url: `http://127.0.0.1:${FAKE_OPENAI_PORT}/`,
      reuseExistingServer: false,
      env: { FAKE_OPENAI_PORT: String(FAKE_OPENAI_PORT) },
    },
    {
      // The production server, as `npm start` runs it (builds first when sources changed).
      command: "node scripts/start.mjs",
      url: `http://127.0.0.1:${PORT}/api/health`,
      timeout: 900_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: {
        PORT: String(PORT),
        HOST: "127.0.0.1",
        // Production builds absolute links (feeds, ClaimReview) only from PUBLIC_URL (lib/net/public-url.ts).
        PUBLIC_URL: `http://127.0.0.1:${PORT}`,
        DATA_DIR,
        DATABASE_URL: "",
        DEFAULT_MODEL: "openai-compatible:scripted",
        OPENAI_COMPATIBLE_SCRIPTED_BASE_URL: `http://127.0.0.1:${FAKE_OPENAI_PORT}/v1`,
        OPENAI_COMPATIBLE_SCRIPTED_MODEL: "scripted-debater",
        ROLE_MODELS: "",
        OPENAI_API_KEY: "",
        ANTHROPIC_API_KEY: "",
        NEXT_TELEMETRY_DISABLED: "1",
        DEBATE_RATE_LIMIT: "100/hour",
        // The webhooks spec's receiver: a loopback address allowed by name, so it is accepted when
        // subscribed, and one try, so its unanswered delivery fails at once (e2e/webhooks.spec.ts).
        FETCH_ALLOW_HOSTS: "127.0.0.2",
        WEBHOOK_MAX_ATTEMPTS: "1",
      },
    },
  ],
});

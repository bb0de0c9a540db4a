import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { expect, test, type Browser, type Page } from "./fixtures";
import { startPastEarlierChecks } from "./match-helpers";

/*
 * The README's "many machines" deployment on one machine: two app servers (A, B) with no debates
 * worker of their own and two `counterpoint worker` processes (W1, W2), all on one PostgreSQL. A
 * debate started on A is run by a worker; a browser on B watches its live text; the worker running
 * it is SIGKILLed mid-debate, the other takes it over once its lease lapses, and B sees the debate
 * finish with every turn stored once, the same text as a second browser on A.
 *
 * It needs PostgreSQL: E2E_POSTGRES_URL names a database this spec may wipe (its name must contain
 * "e2e"; scripts/test-all.sh makes one). The app role may not create databases (scripts/setup-postgres.sh
 * creates them as superuser, with pgvector), so the spec empties the one it is given instead.
 * Its own Playwright project runs it after the others: it builds on the production build they used.
 */

const URL_ENV = process.env.E2E_POSTGRES_URL;
const BASE = Number(process.env.E2E_PORT ?? 3210);
const PORTS = { a: BASE + 1, b: BASE + 2, w1: BASE + 3, w2: BASE + 4 };
const FAKE_OPENAI_PORT = Number(process.env.FAKE_OPENAI_PORT ?? 3291);
const ROOT = path.resolve(".");
const EMAIL = "multi-admin@e2e.test";
const PASSWORD = "e2e password 123";
/** Short, so the takeover after a SIGKILL comes within seconds (the same value in every process). */
const LEASE_SECONDS = 5;
const EVIDENCE =
  "The boxer auctioned his Olympic medal in 2012 to fund a children's hospital.\n\nIn 2022 the war displaced millions of children.";

const children: { name: string; proc: ChildProcess; log: string[] }[] = [];
let db: pg.Client | null = null;

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: URL_ENV!,
    DATA_DIR: path.resolve(".test-data/e2e-multi"),
    DEFAULT_MODEL: "openai-compatible:scripted",
    OPENAI_COMPATIBLE_SCRIPTED_BASE_URL: `http://127.0.0.1:${FAKE_OPENAI_PORT}/v1`,
    OPENAI_COMPATIBLE_SCRIPTED_MODEL: "scripted-debater",
    ROLE_MODELS: "",
    OPENAI_API_KEY: "",
    ANTHROPIC_API_KEY: "",
    NEXT_TELEMETRY_DISABLED: "1",
    DEBATE_RATE_LIMIT: "100/hour",
    DEBATE_LEASE_SECONDS: String(LEASE_SECONDS),
    ...extra,
  };
}

function start(name: string, args: string[], extra: Record<string, string>): ChildProcess {
  const proc = spawn(process.execPath, args, { cwd: ROOT, env: env(extra), stdio: ["ignore", "pipe", "pipe"] });
  const log: string[] = [];
  // The last lines of each process, for the failure message.
  const keep = (b: Buffer) => {
    log.push(...b.toString().split("\n").filter(Boolean));
    log.splice(0, Math.max(0, log.length - 40));
  };
  proc.stdout!.on("data", keep);
  proc.stderr!.on("data", keep);
  children.push({ name, proc, log });
  return proc;
}

const appServer = (name: string, port: number) =>
  start(name, [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    PORT: String(port),
    HOST: "127.0.0.1",
    IN_PROCESS_WORKER: "false",
  });
const worker = (name: string, healthPort: number) =>
  start(
    name,
    [
      path.join(ROOT, "bin/counterpoint.mjs"),
      "worker",
      "--debates-concurrency",
      "2",
      "--concurrency",
      "1",
      "--health-port",
      String(healthPort),
      "--json",
    ],
    {},
  );

async function up(url: string) {
  await expect
    .poll(
      () =>
        fetch(url).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 120_000, intervals: [500] },
    )
    .toBe(200);
}

function logs() {
  return children
    .map(
      (c) =>
        `--- ${c.name} (pid ${c.proc.pid}, exit ${c.proc.exitCode ?? c.proc.signalCode ?? "running"})\n${c.log.join("\n")}`,
    )
    .join("\n");
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  if (!URL_ENV) {
    throw new Error(
      "E2E_POSTGRES_URL is not set: this spec runs two app servers and two workers on PostgreSQL. Create a database for it (bash scripts/setup-postgres.sh --db counterpoint_e2e prints its URL) and set E2E_POSTGRES_URL to that URL; scripts/test-all.sh does this itself.",
    );
  }
  const dbName = decodeURIComponent(new URL(URL_ENV).pathname.slice(1));
  if (!/e2e/i.test(dbName))
    throw new Error(
      `E2E_POSTGRES_URL names the database "${dbName}": this spec wipes the database it is given, so its name must contain "e2e" (e.g. counterpoint_e2e).`,
    );
  db = new pg.Client({ connectionString: URL_ENV });
  await db.connect();
  // Everything the app role made (tables, the pg-boss and migration schemas); pgvector belongs to the superuser and stays.
  await db.query("drop owned by current_user cascade");
  // Migrated once, before several processes open the database at the same time.
  execFileSync(
    process.execPath,
    [path.join(ROOT, "bin/counterpoint.mjs"), "user", "create", "--email", EMAIL, "--admin", "--password-stdin"],
    { cwd: ROOT, env: env({}), input: `${PASSWORD}\n`, stdio: ["pipe", "pipe", "pipe"] },
  );

  appServer("app A", PORTS.a);
  appServer("app B", PORTS.b);
  worker("worker W1", PORTS.w1);
  worker("worker W2", PORTS.w2);
  try {
    for (const port of [PORTS.a, PORTS.b]) await up(`http://127.0.0.1:${port}/api/health`);
    for (const port of [PORTS.w1, PORTS.w2]) await up(`http://127.0.0.1:${port}/health`);
  } catch (e) {
    throw new Error(`${(e as Error).message}\n${logs()}`);
  }
});

test.afterAll(async () => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill("SIGKILL");
  await db?.end().catch(() => undefined);
});

async function signedIn(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    viewport: { width, height: 900 },
  });
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${PORTS.a}/signin?next=%2Fdebates`);
  await page.getByLabel("Email").fill(EMAIL);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/debates$/);
  await expect(page.getByTestId("signed-in-as")).toHaveText(EMAIL);
  return page;
}

const turnTexts = (page: Page) =>
  page
    .locator("[data-testid=turn][data-status=completed]")
    .evaluateAll((els) => els.map((e) => `${e.getAttribute("data-seq")}|${e.textContent}`));

type DebateRow = { status: string; runner_id: string | null };
async function debateRow(id: string): Promise<DebateRow> {
  const r = await db!.query<DebateRow>("select status, runner_id from debates where id = $1", [id]);
  return r.rows[0]!;
}
/** The process id in a runner token (`host:pid:random/run`). */
const pidOf = (runner: string | null) => Number(runner?.split(":")[1] ?? NaN);

test("two app servers and two workers: a browser on B watches a debate started on A, a killed worker is taken over, nothing is lost", async ({
  browser,
}) => {
  test.setTimeout(420_000);
  // Server A: the form, as a user starts a debate. "SLOW" makes the scripted model stream 8x slower.
  const pageA = await signedIn(browser, 1280);
  await pageA.goto(`http://127.0.0.1:${PORTS.a}/debates/new`);
  await pageA
    .getByLabel("Claim", { exact: true })
    .fill("SLOW: the boxer's 2012 auction helped children in the 2022 war, say two servers.");
  await pageA.getByLabel("Paste gold evidence").check();
  await pageA.getByLabel(/Evidence passages, one per paragraph/).fill(EVIDENCE);
  await startPastEarlierChecks(pageA, pageA.getByRole("button", { name: "Start debate" }), /\/debates\/[0-9a-f-]{36}$/);
  await pageA.waitForURL(/\/debates\/[0-9a-f-]{36}$/);
  const id = pageA.url().split("/").at(-1)!;
  await pageA.goto("about:blank");

  // Neither app server runs debates: one of the two workers claims it.
  const workerPids = children.filter((c) => c.name.startsWith("worker")).map((c) => c.proc.pid!);
  await expect
    .poll(async () => pidOf((await debateRow(id)).runner_id), { timeout: 30_000, message: logs() })
    .toBeGreaterThan(0);
  const firstRunner = pidOf((await debateRow(id)).runner_id);
  expect(workerPids, "the debate's runner is one of the two workers").toContain(firstRunner);

  // Server B: the live text of a turn grows in the page while the turn is not stored yet. The
  // database's "completed" never goes back, so a turn not completed after the growth was seen
  // grew live; a turn that happened to finish meanwhile is no proof, and the next one is tried.
  const pageB = await signedIn(browser, 1280);
  await pageB.goto(`http://127.0.0.1:${PORTS.b}/debates/${id}`);
  let grewLive = false;
  for (let attempt = 0; attempt < 5 && !grewLive; attempt++) {
    const streaming = pageB.locator("[data-testid=turn][data-status=streaming]").first();
    await expect(streaming).toContainText(/\S{3,}/, { timeout: 60_000 });
    const seq = await streaming.getAttribute("data-seq");
    const turnB = pageB.locator(`[data-testid=turn][data-seq='${seq}']`);
    const before = ((await turnB.textContent()) ?? "").length;
    await expect
      .poll(async () => ((await turnB.textContent()) ?? "").length, { timeout: 30_000 })
      .toBeGreaterThan(before);
    const stillStreaming = (await turnB.getAttribute("data-status")) === "streaming";
    const stored = await db!.query<{ status: string }>("select status from turns where debate_id = $1 and seq = $2", [
      id,
      Number(seq),
    ]);
    grewLive = stillStreaming && stored.rows[0]?.status !== "completed";
    if (grewLive) await pageB.screenshot({ path: "test-results/multi-server-live-1280.png", fullPage: true });
  }
  expect(grewLive, "B showed a turn's text growing before the turn was stored").toBe(true);

  // Mid-debate, after a finished turn: SIGKILL the worker running it.
  await expect(pageB.locator("[data-testid=turn][data-status=completed]").first()).toBeVisible({ timeout: 90_000 });
  await expect(pageB.locator("[data-testid=turn][data-status=streaming]").first()).toBeVisible({ timeout: 60_000 });
  const runner = pidOf((await debateRow(id)).runner_id);
  const health = await Promise.all(
    [PORTS.w1, PORTS.w2].map((p) =>
      fetch(`http://127.0.0.1:${p}/health`).then(
        (r) => r.json() as Promise<{ worker: string; debates: { debates: string[] } | null }>,
      ),
    ),
  );
  const holder = health.find((h) => h.debates?.debates.includes(id));
  expect(pidOf(holder?.worker ?? null), "the worker whose health lists the debate is the one the database names").toBe(
    runner,
  );
  const victim = children.find((c) => c.proc.pid === runner)!;
  const survivor = children.find((c) => c.name.startsWith("worker") && c !== victim)!;
  const finishedBeforeKill = (
    await db!.query<{ n: number }>(
      "select count(*)::int as n from turns where debate_id = $1 and status = 'completed'",
      [id],
    )
  ).rows[0]!.n;
  victim.proc.kill("SIGKILL");

  // The other worker takes it over once the lease lapses, and B follows the new run to the end.
  await expect
    .poll(async () => pidOf((await debateRow(id)).runner_id), { timeout: 60_000, message: logs() })
    .toBe(survivor.proc.pid);
  await expect(pageB.getByTestId("verdict")).toBeVisible({ timeout: 240_000 });
  await expect(pageB.getByTestId("debate-status")).toHaveText("completed");
  expect((await debateRow(id)).status).toBe("completed");

  // Every turn stored once: no step twice, numbers without holes, nothing finished before the kill lost.
  const turns = (
    await db!.query<{ seq: number; round: number; phase: string; role: string; kind: string; status: string }>(
      "select seq, round, phase, role, kind, status from turns where debate_id = $1 order by seq",
      [id],
    )
  ).rows;
  expect(turns.length).toBeGreaterThan(finishedBeforeKill);
  expect(turns.every((t) => t.status === "completed")).toBe(true);
  expect(turns.map((t) => t.seq)).toEqual(turns.map((_, i) => i + 1));
  const identities = turns.map((t) => `${t.round}|${t.phase}|${t.role}|${t.kind}`);
  expect(new Set(identities).size, `duplicate steps: ${identities.join(", ")}`).toBe(identities.length);

  // B shows exactly what was stored, and a second browser on A shows the same.
  const shownB = await turnTexts(pageB);
  expect(shownB.length).toBe(turns.length);
  await pageA.goto(`http://127.0.0.1:${PORTS.a}/debates/${id}`);
  await expect(pageA.getByTestId("verdict")).toBeVisible();
  expect(await turnTexts(pageA)).toEqual(shownB);
  await pageB.reload();
  await expect(pageB.getByTestId("verdict")).toBeVisible();
  expect(await turnTexts(pageB)).toEqual(shownB);

  await pageB.screenshot({ path: "test-results/multi-server-1280.png", fullPage: true });
  await pageB.setViewportSize({ width: 375, height: 800 });
  await pageB.screenshot({ path: "test-results/multi-server-375.png", fullPage: true });
  expect(await pageB.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

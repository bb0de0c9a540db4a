import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { expect, test } from "./fixtures";
import { hurry, resetHurry } from "./hurry";
import { completedTurns, ensureDemoCorpus, searches, startToolMad } from "./tool-mad-helpers";

/*
 * The server is killed mid-round (SIGKILL, as a crash or a redeploy would) and started again on the
 * same port and data. Its own Playwright project runs it after every other spec: the server it starts
 * replaces the one Playwright started, and is stopped after this file. The environment repeats
 * playwright.config.ts's webServer entry.
 */
let restarted: ChildProcess | null = null;
test.afterEach(resetHurry);
test.afterAll(() => {
  if (restarted?.pid) process.kill(restarted.pid, "SIGTERM");
});

function serverPid(port: number): number {
  const out = execFileSync("ss", ["-ltnpH", `sport = :${port}`], { encoding: "utf8" });
  const m = /pid=(\d+)/.exec(out);
  if (!m) throw new Error(`no process listens on port ${port}: ${out}`);
  return Number(m[1]);
}

test("a server restart mid-round loses nothing, and the resumed debate repeats no search", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(300_000);
  await ensureDemoCorpus(page);
  const url = await startToolMad(
    page,
    "SLOW DISAGREE: the restarted server finds Governor Elena Marsh's auction again.",
  );
  await expect.poll(async () => (await searches(page)).length, { timeout: 60_000 }).toBe(2);
  await expect(page.locator("[data-testid=turn][data-status=streaming][data-phase=answer]").first()).toBeVisible({
    timeout: 30_000,
  });
  const stored = await searches(page);
  const finished = await completedTurns(page);
  // Leave the page first: a page whose server vanishes logs connection errors, which would fail the test.
  await page.goto("about:blank");

  const port = Number(new URL(baseURL!).port);
  process.kill(serverPid(port), "SIGKILL");
  await expect
    .poll(
      () =>
        fetch(`${baseURL}/api/health`).then(
          () => "up",
          () => "down",
        ),
      { timeout: 15_000 },
    )
    .toBe("down");
  restarted = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: path.resolve("."),
    stdio: "ignore",
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: path.resolve(".test-data/e2e"),
      DATABASE_URL: "",
      DEFAULT_MODEL: "openai-compatible:scripted",
      OPENAI_COMPATIBLE_SCRIPTED_BASE_URL: `http://127.0.0.1:${process.env.FAKE_OPENAI_PORT ?? 3291}/v1`,
      OPENAI_COMPATIBLE_SCRIPTED_MODEL: "scripted-debater",
      ROLE_MODELS: "",
      OPENAI_API_KEY: "",
      ANTHROPIC_API_KEY: "",
      NEXT_TELEMETRY_DISABLED: "1",
      DEBATE_RATE_LIMIT: "100/hour",
    },
  });
  await expect
    .poll(
      () =>
        fetch(`${baseURL}/api/health`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 120_000, intervals: [500] },
    )
    .toBe(200);

  await page.goto(url);
  await expect(page.getByTestId("debate-status")).toHaveText("interrupted");
  // Everything finished before the crash is there, and the searches are the stored ones.
  const after = await completedTurns(page);
  for (const t of finished) expect(after).toContain(t);
  expect(await searches(page)).toEqual(stored);

  await page.getByRole("button", { name: "Resume from the last finished turn" }).click();
  // Resumed after the restart: the rest may stream at the normal speed.
  await hurry("the restarted server finds");
  await expect(page.getByTestId("verdict-summary")).toBeVisible({ timeout: 150_000 });
  await page.reload();
  const all = await searches(page);
  for (const s of stored) expect(all).toContain(s);
  expect(all.length).toBe(4);
  expect(new Set(all.map((s) => s.split("|").slice(0, 2).join("|"))).size).toBe(4);
  await expect(page.getByTestId("verdict-summary")).toContainText("Decided by the judge");
});

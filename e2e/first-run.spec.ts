import { expect, test } from "./fixtures";
import { ensureDemoCorpus, noSidewaysScroll } from "./tool-mad-helpers";
import { startPastEarlierChecks } from "./match-helpers";

/*
 * The first run, after e2e/auth.setup.ts created the admin through /setup and checked that it lands
 * on /welcome with step 1 to do and the model configured: step 1 (the demo corpus, loaded from the
 * page's own button unless corpus.spec already did), then step 3's link to a first debate, which
 * must finish with a verdict.
 */

test("the welcome page's steps lead from an empty install to a first finished debate", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/welcome");
  const evidence = page.getByTestId("welcome-step-1");
  const model = page.getByTestId("welcome-step-2");
  const debate = page.getByTestId("welcome-step-3");
  if ((await evidence.getAttribute("data-done")) === "false") {
    await evidence.getByRole("button", { name: "Load the demo corpus" }).click();
    await page.waitForURL(/\/corpora\/demo$/);
    await ensureDemoCorpus(page);
    await page.goto("/welcome");
  }
  await expect(evidence).toHaveAttribute("data-done", "true");
  await expect(evidence).toContainText("demo (30 passages)");
  await expect(model).toHaveAttribute("data-done", "true");
  await expect(debate).toContainText("Try the demo's claim");
  await page.screenshot({ path: "test-results/welcome-done-1280.png", fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: "test-results/welcome-done-375.png", fullPage: true });
  expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 900 });

  await debate.getByRole("link", { name: "Start a first debate" }).click();
  await page.waitForURL(/\/debates\/new\?claim=/);
  await expect(page.getByLabel("Claim", { exact: true })).toHaveValue(/^Governor Elena Marsh raised \$2\.4 million/);
  await startPastEarlierChecks(page, page.getByRole("button", { name: "Start debate" }), /\/debates\/[0-9a-f-]{36}$/);
  await page.waitForURL(/\/debates\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("verdict")).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId("debate-status")).toHaveText("completed", { timeout: 60_000 });
});

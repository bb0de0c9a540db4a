import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "./fixtures";

/*
 * Two methods compared from the browser: RADAR and Tool-MAD ticked on /eval/new over the same three
 * claims, worked by this server with the scripted model server; the group page shows the verdict
 * sentence, the leaderboard, the frontier chart and the pairs, links to each run and back, and fits
 * a 375 px screen.
 */

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const LABELS = ["TRUE", "HALF-TRUE", "FALSE"];

test("RADAR and Tool-MAD ticked on /eval/new make a group page with the leaderboard and the frontier; it fits 375 px", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const file = path.resolve("test-results/e2e-matrix-claims.jsonl");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const lines = Array.from({ length: 3 }, (_, i) =>
    JSON.stringify({
      id: `mx${i}`,
      claim: `Governor Marsh said the flood relief fund paid out claim ${i} in full.`,
      label: LABELS[i % 3],
      gold_evidence: [{ id: "g", text: "The flood relief fund paid $850,000 so far." }],
    }),
  );
  fs.writeFileSync(file, lines.join("\n") + "\n");

  await page.goto("/eval/new");
  await page.getByLabel(/Claims file/).setInputFiles(file);
  await page.getByLabel("Run name").fill("Matrix from the web");
  await page.getByTestId("eval-protocols").getByLabel("Tool-MAD").check();
  await page.getByRole("button", { name: "Compare 2 methods" }).click();
  await page.waitForURL(/\/eval\/groups\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  const groupUrl = page.url();

  // Both runs worked to the end (done or failed) by this server.
  await expect(async () => {
    await page.reload();
    const rows = page.getByTestId("leaderboard").locator("tbody tr");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText("(3/3)");
    await expect(rows.nth(1)).toContainText("(3/3)");
  }).toPass({ timeout: 240_000, intervals: [2000] });
  await expect(page.getByTestId("verdict")).toContainText(/is the most accurate here|No method has a scored claim yet/);
  await expect(page.getByTestId("pairs")).toContainText("RADAR vs Tool-MAD");
  await expect(page.getByTestId("frontier-chart").or(page.getByText(/No method has a scored claim/))).toBeVisible();
  await page.screenshot({ path: "test-results/eval-group-1280.png", fullPage: true });

  // From the group to a run, and back from the run's page; the /eval list names the group.
  await page.getByTestId("leaderboard").getByRole("link", { name: "RADAR" }).click();
  await page.waitForURL(/\/eval\/[0-9a-f-]{36}$/);
  await page.getByTestId("matrix-link").click();
  await page.waitForURL(groupUrl);
  // The Tool-MAD run, whose scripted answers are all unreadable: its header says so in words before
  // any number, and no 0 stands where the method's accuracy would be.
  await page.goto(groupUrl);
  await page.getByTestId("leaderboard").getByRole("link", { name: "Tool-MAD" }).click();
  await page.waitForURL(/\/eval\/[0-9a-f-]{36}$/);
  const summary = page.getByTestId("run-summary");
  await expect(summary).toContainText("Tool-MAD on the claims of e2e-matrix-claims");
  await expect(summary).toContainText("evidence: found by the method's own search");
  await expect(summary).not.toContainText("executor");
  await expect(page.locator("main header").getByRole("alert")).toContainText("No verdict could be read");
  await expect(page.getByTestId("headline-metrics")).toContainText("not measured: no verdict could be read");
  await expect(page.getByTestId("headline-metrics")).not.toContainText("0.0 [");
  await page.goto("/eval");
  await expect(page.getByTestId("matrix-groups")).toContainText("RADAR, Tool-MAD");

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(groupUrl);
  await expect(page.getByTestId("leaderboard")).toBeVisible();
  await page.screenshot({ path: "test-results/eval-group-375.png", fullPage: true });
  expect(await noSidewaysScroll(page), "the group page scrolls sideways at 375 px").toBe(0);
  await page.goto("/eval/new");
  expect(await noSidewaysScroll(page), "/eval/new scrolls sideways at 375 px").toBe(0);
  await page.screenshot({ path: "test-results/eval-new-matrix-375.png", fullPage: true });
});

import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "./fixtures";

/*
 * An evaluation run from the browser, as a fact-checker starts one: a claims file larger than a
 * server action may carry (1.7 MB) goes through the upload route, the run is worked by this server
 * (embedded database) with the scripted model, and the run list shows the same accuracy as the
 * run's page. The three evaluation pages fit a 375 px screen.
 */

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const LABELS = ["TRUE", "HALF-TRUE", "FALSE"];

test("a 1.7 MB claims file starts a run from /eval/new; the list and the run page agree; the pages fit 375 px", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const file = path.resolve("test-results/e2e-web-claims.jsonl");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const lines = Array.from({ length: 2000 }, (_, i) =>
    JSON.stringify({
      id: `w${i}`,
      claim: `Governor Marsh said the flood relief fund paid out claim ${i} in full.`,
      label: LABELS[i % 3],
      gold_evidence: [{ id: "g", text: `The flood relief fund paid $850,000 so far. ${"Context. ".repeat(90)}` }],
    }),
  );
  fs.writeFileSync(file, lines.join("\n") + "\n");
  expect(fs.statSync(file).size).toBeGreaterThan(1_600_000);

  await page.goto("/eval/new");
  await expect(page.getByText("Claims file (JSONL, up to 50 MiB)")).toBeVisible();
  await page.screenshot({ path: "test-results/eval-new-1280.png", fullPage: true });
  await page.getByLabel(/Claims file/).setInputFiles(file);
  await page.getByLabel("Run name").fill("Web run, three claims");
  await page.getByLabel("Limit (claims)").fill("3");
  await page.getByRole("button", { name: "Start the run" }).click();
  await page.waitForURL(/\/eval\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  const runUrl = page.url();
  await expect(page.getByTestId("run-progress")).toContainText("3 done", { timeout: 120_000 });
  await page.reload();
  const accuracy = (await page
    .getByTestId("headline-metrics")
    .locator("dd")
    .first()
    .locator("span")
    .first()
    .textContent())!.trim();
  expect(accuracy).toMatch(/^\d+\.\d%$/);
  await page.screenshot({ path: "test-results/eval-run-1280.png", fullPage: true });

  await page.goto("/eval");
  const row = page.getByTestId("eval-runs").locator("tr", { hasText: "Web run, three claims" });
  await expect(row).toContainText("3/3");
  // The list gives the same figure, with its per cent sign.
  await expect(row.locator("td").nth(3)).toHaveText(accuracy);
  await page.screenshot({ path: "test-results/eval-list-1280.png", fullPage: true });

  await page.setViewportSize({ width: 375, height: 800 });
  for (const [url, name] of [
    ["/eval", "eval-list-375"],
    ["/eval/new", "eval-new-375"],
    [runUrl, "eval-run-375"],
  ] as const) {
    await page.goto(url);
    await page.screenshot({ path: `test-results/${name}.png`, fullPage: true });
    expect(await noSidewaysScroll(page), `${url} scrolls sideways at 375 px`).toBe(0);
  }
});

import { expect, test } from "./fixtures";
import { ensureDemoCorpus, noSidewaysScroll } from "./tool-mad-helpers";
import { startPastEarlierChecks } from "./match-helpers";

/*
 * "Compare methods" on /debates/new and the /compare list: one method is refused with the reason and
 * nothing typed is lost; two methods with a preset and an ensemble start together and the list shows
 * the claim, each method and the ensemble. The comparison page itself is e2e/side-by-side.spec.ts's.
 */

const CLAIM =
  "Governor Elena Marsh raised $2.4 million at a charity auction to help families as the Cedar River floods forced thousands from their homes.";

test("a fact-checker compares two methods on one claim, and finds the comparison in the list", async ({ page }) => {
  test.setTimeout(300_000);
  await ensureDemoCorpus(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/debates/new");
  await page.getByTestId("compare-toggle").check();
  const form = page.getByTestId("compare-form");
  await form.getByLabel("Claim", { exact: true }).fill(CLAIM);
  await form.getByRole("checkbox", { name: /RADAR/ }).check();
  await form.getByRole("button", { name: "Start the comparison" }).click();
  await expect(form.getByRole("alert").filter({ hasText: "Choose at least 2 methods to compare" })).toBeVisible();
  // Nothing typed is lost on a refusal.
  await expect(form.getByLabel("Claim", { exact: true })).toHaveValue(CLAIM);

  await form.getByRole("checkbox", { name: /PROClaim/ }).check();
  await form.getByLabel(/Preset for PROClaim/).selectOption("single-judge");
  await form.getByLabel("Majority vote").check();
  // The combined estimate adds both methods' own: nothing is left out of it.
  await expect(page.getByTestId("compare-estimate")).toContainText("model calls", { timeout: 15_000 });
  await expect(page.getByTestId("compare-estimate")).not.toContainText("No estimate before starting");
  await page.screenshot({ path: "test-results/compare-form-1280.png", fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: "test-results/compare-form-375.png", fullPage: true });
  expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);

  await startPastEarlierChecks(
    page,
    form.getByRole("button", { name: "Start 2 debates" }),
    /\/compare\/[0-9a-f-]{36}$/,
  );
  await page.waitForURL(/\/compare\/[0-9a-f-]{36}$/, { timeout: 60_000 });

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/compare");
  const item = page.getByTestId("comparison-list").locator("li").filter({ hasText: CLAIM }).first();
  await expect(item).toContainText("RADAR (default settings)");
  await expect(item).toContainText("PROClaim (one judge instead of three)");
  await expect(item).toContainText("Ensemble (majority)");
  await page.screenshot({ path: "test-results/compare-list-1280.png", fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: "test-results/compare-list-375.png", fullPage: true });
  expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
});

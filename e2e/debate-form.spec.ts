import { expect, test } from "./fixtures";

/*
 * The new-debate form: a pasted claim over the limit is kept whole, counted live and refused by
 * the server in the same words; model fields offer only the server's models; the page fits a
 * 375 px phone without sideways scrolling.
 */

const LONG = "The boxer sold his medal to help children. ".repeat(50).trim(); // 2,149 characters
const MESSAGE = "The claim is 2,149 characters; the limit is 2,000. Shorten it by 149: quote only the part to check.";

test("an over-long claim is kept, counted and refused in the same words", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/debates/new");
  const claim = page.getByLabel("Claim", { exact: true });
  await claim.fill(LONG);
  await expect(claim).toHaveValue(LONG);
  await expect(page.getByTestId("claim-count")).toHaveText("2,149 / 2,000 characters");
  await expect(page.locator("#claim-too-long")).toHaveText(MESSAGE);
  // The model fields are a choice among the server's models, not free text.
  const judge = page.locator("select#model_judge");
  await expect(judge).toBeVisible();
  expect(await judge.locator("option").allTextContents()).toEqual([
    "default (openai-compatible:scripted)",
    "openai-compatible:scripted",
  ]);
  await page.getByLabel("Paste gold evidence").check();
  await page.getByLabel(/Evidence passages, one per paragraph/).fill("A passage.");
  await page.screenshot({ path: "test-results/debate-new-1280.png", fullPage: true });
  await page.getByRole("button", { name: "Start debate" }).click();
  await expect(page.getByRole("alert").filter({ hasText: MESSAGE })).toHaveCount(1);
  await expect(page).toHaveURL(/\/debates\/new$/);
  await expect(claim).toHaveValue(LONG);
  await claim.fill(LONG.slice(0, 2000));
  await expect(page.getByTestId("claim-count")).toHaveText("2,000 / 2,000 characters");
  await expect(page.locator("#claim-too-long")).toHaveCount(0);
});

test("the new-debate form fits a 375 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/debates/new");
  await page.getByLabel("Claim", { exact: true }).fill(LONG);
  await page.locator("summary", { hasText: "Advanced" }).click();
  await page.screenshot({ path: "test-results/debate-new-375.png", fullPage: true });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});

import { expect, test } from "./fixtures";
import { ensureDemoCorpus, noSidewaysScroll } from "./tool-mad-helpers";

/*
 * Issue 34 in the browser, where the page is the point: /fact-checks/new without a debate shows how
 * to start, the admin's navigation fits 1280 px, one <main> on /account/tokens, check-text linked from
 * the navigation and drafting claims with the speaker's name as a person writes it.
 */

const shoot = async (page: import("@playwright/test").Page, name: string) => {
  for (const [w, h] of [
    [1280, 900],
    [375, 800],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    expect(await noSidewaysScroll(page), `${name} at ${w} px scrolls sideways`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/words-${name}-${w}.png`, fullPage: true });
  }
};

test("/fact-checks/new without a debate shows how to start instead of a 404", async ({ page }) => {
  const res = await page.goto("/fact-checks/new");
  expect(res?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Write a fact-check" })).toBeVisible();
  await expect(page.getByText("could not be found")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Pick a finished debate or comparison" })).toBeVisible();
  await page.getByLabel("Words in the claim").fill("no claim has these words zzqx");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("start-none")).toContainText("zzqx");
  // Starting from a claim alone leads to the debate form with the claim filled in.
  await page.getByRole("textbox", { name: "The claim", exact: true }).fill("The bridge cost 40 million.");
  await page.getByRole("button", { name: "Check this claim" }).click();
  await expect(page).toHaveURL(/\/debates\/new\?claim=/);
  await page.goto("/fact-checks/new");
  await shoot(page, "fact-checks-new");
});

test("the admin's navigation fits a 1280 px window and links to check-text; one <main> on /account/tokens", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/admin");
  await expect(page.getByTestId("nav-links").getByRole("link", { name: "Check a text" })).toBeVisible();
  expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
  await shoot(page, "admin");
  // An invitation grants only the roles ticked: none is ticked in advance.
  const invite = page.locator("form", { has: page.getByRole("button", { name: "Create invitation link" }) });
  await expect(invite.getByRole("checkbox", { checked: true })).toHaveCount(0);
  await page.goto("/account/tokens");
  await expect(page.locator("main")).toHaveCount(1);
  await shoot(page, "account-tokens");
  await ensureDemoCorpus(page);
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Find the claims in a speech or article" })).toBeVisible();
  await shoot(page, "home");
});

test("check-text drafts claims with the speaker's name as a person writes it, set once per speaker", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/check-text");
  await page
    .getByTestId("text-input")
    .fill(
      "MARSH: We raised 2.4 million dollars for flood relief in 2023.\nMARSH: Unemployment fell to 4.1 percent last spring.\nHALL: Thank you.",
    );
  await page.getByTestId("rank-submit").click();
  const drafts = page.getByTestId("claim-edit");
  await expect(drafts.first()).toHaveValue(/^Marsh said: /);
  await page.getByLabel("Name for MARSH").fill("Governor Elena Marsh");
  const values = await drafts.evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement).value));
  const marsh = values.filter((v) => /Governor Elena Marsh said: /.test(v));
  expect(marsh.length).toBeGreaterThanOrEqual(2);
  expect(values.some((v) => /MARSH said/.test(v))).toBe(false);
  await shoot(page, "check-text-speakers");
});

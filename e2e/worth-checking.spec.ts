import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { ensureDemoCorpus, noSidewaysScroll } from "./tool-mad-helpers";

/*
 * Issue 26, check-worthy sentences in the browser: a pasted debate transcript is ranked by the
 * offline scorer, three of the top sentences are picked and edited into claims, and one click
 * starts three debates. It loads the demo corpus, so its name sorts after corpus.spec.ts, whose
 * first test needs an install with no corpus yet (specs run one after another, by name).
 */

const TRANSCRIPT = fs.readFileSync(path.resolve("tests/fixtures/checkworthy/debate-transcript.txt"), "utf8");

test("paste a transcript, see it ranked, pick three, and three debates start", async ({ page }) => {
  test.setTimeout(240_000);
  await ensureDemoCorpus(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/check-text");
  await page.getByTestId("text-input").fill(TRANSCRIPT);
  await page.getByTestId("rank-submit").click();
  // The first ranking in a fresh server loads the sentence encoder (seconds on a loaded machine).
  await expect(page.getByTestId("rank-summary")).toContainText("of 30 sentences look check-worthy", {
    timeout: 60_000,
  });
  await expect(page.getByTestId("sentence")).toHaveCount(30);
  const top = page.getByTestId("top-sentence");
  await expect(top).toHaveCount(10);
  // The best-ranked sentence is a figure, with its reason, and its draft claim names the speaker.
  await expect(top.first()).toContainText(/\d/);
  await expect(top.first().getByTestId("reason")).toContainText("Check-worthy");
  await expect(top.first().getByTestId("claim-edit")).toHaveValue(/^(Senator Hall|Governor Reyes) said: /);
  await page.screenshot({ path: "test-results/check-text-1280.png", fullPage: true });
  // With a model configured, a stand-alone wording is suggested, and used only when the user says so.
  const second = top.nth(1);
  const draft = await second.getByTestId("claim-edit").inputValue();
  await second.getByRole("button", { name: "Suggest a stand-alone wording" }).click();
  const suggestion = second.getByTestId("standalone-suggestion");
  await expect(suggestion).toContainText("Suggested:");
  await expect(second.getByTestId("claim-edit")).toHaveValue(draft);
  const suggested = (await suggestion.locator("p").first().textContent())!.replace(/^Suggested:\s*/, "");
  await suggestion.getByRole("button", { name: "Use this wording" }).click();
  await expect(second.getByTestId("claim-edit")).toHaveValue(suggested);
  await page.screenshot({ path: "test-results/check-text-suggestion-1280.png", fullPage: true });

  for (let i = 0; i < 3; i++) await top.nth(i).getByTestId("pick").check();
  const edited = "Senator Hall said Ohio's unemployment fell from 7.2 percent in 2019 to 4.1 percent in 2023.";
  const claims: string[] = [];
  for (let i = 0; i < 3; i++) {
    const field = top.nth(i).getByTestId("claim-edit");
    if (i === 0) await field.fill(edited);
    claims.push(await field.inputValue());
  }
  await page.getByLabel(/Evidence from corpus/).selectOption("demo");
  await expect(page.getByTestId("start-submit")).toHaveText("Start 3 debates");
  await page.getByTestId("start-submit").click();
  const links = page.getByTestId("started-link");
  await expect(links).toHaveCount(3, { timeout: 60_000 });
  expect(await links.allTextContents()).toEqual(claims);
  const hrefs = await links.evaluateAll((els) => els.map((e) => e.getAttribute("href")));
  expect(new Set(hrefs).size).toBe(3);
  await page.screenshot({ path: "test-results/check-text-started-1280.png", fullPage: true });
  // Each is a debate of its own, on its own claim.
  for (const [i, href] of hrefs.entries()) {
    expect(href).toMatch(/^\/debates\/[0-9a-f-]{36}$/);
    await page.goto(href!);
    await expect(page.getByText(claims[i]!, { exact: false }).first()).toBeVisible();
  }
});

test("the check-text page fits a 375 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/check-text");
  await page.getByTestId("text-input").fill(TRANSCRIPT);
  await page.getByTestId("rank-submit").click();
  await expect(page.getByTestId("top-sentence")).toHaveCount(10);
  await page.screenshot({ path: "test-results/check-text-375.png", fullPage: true });
  expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
});

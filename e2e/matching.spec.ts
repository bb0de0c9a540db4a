import { expect, test, type Page } from "./fixtures";
import { startPastEarlierChecks } from "./match-helpers";
import { noSidewaysScroll } from "./tool-mad-helpers";

/*
 * Claim matching in the browser: a claim debated before, submitted again in other words, is
 * answered with the earlier check before anything is started; attached, the check joins the new
 * debate's evidence and the debate's page says it was matched before start.
 */

const EARLIER = "The Eiffel Tower in Paris is 330 metres tall, twice the height it had in 1889.";
const PARAPHRASE = "Paris's Eiffel Tower stands 330 metres tall, double its height in 1889.";
const EVIDENCE =
  "The tower was 312 metres tall when it opened in 1889.\n\nAn antenna added in 2022 made it 330 metres.";
const DEBATE_URL = /\/debates\/[0-9a-f-]{36}$/;

async function fillForm(page: Page, claim: string) {
  await page.goto("/debates/new");
  await page.getByLabel("Claim", { exact: true }).fill(claim);
  await page.getByLabel("Paste gold evidence").check();
  await page.getByLabel(/Evidence passages, one per paragraph/).fill(EVIDENCE);
  await page.getByLabel("Debate", { exact: true }).selectOption("single");
}

async function shoot(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `test-results/matching-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: `test-results/matching-${name}-375.png`, fullPage: true });
  expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a claim checked before is answered with the earlier check before anything starts; attached, it joins the evidence and the debate says it was matched before start", async ({
  page,
}) => {
  test.setTimeout(180_000);
  // A finished debate on the claim (a run before this spec may have checked it already: then debate anyway).
  await fillForm(page, EARLIER);
  await startPastEarlierChecks(page, page.getByRole("button", { name: "Start debate" }), DEBATE_URL);
  await page.waitForURL(DEBATE_URL);
  const earlier = new URL(page.url()).pathname;
  await expect(page.getByTestId("verdict")).toContainText("Half true", { timeout: 60_000 });
  await expect(page.getByTestId("debate-status")).toHaveText("completed");

  // The same claim in other words: the earlier check is shown and nothing is started.
  await fillForm(page, PARAPHRASE);
  await page.getByRole("button", { name: "Start debate" }).click();
  const step = page.getByTestId("match-step");
  await expect(step).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/debates\/new$/);
  const match = step.getByTestId("match").filter({ hasText: EARLIER });
  await expect(match).toContainText("Rated Half true");
  await expect(match).toContainText(
    /(same claim|different claim) \(an estimated \d+% chance\); shown from a \d+% chance/,
  );
  await expect(match.getByRole("link", { name: /Open the earlier check/ })).toHaveAttribute("href", earlier);
  // Everything typed is still there.
  await expect(page.getByLabel("Claim", { exact: true })).toHaveValue(PARAPHRASE);
  await expect(page.getByLabel(/Evidence passages, one per paragraph/)).toHaveValue(EVIDENCE);
  await shoot(page, "step");

  await step.getByRole("button", { name: "Attach and start the debate" }).click();
  await page.waitForURL(DEBATE_URL);
  expect(new URL(page.url()).pathname).not.toBe(earlier);
  const matched = page.getByTestId("matched-before-start");
  await expect(matched).toHaveAttribute("data-choice", "attach-as-evidence");
  await expect(matched).toContainText("Matched before start");
  await expect(matched.getByTestId("match").filter({ hasText: EARLIER })).toContainText("attached as evidence");
  const attached = page.locator("[data-testid=evidence]").filter({ hasText: "earlier fact-check" });
  await expect(attached).toContainText(EARLIER);
  await expect(page.getByTestId("verdict")).toContainText("Half true", { timeout: 60_000 });
  await shoot(page, "debate");
});

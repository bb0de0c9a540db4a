import { expect, test } from "./fixtures";
import { completedTurns, ensureDemoCorpus, noSidewaysScroll, streamingRoles } from "./tool-mad-helpers";
import { startPastEarlierChecks } from "./match-helpers";

/*
 * PROClaim end to end, as a new user: e2e/fake-openai-proclaim.mjs answers its prompts. The claim
 * is split into three premises, the arbiter admits, disputes and refuses passages of the demo
 * corpus, counsel argue two rounds (their self-scores plateau in round 2), switch sides and argue
 * again, and three judges, writing slowly at the same time, vote 2–1 NOT SUPPORTED.
 */

const CLAIM = "Governor Elena Marsh raised $2.4 million at a charity auction for the Cedar River flood families.";

test("a new user picks PROClaim, sees its cost, watches the trial and the three judges at once, reloads mid-trial, and reads the verdict with its confidence", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await ensureDemoCorpus(page);
  await page.goto("/debates/new");
  await page.getByRole("radio", { name: /PROClaim/ }).check();
  await expect(page.getByTestId("protocol-picker")).toContainText("three judges vote");
  await page.getByLabel("Claim", { exact: true }).fill(CLAIM);
  await expect(page.getByTestId("proclaim-fields")).toContainText("Corpus the court searches");
  // The method's weakness is shown before starting: the full method's estimate, then the short trial's.
  await expect(page.getByTestId("cost-estimate")).toContainText(
    /About 114 model calls expected \(worst case \d{3}, about [\d,]+ tokens\)/,
    { timeout: 15_000 },
  );
  // Whose figure it is, in words: PROClaim's paper, against a plain debate (not "standard MAD").
  await expect(page.getByTestId("cost-estimate")).toContainText(
    "PROClaim's paper reports ~210,900 tokens per claim for the full method (18,900 for a plain two-sided debate)",
  );
  await page.getByLabel("Rounds per trial at most").fill("2");
  await expect(page.getByTestId("cost-estimate")).toContainText("At most 89 model calls (every round run)", {
    timeout: 15_000,
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: "test-results/proclaim-form-1280.png", fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/proclaim-form-375.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await startPastEarlierChecks(page, page.getByRole("button", { name: "Start debate" }), /\/debates\/[0-9a-f-]{36}$/);
  await page.waitForURL(/\/debates\/[0-9a-f-]{36}$/);

  // The pre-trial: premises, then passages admitted and refused with their weights.
  await expect(page.getByTestId("proclaim-premise")).toHaveCount(3, { timeout: 60_000 });
  await expect(page.getByTestId("proclaim-premises")).toContainText("The money went to Cedar River flood families.");
  await expect(page.locator("[data-testid=proclaim-evidence-row][data-status=admitted]").first()).toContainText(
    "weight 0.72",
    { timeout: 60_000 },
  );
  await expect(page.locator("[data-testid=proclaim-evidence-row][data-status=discarded]").first()).toContainText(
    "refused",
  );

  // Reload mid-trial once counsel have argued: every finished turn is still there, with the same text.
  await expect(page.locator("[data-testid=turn][data-status=completed][data-role=plaintiff]").first()).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByTestId("debate-status")).toHaveText("running");
  const before = await completedTurns(page);
  expect(before.length).toBeGreaterThanOrEqual(1);
  await page.reload();
  const after = await completedTurns(page);
  for (const t of before) expect(after).toContain(t);
  await expect(page.getByTestId("proclaim-token-meter")).toContainText("tokens used so far");
  await expect(page.getByTestId("proclaim-token-meter")).toContainText(
    "PROClaim's paper reports about 210,900 per claim",
  );

  // The arguments, the expert, the searches with novelty, and the switched trial.
  const trial = page.getByTestId("proclaim-trial-primary");
  await expect(trial).toContainText("against the claim: the same report", { timeout: 60_000 });
  await expect(trial.getByTestId("proclaim-expert").first()).toContainText("charity finance auditor");
  await expect(trial.getByTestId("proclaim-search").first()).toContainText("η");
  await expect(page.getByTestId("proclaim-trial-switched")).toContainText("Round 1", { timeout: 90_000 });

  // The panel's three judges are writing at the same moment.
  await expect
    .poll(async () => new Set(await streamingRoles(page)), { timeout: 90_000, intervals: [100] })
    .toEqual(new Set(["judge-1", "judge-2", "judge-3"]));
  await page.screenshot({ path: "test-results/proclaim-panel-live-1280.png", fullPage: true });

  const verdict = page.getByTestId("proclaim-verdict");
  await expect(verdict).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId("proclaim-verdict-label")).toHaveText("Not supported");
  // One verdict shape for every method: the product-scale label first, then the method's own words.
  await expect(verdict.getByTestId("people-verdict").first()).toHaveAttribute("data-product", "FALSE");
  await expect(verdict.getByTestId("verdict-label").first()).toHaveText("False");
  await expect(verdict).toContainText("PROClaim said Not supported");
  await expect(page.getByTestId("proclaim-confidence")).toContainText(/court's confidence \d+%/);
  await expect(page.getByTestId("proclaim-confidence-steps")).toContainText(
    "The judges voted 1 supported, 2 not supported",
  );
  await expect(page.getByTestId("proclaim-stop")).toContainText("stopped getting stronger");
  await expect(page.getByTestId("ballot-label")).toHaveCount(3);
  await expect(page.getByTestId("proclaim-reflections").first()).toContainText("Round 2");
  await expect(page.getByTestId("debate-status")).toHaveText("completed");

  for (const [width, height] of [
    [1280, 900],
    [375, 740],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.reload();
    await expect(page.getByTestId("proclaim-verdict")).toBeVisible();
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/proclaim-finished-${width}.png`, fullPage: true });
  }
});

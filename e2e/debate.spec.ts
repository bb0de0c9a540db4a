import { expect, test, type Page } from "./fixtures";
import { hurry, resetHurry } from "./hurry";
import { startPastEarlierChecks } from "./match-helpers";

/*
 * The app runs its real openai-compatible provider against e2e/fake-openai.mjs, a scripted server
 * that streams each answer token by token with logprobs. Claims containing "SLOW" stream 8x slower,
 * "settle early" makes the judge stop after the opening, "INJECT" puts HTML into agent output.
 */

const EVIDENCE =
  "The boxer auctioned his Olympic medal in 2012 to fund a children's hospital.\n\nIn 2022 the war displaced millions of children.";

async function submit(page: Page, claim: string, opts: { variant?: string } = {}) {
  await page.goto("/debates/new");
  await page.getByLabel("Claim", { exact: true }).fill(claim);
  await page.getByLabel("Paste gold evidence").check();
  await page.getByLabel(/Evidence passages, one per paragraph/).fill(EVIDENCE);
  if (opts.variant) await page.getByLabel("Debate", { exact: true }).selectOption(opts.variant);
  await startPastEarlierChecks(page, page.getByRole("button", { name: "Start debate" }), /\/debates\/[0-9a-f-]{36}$/);
  await page.waitForURL(/\/debates\/[0-9a-f-]{36}$/);
  return page.url();
}

test.afterEach(resetHurry);

const turnTexts = (page: Page) =>
  page
    .locator("[data-testid=turn][data-status=completed]")
    .evaluateAll((els) => els.map((e) => `${e.getAttribute("data-seq")}|${e.textContent}`));

test("a submitted claim streams into a debate with checkpoints, a verdict and linked evidence", async ({ page }) => {
  await submit(page, "The boxer sold his medal to help children in the 2022 war.");
  // Text appears while a turn is being written, before it is finished.
  await expect(page.locator("[data-testid=turn][data-status=streaming]").first()).toContainText("Speaking as", {
    timeout: 15_000,
  });
  const verdict = page.getByTestId("verdict");
  await expect(verdict).toContainText("Half true", { timeout: 60_000 });
  await expect(verdict).toContainText("confidence 85%");
  await expect(page.getByTestId("debate-status")).toHaveText("completed");
  const roles = await page
    .locator("[data-testid=turn][data-status=completed]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-role")));
  expect(roles.slice(0, 6)).toEqual(["politician", "scientist", "politician", "scientist", "politician", "scientist"]);
  // Stop margin 0.1 - 0.9 stays below the threshold: two checkpoints, both "continue", said in words
  // with the judge's leaning on the product's scale (never its code, HALF-TRUE).
  await expect(page.getByTestId("checkpoint")).toHaveCount(2);
  const checkpoint = page.getByTestId("checkpoint").first();
  await expect(checkpoint).toContainText("the debate goes on · the judge leans to Half true");
  await expect(checkpoint).toContainText("The judge is 85% sure of its leaning, Half true;");
  await expect(checkpoint).not.toContainText("HALF-TRUE");
  // A citation highlights its passage, and the passage lists the turns citing it.
  await page.locator("[data-testid=turn]").first().getByRole("button", { name: "Show evidence E2" }).click();
  await expect(page.locator("[data-testid=evidence][data-rank='2']")).toHaveAttribute("data-selected", "true");
  await expect(page.locator("[data-testid=evidence][data-rank='2']")).toContainText("cited by turns 1, 2");
  await page.screenshot({ path: "test-results/debate.png", fullPage: true });
});

test("the judge stops early when confident, and says so", async ({ page }) => {
  await submit(page, "This claim should settle early: the medal was sold for the 2022 war.");
  await expect(page.getByTestId("verdict")).toContainText("stopped early after the opening", { timeout: 60_000 });
  await expect(page.getByTestId("checkpoint")).toHaveCount(1);
  await expect(page.getByTestId("checkpoint")).toContainText("the debate stops here");
  await expect(page.locator("[data-testid=turn][data-kind=speech][data-status=completed]")).toHaveCount(2);
});

test("reloading and a second browser show the same debate, with no text lost", async ({ page, browser }) => {
  const url = await submit(page, "SLOW: the boxer's 2012 auction helped children in the 2022 war.");
  await expect(page.locator("[data-testid=turn][data-status=completed]").first()).toBeVisible({ timeout: 30_000 });
  await page.reload();
  // After the reload the finished turns come from the database and the live one keeps streaming.
  await expect(page.locator("[data-testid=turn][data-status=completed]").first()).toBeVisible();
  const other = await browser.newPage();
  await other.goto(url);
  // Both pages are on the running debate: the rest may stream at the normal speed.
  await hurry("helped children in the 2022 war");
  await expect(page.getByTestId("verdict")).toBeVisible({ timeout: 90_000 });
  await expect(other.getByTestId("verdict")).toBeVisible({ timeout: 30_000 });
  const mine = await turnTexts(page);
  expect(mine.length).toBeGreaterThanOrEqual(6);
  expect(await turnTexts(other)).toEqual(mine);
  // And what the pages show is what was stored.
  await other.reload();
  expect(await turnTexts(other)).toEqual(mine);
  await other.close();
});

test("closing the tab does not stop the debate", async ({ page, browser }) => {
  const url = await submit(page, "SLOW: the debate goes on after the tab is closed.");
  await page.close();
  const later = await browser.newPage();
  await later.goto(url);
  await hurry("goes on after the tab is closed");
  await expect(later.getByTestId("verdict")).toBeVisible({ timeout: 90_000 });
  await expect(later.getByTestId("debate-status")).toHaveText("completed");
  await later.close();
});

test("Stop keeps the half-written turn, marked stopped, and Resume continues from the last finished turn", async ({
  page,
}) => {
  await submit(page, "SLOW: stop me after the first statement about the medal.");
  await expect(page.locator("[data-testid=turn][data-status=completed]").first()).toBeVisible({ timeout: 30_000 });
  // Stop while the second speaker is part-way through.
  await expect(page.locator("[data-testid=turn][data-status=streaming]")).toContainText("Speaking as", {
    timeout: 15_000,
  });
  await page.getByRole("button", { name: "Stop debate" }).click();
  await expect(page.getByTestId("debate-status")).toContainText("stopped", { timeout: 15_000 });
  await page.reload();
  await expect(page.getByTestId("debate-status")).toContainText("stopped");
  const finished = await page.locator("[data-testid=turn][data-status=completed]").count();
  expect(finished).toBeGreaterThanOrEqual(1);
  // What the stopped turn had written survives the reload, labelled as stopped.
  const stopped = page.locator("[data-testid=turn][data-status=stopped]");
  await expect(stopped).toHaveCount(1);
  await expect(stopped).toContainText("Speaking as");
  await expect(stopped).toContainText("stopped");
  await expect(page.getByTestId("verdict")).toHaveCount(0);

  await page.getByRole("button", { name: "Resume from the last finished turn" }).click();
  await hurry("stop me after the first statement");
  await expect(page.getByTestId("verdict")).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId("debate-status")).toContainText("completed");
  await page.reload();
  // The finished turns were kept, the stopped one stays as it was, and the debate ran to the end once.
  const roles = await page
    .locator("[data-testid=turn][data-kind=speech][data-status=completed]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-role")));
  expect(roles).toEqual(["politician", "scientist", "politician", "scientist", "politician", "scientist"]);
  await expect(page.locator("[data-testid=turn][data-status=stopped]")).toHaveCount(1);
});

test("a running debate shows one card per turn after a reload, and the page logs no errors", async ({
  page,
  browser,
}) => {
  const url = await submit(page, "SLOW: one card per turn while the medal debate runs.");
  await expect(page.locator("[data-testid=turn][data-status=completed]").first()).toBeVisible({ timeout: 30_000 });
  for (const p of [page, await browser.newPage()]) {
    if (p === page) await p.reload();
    else await p.goto(url);
    await expect(p.locator("[data-testid=turn][data-status=streaming]")).toContainText("Speaking as", {
      timeout: 15_000,
    });
    const seqs = await p.locator("[data-testid=turn]").evaluateAll((els) => els.map((e) => e.getAttribute("data-seq")));
    expect(seqs.length).toBeGreaterThanOrEqual(2);
    expect(new Set(seqs).size).toBe(seqs.length);
    await expect(p.locator("[data-testid=turn][data-status=streaming]")).toHaveCount(1);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.screenshot({ path: "test-results/debate-running-1280.png", fullPage: true });
  await page.setViewportSize({ width: 375, height: 740 });
  await page.screenshot({ path: "test-results/debate-running-375.png", fullPage: true });
  await page.getByRole("button", { name: "Stop debate" }).click();
});

test("model retries show on the turn as they happen", async ({ page }) => {
  // The scripted server answers the first speech of a "RATE LIMITED" claim with 429 and retry-after.
  await submit(page, "RATE LIMITED: the boxer's medal sale is checked while the provider throttles.");
  await expect(page.locator("[data-testid=turn]").first()).toContainText(/retrying \(1 of \d+\) after a rate limit/, {
    timeout: 15_000,
  });
  await expect(page.getByTestId("verdict")).toBeVisible({ timeout: 60_000 });
});

test("agent output is shown as text, never as HTML", async ({ page }) => {
  await submit(page, "INJECT: the medal auction helped children in 2022.", { variant: "expertise" });
  const first = page.locator("[data-testid=turn][data-status=completed]").first();
  await expect(first).toContainText('<img src=x onerror="window.__pwned=1">', { timeout: 30_000 });
  await expect(first).toContainText("<script>window.__pwned=2</script>");
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await first.locator("img, script").count()).toBe(0);
});

test("a claim that is too short is refused with the reason, and the form keeps what was typed", async ({ page }) => {
  await page.goto("/debates/new");
  await page.getByLabel("Claim", { exact: true }).fill("Too short");
  await page.getByLabel("Paste gold evidence").check();
  await page.getByLabel(/Evidence passages, one per paragraph/).fill(EVIDENCE);
  await page.getByRole("button", { name: "Start debate" }).click();
  await expect(page.locator("#claim-error")).toContainText("at least 10 characters");
  await expect(page.getByLabel("Claim", { exact: true })).toHaveValue("Too short");
  await expect(page).toHaveURL(/\/debates\/new$/);
});

test("the debates list filters by verdict and finds claims by text", async ({ page }) => {
  await page.goto("/debates?verdict=HALF-TRUE");
  const list = page.getByTestId("debate-list");
  await expect(list).toContainText("The boxer sold his medal to help children in the 2022 war.");
  await expect(list).not.toContainText("one card per turn while the medal debate runs");
  await page.goto("/debates?q=stop%20me");
  await expect(page.getByTestId("debate-list").locator("li")).toHaveCount(1);
});

for (const [width, height] of [
  [1280, 720],
  [375, 740],
] as const) {
  test(`a finished debate reads verdict first at ${width} px, without sideways scrolling`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto("/debates?verdict=HALF-TRUE");
    await page
      .getByTestId("debate-list")
      .getByRole("link", { name: /The boxer sold his medal to help children in the 2022 war/ })
      .click();
    const summary = page.getByTestId("verdict-summary");
    await expect(summary).toContainText("Half true");
    await expect(summary).toContainText("85%");
    await expect(summary).toContainText("The sale happened in 2012");
    await expect(summary).toContainText("3 rounds");
    await expect(summary).toContainText("cost");
    // The whole summary is in the first screenful.
    const box = (await summary.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(height);
    // Its link leads down to the judge's card.
    await summary.getByRole("link", { name: /judge's reasoning/ }).click();
    await expect(page.getByTestId("verdict")).toBeInViewport();
    // The checkpoint charts speak plainly; the technical names are in the tooltips.
    const cp = page.getByTestId("checkpoint").first();
    await expect(cp).toContainText("Ready to stop?");
    await expect(cp).toContainText("Judge's confidence");
    await expect(cp).not.toContainText("stop margin s");
    await expect(cp).not.toContainText("top-logprobs");
    await expect(cp.locator('[title*="stop margin"]').first()).toBeAttached();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/debate-finished-${width}.png`, fullPage: true });
  });
}

test("the four-agent debate names the domain expert's field", async ({ page }) => {
  await submit(page, "The boxer's medal auction in 2012 helped children in the 2022 war.", { variant: "four-agent" });
  await expect(page.locator("[data-testid=turn][data-role=domain-expert]").first()).toContainText(/Economy expert/, {
    timeout: 30_000,
  });
});

test("a share link is shown in full and can be copied", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/debates?verdict=HALF-TRUE");
  await page.getByTestId("debate-list").locator("a").first().click();
  await page.getByTestId("share-controls").locator("summary").click();
  await page.getByRole("button", { name: "Create a link" }).click();
  const link = page.getByTestId("share-link").first();
  await expect(link).toHaveText(new RegExp(`^${baseURL}/share/[A-Za-z0-9_-]+$`));
  await page.getByTestId("share-controls").getByRole("button", { name: "Copy link" }).first().click();
  await expect(page.getByTestId("share-controls").getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await link.textContent());
});

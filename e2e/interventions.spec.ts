import { expect, test } from "./fixtures";
import { startPastEarlierChecks } from "./match-helpers";
import { USERS } from "./users";

/*
 * Issue 39 in the browser: a person in the newsroom who may control debates (the fact-checker
 * account; the "journalist" role may share debates but not steer them) adds a passage and asks a
 * question while a debate runs, and the next turn answers it. The scripted model
 * (e2e/fake-openai.mjs) answers a prompt that carries the question with a sentence about it, so
 * the turn that answered is found by its words, and the turn before the question must not have them.
 */

const CLAIM = "SLOW: the council spends 40 % of its budget on roads.";
const EVIDENCE = "The council's 2025 report lists roads as its largest item.\n\nA blog says roads take half the money.";
const QUESTION = "Does the 40 % include capital spending?";

test("a person adds a passage and a question mid-debate, and the next turn answers it", async ({ page, browser }) => {
  await page.goto("/debates/new");
  await page.getByLabel("Claim", { exact: true }).fill(CLAIM);
  await page.getByLabel("Paste gold evidence").check();
  await page.getByLabel(/Evidence passages, one per paragraph/).fill(EVIDENCE);
  await startPastEarlierChecks(page, page.getByRole("button", { name: "Start debate" }), /\/debates\/[0-9a-f-]{36}$/);
  await page.waitForURL(/\/debates\/[0-9a-f-]{36}$/);
  const url = page.url();

  // Someone who may only read or share the debate is offered nothing to do.
  const reader = await browser.newContext({ storageState: USERS.journalist.state });
  const readerPage = await reader.newPage();
  await readerPage.goto(url);
  await expect(readerPage.getByRole("heading", { level: 1 })).toContainText("40 %");
  await expect(readerPage.getByTestId("intervention-panel")).toHaveCount(0);
  await reader.close();

  const context = await browser.newContext({ storageState: USERS.factchecker.state });
  const fc = await context.newPage();
  await fc.goto(url);
  const panel = fc.getByTestId("intervention-panel");
  await expect(panel).toBeVisible();
  // The first turn is being written: the intervention enters the debate while it runs.
  await expect(fc.locator("[data-testid=turn]").first()).toBeVisible({ timeout: 30_000 });

  await panel.getByRole("button", { name: "Add evidence" }).click();
  await panel.getByLabel("Pasted text").check();
  await panel.getByLabel("Source's name").fill("Council budget 2025");
  await panel.getByLabel("The text").fill("Capital spending is 12 % of the budget; roads take 9 % of running costs.");
  await panel.getByRole("button", { name: "Add to the evidence" }).click();
  await expect(panel.getByTestId("intervention-sent")).toContainText("Council budget 2025");

  await panel.getByRole("button", { name: "Ask a question" }).click();
  await panel.getByLabel("A question the next turn must address").fill(QUESTION);
  await panel.getByRole("button", { name: "Ask", exact: true }).click();
  await expect(panel.getByTestId("intervention-sent")).toContainText("capital spending");
  // On the record at once, for the person who sent it.
  await expect(fc.locator("[data-testid=intervention][data-kind=ask]")).toBeVisible();

  await expect(fc.getByTestId("verdict")).toBeVisible({ timeout: 120_000 });
  // What was stored, as any viewer opening the page now sees it.
  await fc.reload();
  // The verdict says people took part, before anyone reads down to the transcript.
  await expect(fc.getByTestId("verdict-interventions")).toContainText(
    "People added a passage of evidence and asked a question during this debate",
  );
  const asked = fc.locator("[data-testid=intervention][data-kind=ask]");
  await expect(asked).toHaveAttribute("data-status", "applied");
  const before = Number(await asked.getAttribute("data-before"));
  expect(before).toBeGreaterThan(1);
  const answeredBy = await asked.getByTestId("answered-by").textContent();
  const answered = Number(/Answered in turn (\d+)/.exec(answeredBy ?? "")?.[1]);
  expect(answered).toBeGreaterThanOrEqual(before);
  await expect(fc.locator(`[data-testid=turn][data-seq='${answered}']`)).toContainText("capital spending");
  // The turns before the question never heard it.
  for (const seq of await fc
    .locator("[data-testid=turn][data-kind=speech]")
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-seq")))))
    if (seq < before)
      await expect(fc.locator(`[data-testid=turn][data-seq='${seq}']`)).not.toContainText("capital spending");
  // The added passage is in the evidence, labelled as a person's.
  await expect(fc.locator("[data-testid=evidence]", { hasText: "Capital spending is 12 %" })).toContainText("added by");
  await fc.screenshot({ path: "test-results/interventions.png", fullPage: true });

  // A share link shows the same record to someone signed out: who intervened by display name
  // (never an email), what they asked, the verdict's note; and nothing to steer the debate with.
  await fc.getByTestId("share-controls").locator("summary").click();
  await fc.getByRole("button", { name: "Create a link" }).click();
  const shareUrl = await fc.getByTestId("share-link").first().textContent();
  const outsider = await browser.newContext();
  const shared = await outsider.newPage();
  await shared.goto(shareUrl!);
  await expect(shared.getByTestId("verdict-interventions")).toContainText("People added a passage of evidence");
  const sharedAsk = shared.locator("[data-testid=intervention][data-kind=ask]");
  await expect(sharedAsk).toContainText("capital spending");
  await expect(sharedAsk).toHaveAttribute("data-status", "applied");
  await expect(shared.getByTestId("intervention-panel")).toHaveCount(0);
  await expect(shared.locator("body")).not.toContainText(USERS.factchecker.email);
  await outsider.close();

  await fc.setViewportSize({ width: 375, height: 800 });
  await fc.goto(url);
  await expect(fc.getByTestId("verdict-interventions")).toBeVisible();
  expect(await fc.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await fc.screenshot({ path: "test-results/interventions-375.png" });
  await context.close();
});

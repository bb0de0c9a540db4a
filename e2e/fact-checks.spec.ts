import { expect, test, type Browser, type Page } from "./fixtures";
import { startPastEarlierChecks } from "./match-helpers";
import { PASSWORD } from "./users";
import { noSidewaysScroll } from "./tool-mad-helpers";
import { googleProblems, vocabularyProblems } from "../tests/helpers/claim-review-check";

/*
 * The editor's workflow in the browser: an editor turns a finished debate into a draft, the
 * newsroom asks for a second person, another editor approves, and anyone (signed out) reads the
 * public page with its rating and valid ClaimReview JSON-LD; a correction adds a version and the
 * page shows its dated note.
 */

const CLAIM = "The mayor said bus fares fell by half in 2024.";
const EVIDENCE =
  "The 2024 transport report shows bus fares fell by 12 percent.\n\nA single ticket cost 2.50 in 2023 and 2.20 in 2024.";

/** The admin invites someone with the editor role only; they join and their signed-in page is returned. */
async function inviteEditor(admin: Page, browser: Browser, name: string): Promise<Page> {
  await admin.goto("/admin");
  const form = admin.locator("form", { has: admin.getByRole("button", { name: "Create invitation link" }) });
  await form.getByLabel("Email").fill(`${name}@e2e.test`);
  for (const role of ["admin", "fact-checker", "journalist", "annotator", "editor"]) {
    const box = form.getByLabel(role, { exact: true });
    if ((await box.isChecked()) !== (role === "editor")) await box.click();
  }
  await admin.getByRole("button", { name: "Create invitation link" }).click();
  await expect(admin.getByRole("status").filter({ hasText: `${name}@e2e.test` })).toBeVisible();
  const link = (await admin.getByTestId("invite-link").textContent())!.trim();
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto(link);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Password again").fill(PASSWORD);
  await page.getByRole("button", { name: "Create my account" }).click();
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
  return page;
}

async function claimReviewOn(page: Page) {
  const text = await page.locator("script[type='application/ld+json']").textContent();
  return JSON.parse(text!) as Record<string, unknown>;
}

test("a debate becomes a draft, a second editor approves it, the public reads it, and a correction shows", async ({
  page: admin,
  browser,
  allowConsoleError,
}) => {
  // The draft's public address answers 404 until it is published, which the browser logs.
  allowConsoleError(/404/);
  test.setTimeout(240_000);
  // The newsroom asks for a second person.
  await admin.goto("/admin");
  const second = admin.getByLabel(/A second person approves every fact-check/);
  if (!(await second.isChecked())) await second.check();
  await admin.getByRole("button", { name: "Save settings" }).click();
  await expect(admin.getByRole("status").filter({ hasText: "Settings saved." })).toBeVisible();
  const ed1 = await inviteEditor(admin, browser, "editor1");
  const ed2 = await inviteEditor(admin, browser, "editor2");

  // A finished debate (the admin may start one; editors need not).
  await admin.goto("/debates/new");
  await admin.getByLabel("Claim", { exact: true }).fill(CLAIM);
  await admin.getByLabel("Paste gold evidence").check();
  await admin.getByLabel(/Evidence passages, one per paragraph/).fill(EVIDENCE);
  await startPastEarlierChecks(admin, admin.getByRole("button", { name: "Start debate" }), /\/debates\/[0-9a-f-]{36}$/);
  await admin.waitForURL(/\/debates\/[0-9a-f-]{36}$/);
  const debateUrl = admin.url();
  await expect(admin.getByTestId("debate-status")).toHaveText("completed", { timeout: 90_000 });

  // Editor 1 writes the draft from the debate page; the AI's verdict is beside the form.
  await ed1.goto(debateUrl);
  await ed1.getByRole("link", { name: "Write a fact-check" }).click();
  await ed1.waitForURL(/\/fact-checks\/new\?debate=/);
  await expect(ed1.getByTestId("ai-verdict")).toContainText("Half true");
  await ed1.getByLabel("Rating on the scale", { exact: true }).selectOption("FALSE");
  await ed1.getByLabel("Rating readers see", { exact: true }).fill("Mostly false");
  await ed1.getByLabel("Who said it", { exact: true }).fill("The mayor");
  await ed1.getByLabel("Where it was said", { exact: true }).fill("Council meeting");
  await ed1.getByLabel("Link to where it was said", { exact: true }).fill("https://example.org/council/2024-05");
  await ed1.getByLabel("When it was said", { exact: true }).fill("2024-05-02");
  await ed1.getByTestId("fact-check-form").getByRole("checkbox").first().check();
  await ed1.getByLabel(/Link the public page to the debate/).check();
  // Saving without an explanation is refused beside it, and nothing typed is lost.
  await ed1.getByRole("button", { name: "Save draft" }).click();
  await expect(ed1.locator("[data-field-error=explanation]")).toContainText("Write the explanation");
  await expect(ed1.getByLabel("Who said it", { exact: true })).toHaveValue("The mayor");
  await ed1
    .getByLabel(/^Explanation/)
    .fill("Fares fell by **12 percent**, not by half: see the [report](https://example.org/report).");
  await ed1.getByRole("button", { name: "Save draft" }).click();
  await ed1.waitForURL(/\/fact-checks\/[a-z0-9-]+\/edit\?saved=1$/);
  const slug = /\/fact-checks\/([a-z0-9-]+)\/edit/.exec(ed1.url())![1]!;
  await expect(ed1.getByTestId("fact-check-state")).toHaveText("a draft");
  await ed1.screenshot({ path: "test-results/fact-check-editor-1280.png", fullPage: true });
  await ed1.setViewportSize({ width: 375, height: 800 });
  expect(await noSidewaysScroll(ed1)).toBeLessThanOrEqual(0);
  await ed1.screenshot({ path: "test-results/fact-check-editor-375.png", fullPage: true });
  await ed1.setViewportSize({ width: 1280, height: 900 });
  await ed1.getByTestId("move-submit").click();
  await expect(ed1.getByTestId("fact-check-state")).toHaveText("in review");

  // Not public yet.
  const reader = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const pub = await reader.newPage();
  const before = await pub.goto(`/fact-checks/${slug}`);
  expect(before!.status()).toBe(404);

  // Editor 2 approves it from the desk.
  await ed2.goto("/fact-checks/desk");
  await ed2.getByTestId("desk-review").getByRole("link", { name: CLAIM }).click();
  await ed2.getByTestId("move-publish").click();
  await expect(ed2.getByTestId("fact-check-state")).toHaveText("published");
  await expect(ed2.getByTestId("versions")).toContainText(/Approved and published\s*by editor2@e2e\.test/);

  // Anyone reads it: the rating, who said it, the sources, and ClaimReview JSON-LD that validates.
  await pub.goto(`/fact-checks/${slug}`);
  await expect(pub.getByTestId("rating")).toContainText("Mostly false");
  await expect(pub.getByTestId("claimant")).toContainText("The mayor in Council meeting on 2 May 2024");
  await expect(pub.getByTestId("explanation").locator("strong")).toHaveText("12 percent");
  expect(await pub.getByTestId("sources").locator("li").count()).toBeGreaterThanOrEqual(1);
  await expect(pub.getByTestId("debate-link")).toHaveAttribute("href", /^\/share\/[A-Za-z0-9_-]{20,}$/);
  const ld = await claimReviewOn(pub);
  expect(googleProblems(ld)).toEqual([]);
  expect(vocabularyProblems(ld)).toEqual([]);
  expect(ld).toMatchObject({ url: new URL(`/fact-checks/${slug}`, pub.url()).href, claimReviewed: CLAIM });
  await pub.screenshot({ path: "test-results/fact-check-public-1280.png", fullPage: true });
  await pub.setViewportSize({ width: 375, height: 800 });
  expect(await noSidewaysScroll(pub)).toBeLessThanOrEqual(0);
  await pub.screenshot({ path: "test-results/fact-check-public-375.png", fullPage: true });
  // Printed, the site's navigation is left out.
  await pub.emulateMedia({ media: "print" });
  await expect(pub.locator("body > header")).toBeHidden();
  await pub.emulateMedia({ media: "screen" });

  // A correction: with the second approval on it waits, unseen by readers, for another editor.
  await ed1.goto(`/fact-checks/${slug}/edit`);
  await ed1.getByLabel("Rating readers see", { exact: true }).fill("False");
  await ed1
    .getByLabel(/Correction note/)
    .fill("An earlier version called the claim mostly false; the report is clear.");
  await ed1.getByRole("button", { name: "Send correction for approval" }).click();
  await expect(ed1.getByTestId("fact-check-saved")).toContainText("Correction saved as version 4");
  await pub.reload();
  await expect(pub.getByTestId("rating")).toContainText("Mostly false");
  // Editor 2 finds it on the desk and approves it; then readers see it with its dated note.
  await ed2.goto("/fact-checks/desk");
  await ed2.getByTestId("desk-review").getByRole("link", { name: CLAIM }).click();
  await expect(ed2.getByTestId("move-publish")).toHaveText("Approve the correction");
  for (const [width, name] of [
    [1280, "1280"],
    [375, "375"],
  ] as const) {
    await ed2.setViewportSize({ width, height: 900 });
    expect(await noSidewaysScroll(ed2)).toBeLessThanOrEqual(0);
    await ed2.screenshot({ path: `test-results/fact-check-correction-waiting-${name}.png`, fullPage: true });
  }
  await ed2.getByTestId("move-publish").click();
  await expect(ed2.getByTestId("versions")).toContainText(/Correction approved and published\s*by editor2@e2e\.test/);
  await pub.reload();
  await expect(pub.getByTestId("rating")).toContainText("False");
  await expect(pub.getByTestId("corrections")).toContainText("the report is clear");
  const corrected = await claimReviewOn(pub);
  expect(googleProblems(corrected)).toEqual([]);
  expect(corrected).toMatchObject({ reviewRating: { alternateName: "False", ratingValue: 1 } });
  await pub.screenshot({ path: "test-results/fact-check-corrected-375.png", fullPage: true });

  // A reader finds it by words of its claim and its claimant, on a phone, and is told when nothing matches.
  await pub.goto("/fact-checks");
  await pub.getByLabel("Search the fact-checks").fill("MAYOR fares");
  await pub.getByRole("button", { name: "Search" }).click();
  await expect(pub).toHaveURL(/\/fact-checks\?q=MAYOR\+fares$/);
  await expect(pub.getByTestId("fact-check-list").getByRole("link", { name: CLAIM })).toBeVisible();
  expect(await noSidewaysScroll(pub)).toBeLessThanOrEqual(0);
  await pub.screenshot({ path: "test-results/fact-check-search-375.png", fullPage: true });
  await pub.goto("/fact-checks?q=fares%20zeppelin");
  await expect(pub.getByTestId("fact-check-none")).toContainText(
    "No published fact-check has all of the words “fares”, “zeppelin”",
  );
  await pub.setViewportSize({ width: 1280, height: 900 });
  await pub.screenshot({ path: "test-results/fact-check-search-none-1280.png", fullPage: true });

  // The feeds carry it for aggregators.
  const feed = await (await pub.request.get("/fact-checks/datafeed.json")).json();
  expect(feed.dataFeedElement[0].item.claimReviewed).toBe(CLAIM);
  await reader.close();
  await ed1.context().close();
  await ed2.context().close();
});

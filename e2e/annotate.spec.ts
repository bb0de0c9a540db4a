import { expect, test, type Browser, type Page } from "./fixtures";
import { USERS } from "./users";
import { startPastEarlierChecks } from "./match-helpers";

/** Keyboard shortcuts attach when the labeling view hydrates; a key pressed before that is lost. */
async function keysReady(page: Page) {
  await expect(page.getByTestId("annotate-task")).toHaveAttribute("data-keys-ready", "true");
}

/*
 * One finished debate, started through the UI by a fact-checker, then labelled by both annotators
 * (overlap 2 by default, blind mode on by default), then read on the agreement page. The tests
 * share that state, so they run in order.
 */
test.describe.configure({ mode: "serial" });

const CLAIM = "The boxer sold his medal to help children, annotators agree.";
const EVIDENCE =
  "The boxer auctioned his Olympic medal in 2012 to fund a children's hospital.\n\nIn 2022 the war displaced millions of children.";
const RATIONALE_1 = "E1 says 2012 and a hospital, not the 2022 war.";

/*
 * The page goes before its context: a debate page may still hold its event stream open, and the
 * trace Playwright zips on closing a context fails when a recorded response is still growing.
 */
async function done(page: Page) {
  await page.goto("about:blank");
  await page.context().close();
}

async function as(browser: Browser, who: keyof typeof USERS): Promise<Page> {
  const context = await browser.newContext({ storageState: USERS[who].state });
  return context.newPage();
}

test("a fact-checker's finished debate is labelled with the keyboard, kept as a draft, saved, and edited as a new version", async ({
  browser,
}) => {
  const fc = await as(browser, "factchecker");
  await fc.goto("/debates/new");
  await fc.getByLabel("Claim", { exact: true }).fill(CLAIM);
  await fc.getByLabel("Paste gold evidence").check();
  await fc.getByLabel(/Evidence passages, one per paragraph/).fill(EVIDENCE);
  await startPastEarlierChecks(fc, fc.getByRole("button", { name: "Start debate" }), /\/debates\/[0-9a-f-]{36}$/);
  await fc.waitForURL(/\/debates\/[0-9a-f-]{36}$/);
  await expect(fc.getByTestId("verdict")).toContainText("Half true", { timeout: 60_000 });
  await done(fc);

  const page = await as(browser, "annotator1");
  await page.goto("/annotate");
  await expect(page.getByTestId("task-claim")).toHaveText(CLAIM);
  await expect(page.getByTestId("turn").first()).toBeVisible();
  // Turns are numbered as shown: a hidden checkpoint step takes no number (it said 1, 2, 5).
  const numbers = await page
    .getByTestId("annotate-turn")
    .evaluateAll((xs) => xs.map((x) => x.getAttribute("data-number")));
  expect(numbers.length).toBeGreaterThan(0);
  expect(numbers).toEqual(numbers.map((_, i) => String(i + 1)));
  // The AI's verdict would anchor the label: neither shown nor sent before the annotator picks one.
  await expect(page.getByTestId("verdict-hidden")).toBeVisible();
  await expect(page.getByTestId("verdict")).toHaveCount(0);
  await expect(page.getByTestId("judge-said")).toHaveCount(0);
  await expect(page.getByText(/The judge.s working/)).toHaveCount(0);
  // Not only hidden: the judge's scores and verdict are not in what the server sent (its data carries these keys).
  const sent = await page.content();
  expect(sent).not.toContain("labelProbs");
  expect(sent).not.toContain("stoppedEarly");
  await expect(
    page.getByTestId("turn").filter({ has: page.locator("[data-kind]:not([data-kind=speech])") }),
  ).toHaveCount(0);
  // The label form stays beside the transcript wherever one reads in it.
  const saveButton = page.getByRole("button", { name: /Save and next/ });
  await expect(saveButton).toBeInViewport();
  await page.getByTestId("turn").last().scrollIntoViewIfNeeded();
  await expect(page.getByTestId("turn").last()).toBeInViewport();
  await expect(saveButton).toBeInViewport();
  await expect(page.getByRole("radiogroup", { name: "Gold label" })).toBeInViewport();
  await page.screenshot({ path: "test-results/annotate-1280-before-label.png" });
  // Columns start on the same line.
  const tops = await Promise.all(
    [page.getByTestId("transcript"), page.getByTestId("label-panel")].map(async (l) => (await l.boundingBox())!.y),
  );
  expect(Math.abs(tops[0]! - tops[1]!)).toBeLessThan(2);
  await expect(page.getByTestId("guidelines")).toContainText("Annotation guidelines");
  await expect(page.getByTestId("shortcuts")).toContainText("save and next");
  const gold = page.getByRole("radiogroup", { name: "Gold label" });
  await keysReady(page);
  await page.keyboard.press("2");
  await expect(gold.getByRole("radio", { name: /Half true/ })).toHaveAttribute("aria-checked", "true");
  // Once labelled, the judge's verdict is there to say whether it was right.
  await expect(page.getByTestId("judge-said")).toContainText("Half true");
  await expect(page.getByTestId("verdict")).toContainText("Half true");
  await keysReady(page);
  await page.keyboard.press("y");
  await expect(
    page.getByRole("radiogroup", { name: "Was the judge right?" }).getByRole("radio", { name: /Yes/ }),
  ).toHaveAttribute("aria-checked", "true");
  // Typing in the rationale: digits and Enter are text there, not shortcuts.
  const rationale = page.getByLabel("Rationale");
  await rationale.click();
  await page.keyboard.type("E1 says 2012 and a hospital, not the 2022 war.");
  await keysReady(page);
  await page.keyboard.press("Enter");
  await expect(gold.getByRole("radio", { name: /Half true/ })).toHaveAttribute("aria-checked", "true");
  await expect(page.getByTestId("save-status")).toHaveText("");
  await page.getByTestId("turn").first().locator("xpath=..").getByLabel("missed context").check();
  // The draft survives a reload.
  await page.reload();
  await expect(page.getByText("Restored your unsaved draft")).toBeVisible();
  await expect(page.getByLabel("Rationale")).toHaveValue(`${RATIONALE_1}\n`);
  await expect(gold.getByRole("radio", { name: /Half true/ })).toHaveAttribute("aria-checked", "true");
  await page.screenshot({ path: "test-results/annotate.png", fullPage: true });
  await keysReady(page);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("saved-notice")).toHaveText(/Saved your label Half true \(version 1\)/);
  await expect(page.getByTestId("recent-labels")).toContainText(CLAIM);
  // Nothing else is open for this annotator: the queue says so.
  await expect(page.getByTestId("queue-empty")).toBeVisible();

  // An edit is version 2, and the history shows both with who and what changed.
  await page.getByTestId("recent-labels").getByRole("link", { name: "Edit" }).click();
  await expect(page.getByText("You labelled this before (version 1)")).toBeVisible();
  await expect(page.getByLabel("Rationale")).toHaveValue(RATIONALE_1);
  await keysReady(page);
  await page.keyboard.press("1");
  await keysReady(page);
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("saved-notice")).toHaveText(/Saved your label True \(version 2\)/);
  await page.getByTestId("recent-labels").getByRole("link", { name: "Edit" }).click();
  const history = page.getByTestId("version-history");
  await expect(history.locator("li")).toHaveCount(2);
  await expect(history.locator("li").nth(1)).toContainText(`edit by ${USERS.annotator1.email}`);
  await expect(history.locator("li").nth(1)).toContainText("Half true, judge right");
  await expect(history.locator("li").nth(1)).toContainText("→ True, judge right");
  await done(page);
});

test("in blind mode the second annotator gets the same debate without the first's label, and sees it after submitting", async ({
  browser,
  allowConsoleError,
}) => {
  // The save is cut off on purpose below; the browser logs each aborted POST.
  allowConsoleError(/net::ERR_FAILED/);
  const page = await as(browser, "annotator2");
  // The statistics must not give the first label away either.
  await page.goto("/agreement");
  await expect(page.getByTestId("agreement-counts")).toContainText("0 debates");
  await expect(page.getByTestId("agreement-counts")).toContainText("1 other hidden");
  await page.goto("/annotate");
  await expect(page.getByTestId("task-claim")).toHaveText(CLAIM);
  // A stray "s" skips, says so, and can be undone; the counts agree with the empty queue meanwhile.
  await keysReady(page);
  await page.keyboard.press("s");
  await expect(page.getByTestId("skip-notice")).toContainText(CLAIM);
  await expect(page.getByTestId("queue-empty")).toContainText("Nothing left for you to label");
  await expect(page.getByTestId("queue-summary")).toContainText("0 debates for you");
  await expect(page.getByTestId("queue-summary")).toContainText("skipped 1");
  await page.getByRole("button", { name: "Undo skip" }).click();
  await expect(page.getByTestId("task-claim")).toHaveText(CLAIM);
  await expect(page.getByTestId("queue-summary")).toContainText("1 debate for you");

  // On a phone the label sheet stays at the bottom of the screen while the transcript scrolls.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByTestId("turn").nth(1).scrollIntoViewIfNeeded();
  await expect(page.getByRole("button", { name: /Save and next/ })).toBeInViewport();
  await expect(page.getByRole("radiogroup", { name: "Gold label" })).toBeInViewport();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/annotate-375.png" });
  await page.getByRole("button", { name: "More ▴" }).click();
  await page.screenshot({ path: "test-results/annotate-375-more.png" });
  await page.setViewportSize({ width: 1280, height: 720 });
  const html = await page.content();
  expect(html).not.toContain(USERS.annotator1.email);
  expect(html).not.toContain(RATIONALE_1);
  await expect(page.getByTestId("other-labels")).toHaveCount(0);
  // Shortcuts still work while a ticked evidence flag has the focus.
  await page.getByTestId("evidence-flag").first().getByLabel("relevant", { exact: true }).check();
  await keysReady(page);
  await page.keyboard.press("1");
  await expect(page.getByTestId("judge-said")).toBeVisible();
  await keysReady(page);
  await page.keyboard.press("n");
  // A save that cannot reach the server is retried, then reported, and nothing typed is lost.
  const refuse = (route: import("./fixtures").Route) =>
    route.request().method() === "POST" ? route.abort() : route.continue();
  await page.route(/\/annotate/, refuse);
  await keysReady(page);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("save-status")).toContainText("trying again");
  await expect(page.getByTestId("save-status")).toContainText("Not saved: the server could not be reached", {
    timeout: 15_000,
  });
  await expect(
    page.getByRole("radiogroup", { name: "Gold label" }).getByRole("radio", { name: /^True/ }),
  ).toHaveAttribute("aria-checked", "true");
  await page.unroute(/\/annotate/, refuse);
  await keysReady(page);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("saved-notice")).toHaveText(/Saved your label True \(version 1\)/);
  await page.getByTestId("recent-labels").getByRole("link", { name: "Edit" }).click();
  await expect(page.getByTestId("other-labels")).toContainText(`${USERS.annotator1.email}: True`);
  await done(page);
});

test("the agreement page shows the statistics of the two labels, and only the right roles open /annotate", async ({
  page,
  browser,
}) => {
  await page.goto("/agreement");
  await expect(page.getByTestId("agreement-counts")).toContainText(
    "1 debate (1 with two or more labels, which agreement is measured on) · 2 labels · 2 annotators",
  );
  await expect(page.getByTestId("pairs")).toContainText(`${USERS.annotator1.email} · ${USERS.annotator2.email}`);
  await expect(page.getByTestId("pairs")).toContainText("100%");
  // Both said TRUE where the judge said HALF-TRUE.
  await expect(page.locator('[data-testid=confusion] td[data-judge="HALF-TRUE"][data-gold="TRUE"]')).toHaveText("1");
  await expect(page.getByTestId("judge-accuracy")).toContainText("0.00");
  // The matrix's headings are the scale in words, never the codes.
  await expect(page.getByTestId("confusion").locator("th")).toContainText(["True", "Half true", "False"]);
  await expect(page.getByTestId("confusion")).not.toContainText("HALF-TRUE");
  await expect(page.locator(`[data-testid=annotators] tr[data-annotator="${USERS.annotator2.email}"]`)).toContainText(
    "100% of 1",
  );
  await expect(page.getByTestId("export-links").getByRole("link", { name: "CSV" })).toHaveAttribute(
    "href",
    "/api/export?format=csv",
  );
  await page.screenshot({ path: "test-results/agreement.png", fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/agreement-375.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
  // An admin is not an annotator.
  await page.goto("/annotate");
  await expect(page).toHaveURL(/\/forbidden/);
  const journalist = await as(browser, "journalist");
  await journalist.goto("/annotate");
  await expect(journalist).toHaveURL(/\/forbidden/);
  await journalist.goto("/debates");
  await expect(journalist.getByTestId("export-links")).toHaveCount(0);
  await done(journalist);
});

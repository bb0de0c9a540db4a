import { expect, test } from "./fixtures";
import { columns, watchGrowing } from "./compare-helpers";
import { ensureDemoCorpus, noSidewaysScroll } from "./tool-mad-helpers";
import { startPastEarlierChecks } from "./match-helpers";
import { hurry, resetHurry } from "./hurry";

/*
 * One claim, four methods, one page. e2e/fake-openai.mjs answers every protocol's prompts (RADAR,
 * Tool-MAD, ZoFia, PROClaim); "SLOW" in the claim makes them write 8x slower, so the four debates
 * can be watched writing at the same time and the page reloaded while they do.
 */

const CLAIM = "SLOW: Governor Elena Marsh raised $2.4 million at a charity auction for the Cedar River flood families.";
const METHODS = ["radar", "tool-mad", "zofia", "proclaim"];

test.afterEach(resetHurry);

test("a journalist compares four methods on one claim: they stream side by side, a reload loses nothing, then each row shows its verdict, tokens and cost beside the ensemble", async ({
  page,
}) => {
  test.setTimeout(900_000);
  await ensureDemoCorpus(page);
  await page.goto("/debates/new?compare=1");
  const form = page.getByTestId("compare-form");
  for (const m of METHODS) await form.locator(`input[name=method][value=${m}]`).check();
  await form.getByLabel("Claim", { exact: true }).fill(CLAIM);
  await form.getByLabel("Corpus", { exact: true }).selectOption("demo");
  await form.getByRole("radio", { name: "Majority vote" }).check();
  await startPastEarlierChecks(
    page,
    form.getByRole("button", { name: "Start 4 debates" }),
    /\/compare\/[0-9a-f-]{36}$/,
  );
  await page.waitForURL(/\/compare\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  const url = page.url();

  // Verdict first, and it says it is provisional while the methods argue.
  await expect(page.getByTestId("compare-claim")).toHaveText(CLAIM);
  await expect(page.getByTestId("compare-row")).toHaveCount(4);
  await expect(page.getByTestId("compare-column")).toHaveCount(4);
  await expect(page.getByTestId("compare-outcome")).toHaveAttribute("data-provisional", "true");
  await expect(page.getByTestId("compare-provisional")).toContainText("still arguing");
  await expect(page.getByTestId("compare-ensemble-row")).toContainText("not a method of its own");

  // At least three debates write at once: text grows in three columns while none has finished.
  const growing = await watchGrowing(page, 3, 180_000);
  expect(growing.length).toBeGreaterThanOrEqual(3);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: "test-results/compare-running-1280.png", fullPage: true });
  // Side by side on a wide screen: the four columns start at the same height.
  const tops = await page
    .getByTestId("compare-column")
    .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
  expect(new Set(tops).size).toBe(1);

  // Reload mid-stream: every finished turn is still there, and live text resumes.
  await expect
    .poll(
      async () => (await columns(page)).some((c) => c.finished.length > 0 && ["queued", "running"].includes(c.status)),
      { timeout: 120_000 },
    )
    .toBe(true);
  const before = await columns(page);
  expect(before.some((c) => ["queued", "running"].includes(c.status))).toBe(true);
  await page.reload();
  const after = await columns(page);
  for (const b of before) {
    const a = after.find((c) => c.protocol === b.protocol)!;
    for (const t of b.finished) expect(a.finished, `${b.protocol} lost a finished turn on reload`).toContain(t);
  }
  await watchGrowing(page, 1, 120_000, { allowFinished: true });
  await page.setViewportSize({ width: 375, height: 740 });
  expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
  // Stacked on a phone: each column below the one before.
  const stacked = await page
    .getByTestId("compare-column")
    .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
  expect(stacked).toEqual([...stacked].sort((x, y) => x - y));
  expect(new Set(stacked).size).toBe(stacked.length);
  await page.screenshot({ path: "test-results/compare-running-375.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Watched mid-stream at both widths: the rest of the four debates may stream at the normal speed.
  await hurry("Cedar River flood families");
  // All four finish; each row updates by itself (no reload) with its verdict, tokens and cost.
  await expect(
    page.locator("[data-testid=compare-row][data-status=running], [data-testid=compare-row][data-status=queued]"),
  ).toHaveCount(0, { timeout: 720_000 });
  await expect(page.getByTestId("compare-outcome")).toHaveAttribute("data-provisional", "false", { timeout: 30_000 });
  await expect(page.getByTestId("compare-provisional")).toHaveCount(0);
  const rows = page.getByTestId("compare-row");
  for (let i = 0; i < 4; i++) {
    const row = rows.nth(i);
    await expect(row).toHaveAttribute("data-status", "completed");
    await expect(row.getByTestId("compare-verdict")).not.toContainText(/still arguing|waiting|ended without/);
    const tokens = Number((await row.getByTestId("compare-tokens").innerText()).replace(/[^0-9]/g, ""));
    expect(tokens).toBeGreaterThan(0);
    await expect(row.getByTestId("compare-cost")).toHaveText(/\$|unknown/);
    await expect(row).not.toContainText("so far");
  }
  const sentence = await page.getByTestId("compare-agreement").innerText();
  expect(sentence).toMatch(/say|says/);
  expect(sentence).not.toMatch(/still arguing|waiting/);
  // The ensemble is its own row, after the methods', and says what it is.
  const ensemble = page.getByTestId("compare-ensemble-row");
  await expect(ensemble).toContainText("majority vote of 4 methods, not a method of its own");
  await expect(ensemble).toContainText("final");
  // A majority vote needs more than half of the votes cast; otherwise it says there is none.
  const cast: string[] = [];
  for (let i = 0; i < 4; i++) {
    const product = await rows.nth(i).getAttribute("data-product");
    if (product) cast.push(product);
  }
  const words: Record<string, string> = { TRUE: "True", "HALF-TRUE": "Half true", FALSE: "False" };
  const winner = Object.keys(words).find((l) => cast.filter((c) => c === l).length * 2 > cast.length);
  await expect(ensemble.getByTestId("compare-verdict")).toContainText(winner ? words[winner]! : "no majority");
  // Why: one reason per method.
  await expect(page.getByTestId("compare-reason")).toHaveCount(4);

  // No machine output on the page: the steps are in each method's plain words.
  expect(await page.locator("main").innerText()).not.toMatch(
    /\{"|\[(REASON|ANSWER|VERDICT)\]|DECISION:|QUERY:|Embedded \d+ texts?/,
  );

  // /debates filtered by False (the product's scale) lists every method that said false here,
  // in whatever words it said it (FALSE, FAKE, NOT SUPPORTED, REFUTES), and none that did not.
  const saidFalse = new Set<string>();
  for (let i = 0; i < 4; i++) {
    const row = rows.nth(i);
    if ((await row.getAttribute("data-product")) === "FALSE")
      saidFalse.add((await row.getByRole("link").first().getAttribute("href"))!);
  }
  expect(saidFalse.size).toBeGreaterThan(0);
  await page.goto(`/debates?${new URLSearchParams({ verdict: "FALSE", q: CLAIM })}`);
  const listed = page.getByTestId("debate-list").getByRole("link");
  const hrefs = new Set(await listed.evaluateAll((as) => as.map((a) => a.getAttribute("href"))));
  expect(hrefs).toEqual(saidFalse);
  for (const product of await page
    .getByTestId("debate-verdict")
    .evaluateAll((xs) => xs.map((x) => x.getAttribute("data-product"))))
    expect(product).toBe("FALSE");
  await page.screenshot({ path: "test-results/debates-false-1280.png", fullPage: true });
  await page.setViewportSize({ width: 375, height: 740 });
  expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/debates-false-375.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url);

  // Each method's name opens its own debate, which is one of this comparison's.
  const href = await rows.first().getByRole("link").getAttribute("href");
  expect(href).toMatch(/^\/debates\/[0-9a-f-]{36}$/);
  await page.goto(href!);
  await page.getByTestId("comparison-back-link").getByRole("link").click();
  await page.waitForURL(url);
  // The export links answer with the comparison's files.
  const csv = await page.request.get(`${url.replace(/\/$/, "")}/export?format=csv`);
  expect(csv.status()).toBe(200);

  for (const [width, height] of [
    [1280, 900],
    [375, 740],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.reload();
    await expect(page.getByTestId("compare-outcome")).toHaveAttribute("data-provisional", "false");
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/compare-finished-${width}.png`, fullPage: true });
  }
});

import { expect, test } from "./fixtures";

/*
 * Issue 38 in the browser: open a live session, push transcript lines through the API as a
 * captioner would, and watch the cards arrive on the open board without a reload; a repeat is
 * grouped; a card is dismissed; a line in Cyrillic says it was not scored; the archive downloads and
 * the session closes, refusing later lines. At 1280 and 375 px, nothing scrolls sideways.
 */

async function noSidewaysScroll(page: import("@playwright/test").Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(client);
}

const CLAIM = "Unemployment in Freedonia fell to 3 percent last year, the lowest since 1970.";

test("a live board fills as lines arrive, groups a repeat, and takes a dismissal", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/live");
  await page.getByLabel("Event").fill("Leaders' debate (e2e)");
  await page.getByLabel("Cards from score").fill("0.5");
  await page.getByRole("button", { name: "Open the session" }).click();
  await page.waitForURL(/\/live\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").at(-1)!;
  await expect(page.getByText("· live")).toBeVisible({ timeout: 30_000 });

  const push = async (lines: Array<{ id: string; speaker: string; text: string; at: number }>) => {
    const res = await page.request.post(`/api/v1/live/${id}/lines`, {
      data: { lines },
      headers: { origin: baseURL! },
    });
    expect(res.status()).toBe(200);
  };
  // The first push loads the sentence encoder in a fresh server (seconds on a loaded machine).
  await push([
    { id: "1", speaker: "MODERATOR", text: "Good evening and welcome.", at: 0 },
    { id: "2", speaker: "SMITH", text: CLAIM, at: 4_000 },
  ]);
  const cards = page.getByTestId("live-card");
  await expect(cards).toHaveCount(1, { timeout: 60_000 });
  await expect(cards.first()).toContainText(CLAIM);
  await expect(cards.first()).toContainText("SMITH · 00:00:04");
  await push([{ id: "3", speaker: "SMITH", text: `Let me say it again. ${CLAIM}`, at: 20_000 }]);
  await expect(cards).toHaveCount(2);
  // Newest first; the first card counts the repeat.
  await expect(cards.first()).toContainText("repeat of the claim at 00:00:04");
  await expect(cards.nth(1)).toContainText("said 2 times");
  await page.screenshot({ path: "test-results/live-board-1280.png", fullPage: true });
  await noSidewaysScroll(page);

  await cards.first().getByRole("button", { name: "Dismiss" }).click();
  await expect(cards.first()).toContainText("Dismissed");

  // A line the English scorer cannot read is a card that says so, not a low score.
  await push([{ id: "4", speaker: "PETROV", text: "Безработица упала до трёх процентов в прошлом году.", at: 25_000 }]);
  await expect(cards).toHaveCount(3);
  await expect(cards.first().getByTestId("unreadable")).toContainText("Not scored: written in Cyrillic");
  await expect(cards.first()).toContainText("PETROV · 00:00:25 · not scored");

  // The archive downloads from the board; closing refuses further lines.
  const csv = await page.request.get((await page.getByRole("link", { name: "CSV" }).getAttribute("href"))!);
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toMatch(/^kind,seq,line_id,[^]*dismiss by /);
  page.once("dialog", (d) => void d.accept());
  await page.getByRole("button", { name: "Close the session" }).click();
  await expect(page.getByText("Closed: takes no more lines")).toBeVisible();
  await expect(page.getByRole("button", { name: "Close the session" })).toHaveCount(0);
  const late = await page.request.post(`/api/v1/live/${id}/lines`, {
    data: { lines: [{ id: "5", speaker: "SMITH", text: CLAIM, at: 30_000 }] },
    headers: { origin: baseURL! },
  });
  expect(late.status()).toBe(409);
  await page.screenshot({ path: "test-results/live-board-closed-1280.png", fullPage: true });
  await noSidewaysScroll(page);
  await page.goto("/live");
  await page.screenshot({ path: "test-results/live-list-1280.png", fullPage: true });
  await noSidewaysScroll(page);
  await page.goto(`/live/${id}`);

  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(cards).toHaveCount(3);
  await page.screenshot({ path: "test-results/live-board-375.png", fullPage: true });
  await noSidewaysScroll(page);
  await page.goto("/live");
  await expect(page.getByTestId("live-sessions")).toContainText("Leaders' debate (e2e)");
  await page.screenshot({ path: "test-results/live-list-375.png", fullPage: true });
  await noSidewaysScroll(page);
});

import { expect, test, type Browser } from "./fixtures";
import { USERS } from "./users";

test("a fresh install serves a healthy app on the embedded database", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  const health = await res.json();
  expect(health.status).toBe("ok");
  expect(health.database).toMatchObject({ ok: true, backend: "pglite", migrations: { pending: 0 } });
  expect(health.database.pgvector).toMatch(/^0\.\d+/);
  expect(health.embedding).toMatchObject({ id: "local:minilm-l6", ready: true, dim: 384 });
  expect(health.llms).toEqual([
    { id: "openai-compatible:scripted", provider: "openai-compatible", ready: true, scoring: "top-logprobs" },
  ]);
  expect(health.missing).toEqual([]);
});

test("the home page explains the product and shows the system status, using no outside resources", async ({ page }) => {
  const outside: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (!["127.0.0.1", "localhost"].includes(url.hostname) && url.protocol !== "data:") outside.push(r.url());
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check claims with debating AI agents.");
  const panel = page.getByTestId("status-panel");
  await expect(panel).toContainText("Embedded PGlite");
  await expect(panel).toContainText("local:minilm-l6");
  await expect(panel).toContainText("openai-compatible:scripted");
  // The self-hosted font must actually be in use (no CDN, no fallback).
  expect(
    await page.evaluate(
      () => document.fonts.check("16px Inter") || [...document.fonts].some((f) => f.status === "loaded"),
    ),
  ).toBe(true);
  await page.screenshot({ path: "test-results/home.png", fullPage: true });
  expect(outside).toEqual([]);
});

test("the status page fits a 375 px phone and is reachable by keyboard", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  // On a phone the header is one line: the pages are in a compact menu.
  await page.getByLabel("Menu").click();
  await page.getByTestId("compact-menu").getByRole("link", { name: "System status" }).click();
  await expect(page).toHaveURL(/\/status$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("System status");
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});

const NAV: Record<keyof typeof USERS, { has: string[]; hasNot: string[] }> = {
  admin: { has: ["Check a claim", "Debates", "Live", "Corpora", "Evaluation", "Agreement"], hasNot: ["Annotate"] },
  factchecker: {
    has: ["Check a claim", "Debates", "Live", "Corpora", "Evaluation", "Agreement"],
    hasNot: ["Annotate"],
  },
  journalist: { has: ["Debates", "Live", "Corpora", "Evaluation"], hasNot: ["Check a claim", "Annotate", "Agreement"] },
  editor: { has: ["Debates", "Live", "Corpora", "Fact-checks"], hasNot: ["Check a claim", "Annotate", "Agreement"] },
  annotator1: { has: ["Debates", "Live", "Corpora", "Annotate", "Agreement"], hasNot: ["Check a claim"] },
  annotator2: { has: ["Debates", "Live", "Corpora", "Annotate", "Agreement"], hasNot: ["Check a claim"] },
};

async function headerOf(browser: Browser, who: keyof typeof USERS, width: number) {
  const context = await browser.newContext({ storageState: USERS[who].state, viewport: { width, height: 800 } });
  const page = await context.newPage();
  await page.goto("/");
  return { page, context };
}

test("each role's header offers its own pages only, on one line at 1280 px and in a compact menu at 375 px", async ({
  browser,
}) => {
  for (const who of Object.keys(NAV) as Array<keyof typeof USERS>) {
    const { page, context } = await headerOf(browser, who, 1280);
    const links = page.getByTestId("nav-links");
    for (const name of NAV[who].has) await expect(links.getByRole("link", { name, exact: true })).toBeVisible();
    for (const name of NAV[who].hasNot) await expect(links.getByRole("link", { name, exact: true })).toHaveCount(0);
    // The home page makes the same offers as the header.
    if (NAV[who].hasNot.includes("Check a claim"))
      await expect(page.getByRole("main").getByRole("link", { name: /Check (this|a) claim/ })).toHaveCount(0);
    const nav = page.getByRole("navigation", { name: "Main" });
    const box = (await nav.boundingBox())!;
    // One line: the bar is as tall as one row of controls (about 55 px), not two.
    expect(box.height).toBeLessThan(70);
    await page.screenshot({
      path: `test-results/header-${who}-1280.png`,
      clip: { x: 0, y: 0, width: 1280, height: 120 },
    });
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByTestId("nav-links")).toBeHidden();
    await page.getByLabel("Menu").click();
    const menu = page.getByTestId("compact-menu");
    for (const name of NAV[who].has) await expect(menu.getByRole("link", { name, exact: true })).toBeVisible();
    for (const name of NAV[who].hasNot) await expect(menu.getByRole("link", { name, exact: true })).toHaveCount(0);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/header-${who}-375.png` });
    await page.goto("/");
    await page.screenshot({ path: `test-results/home-${who}-375.png`, fullPage: true });
    await context.close();
  }
});

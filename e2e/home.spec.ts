import { expect, test } from "./fixtures";

test("a fresh install serves a healthy app on the embedded database", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  const health = await res.json();
  expect(health.status).toBe("ok");
  expect(health.database).toMatchObject({ ok: true, backend: "pglite", migrations: { pending: 0 } });
  expect(health.database.pgvector).toMatch(/^0\.\d+/);
  expect(health.embedding).toMatchObject({ id: "local:use-lite", ready: true, dim: 512 });
  expect(health.llms).toEqual([{ id: "openai-compatible:scripted", provider: "openai-compatible", ready: true, scoring: "top-logprobs" }]);
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
  await expect(panel).toContainText("local:use-lite");
  await expect(panel).toContainText("openai-compatible:scripted");
  // The self-hosted font must actually be in use (no CDN, no fallback).
  expect(await page.evaluate(() => document.fonts.check("16px Inter") || [...document.fonts].some((f) => f.status === "loaded"))).toBe(true);
  await page.screenshot({ path: "test-results/home.png", fullPage: true });
  expect(outside).toEqual([]);
});

test("the status page fits a 375 px phone and is reachable by keyboard", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.getByRole("link", { name: "System status" }).click();
  await expect(page).toHaveURL(/\/status$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("System status");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

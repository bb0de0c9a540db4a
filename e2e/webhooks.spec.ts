import { expect, test, type Page } from "./fixtures";
import { startPastEarlierChecks } from "./match-helpers";

/*
 * Admin > Webhooks in the browser: a refused target keeps what was typed, a subscription shows its
 * secret once, a finished debate appears in the delivery log, Send again adds an attempt, a test
 * event says at once what became of it, and deleting asks for confirmation first. The
 * target is `localhost`, which the guarded fetcher refuses (loopback, and this server does not set
 * FETCH_ALLOW_HOSTS): the log shows "refused" and no request leaves the app. Screenshots at 1280
 * and 375 px go to test-results/.
 */

async function noSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(client);
}

test("an admin subscribes a target, a finished debate shows in its log, and Send again tries once more", async ({
  page,
}) => {
  await page.goto("/admin/webhooks");
  await page.getByLabel("Target address").fill("http://10.1.2.3/hooks");
  await page.getByLabel(/^Name/).fill("Newsroom CMS");
  await page.getByLabel(/debate\.finished/).check();
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.locator("[data-field-error=url]")).toContainText("private or local network");
  // Nothing typed is lost.
  await expect(page.getByLabel(/^Name/)).toHaveValue("Newsroom CMS");
  await expect(page.getByLabel(/debate\.finished/)).toBeChecked();

  // A name is resolved when saved: one that points at the server itself is refused at once, saying why.
  await page.getByLabel("Target address").fill("http://localhost:9/counterpoint");
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.locator("[data-field-error=url]")).toContainText(
    "localhost:9 resolves to an address on a private or local network",
  );

  // 127.0.0.2 is allowed for this server (FETCH_ALLOW_HOSTS in playwright.config.ts); nothing listens on port 9.
  await page.getByLabel("Target address").fill("http://127.0.0.2:9/counterpoint");
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByTestId("webhook-secret")).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const secret = (await page.getByTestId("webhook-secret").textContent())!;
  const secretKey = secret.slice("whsec_".length);
  const row = page.getByTestId("webhook-row").filter({ hasText: "Newsroom CMS" });
  await expect(row).toContainText("active");

  // A debate finishes: its event is delivered (here: nobody answers) from the queue.
  await page.goto("/debates/new");
  await page.getByLabel("Claim", { exact: true }).fill("The boxer sold his medal to help children in the 2022 war.");
  await page.getByLabel("Paste gold evidence").check();
  await page
    .getByLabel(/Evidence passages, one per paragraph/)
    .fill("The boxer auctioned his Olympic medal in 2012 to fund a children's hospital.");
  // The same claim may have been debated by a spec before this one: past the earlier checks.
  await startPastEarlierChecks(page, page.getByRole("button", { name: "Start debate" }), /\/debates\/[0-9a-f-]{36}$/);
  await page.waitForURL(/\/debates\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("debate-status")).toHaveText("completed", { timeout: 60_000 });

  await page.goto("/admin/webhooks");
  await page.getByRole("link", { name: "Newsroom CMS" }).click();
  await page.waitForURL(/\/admin\/webhooks\/[0-9a-f-]{36}$/);
  // Shown once: neither the subscription's page nor its page data (sent to the browser) carries it.
  expect(await page.content()).not.toContain(secretKey);
  const delivery = page.getByTestId("delivery").first();
  await expect(async () => {
    await page.reload();
    await expect(delivery).toHaveAttribute("data-status", "failed", { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(delivery).toContainText("debate.finished");
  await expect(delivery.getByTestId("attempt")).toHaveCount(1);
  await expect(delivery.getByTestId("attempt")).toHaveAttribute("data-outcome", "failed");

  await delivery.getByRole("button", { name: "Send again" }).click();
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("delivery").first().getByTestId("attempt")).toHaveCount(2, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByTestId("delivery").first()).toContainText("Try 2 (sent again)");

  // A test event goes at once, and the page says what became of it (nothing listens on port 9).
  const tester = page.getByTestId("webhook-test");
  await tester.getByRole("button", { name: "Send a test event" }).click();
  await expect(tester.locator("[role=alert], [role=status]")).toContainText(/Not delivered in \d+ ms: /);
  await page.reload();
  await expect(page.getByTestId("delivery").first()).toContainText("webhook.test");
  await expect(page.getByTestId("delivery").first()).toHaveAttribute("data-status", "failed");

  for (const [width, name] of [
    [1280, "wide"],
    [375, "narrow"],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/webhook-log-${name}.png`, fullPage: true });
    await noSidewaysScroll(page);
    await page.goto("/admin/webhooks");
    await page.screenshot({ path: `test-results/webhooks-${name}.png`, fullPage: true });
    await noSidewaysScroll(page);
    await page.goBack();
  }

  // Deleting asks for the box first; then the subscription and its log are gone.
  await page.setViewportSize({ width: 1280, height: 900 });
  const remove = page.getByTestId("webhook-delete");
  await expect(remove).toContainText("delivery log (2 deliveries) is deleted with it");
  await remove.getByRole("button", { name: "Delete subscription" }).click();
  await expect(remove).toContainText("Tick the box to confirm");
  await remove.getByLabel(/Yes, delete this subscription/).check();
  await remove.getByRole("button", { name: "Delete subscription" }).click();
  await page.waitForURL(/\/admin\/webhooks\?deleted=1$/);
  await expect(page.getByText("Subscription deleted: nothing more is sent to it.")).toBeVisible();
  await expect(page.getByTestId("webhook-row").filter({ hasText: "Newsroom CMS" })).toHaveCount(0);
});

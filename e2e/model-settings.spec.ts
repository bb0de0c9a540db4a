import { expect, test, type Page } from "./fixtures";
import { startPastEarlierChecks } from "./match-helpers";

/*
 * Choosing a model on /admin, without a restart: the admin adds a model server (the scripted one,
 * e2e/fake-openai.mjs, under a name of its own) with a key and makes it the default; the save is
 * checked with a one-token call; a debate then runs on it to its verdict. The key never reaches the
 * browser: not in the page's HTML, not in its RSC payload, not in the action's answer.
 */

const KEY = "sk-e2e-admin-secret-7f3a9c1d2e-QRST";
const FAKE = `http://127.0.0.1:${process.env.FAKE_OPENAI_PORT ?? 3291}/v1`;

/** Saves the form; returns the bodies of the answers to its POST (read on the way, before any navigation). */
async function saveModels(page: Page) {
  const bodies: string[] = [];
  await page.route("**/admin", async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    const response = await route.fetch();
    bodies.push(await response.text());
    await route.fulfill({ response });
  });
  await page.getByRole("button", { name: "Check and save" }).click();
  await expect(page.getByTestId("model-settings").getByRole("status")).toBeVisible({ timeout: 30_000 });
  await page.unroute("**/admin");
  return bodies.join("\n");
}

test("an admin chooses a model server on /admin and a debate runs on it without a restart; the key never reaches the page", async ({
  page,
}) => {
  await page.goto("/admin");
  const form = page.getByTestId("model-settings");
  const row = form.getByTestId("compat-server").last();
  await row.getByLabel("Name", { exact: true }).fill("admin-scripted");
  await row.getByLabel("Address", { exact: true }).fill(FAKE);
  await row.getByLabel(/^Key/).fill(KEY);
  await row.getByLabel("Model (when the id names none)").fill("scripted-debater");
  await form.getByLabel("Default model").fill("openai-compatible:admin-scripted");
  try {
    const answer = await saveModels(page);
    await expect(form.getByRole("status")).toContainText("Saved; in use now on every server and worker.");
    await expect(form.getByRole("status")).toContainText("openai-compatible:admin-scripted answered");
    expect(answer, "the action's answer").toContain("Saved; in use now");
    expect(answer, "the action's answer").not.toContain(KEY);

    // Shown again: only that a key is set and how it ends.
    await page.reload();
    const saved = form.getByTestId("compat-server").first();
    await expect(saved).toContainText("set, ends in …QRST");
    expect(await page.content(), "the page's HTML").not.toContain(KEY);
    await page.screenshot({ path: "test-results/admin-models-1280.png", fullPage: true });
    // At phone width the form fits: nothing in it is wider than the window.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: "test-results/admin-models-375.png", fullPage: true });
    await form.screenshot({ path: "test-results/admin-models-form-375.png" });
    expect(await form.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    expect(await form.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 900 });
    const rsc = await page.request.get("/admin", { headers: { RSC: "1" } });
    expect(rsc.ok()).toBe(true);
    const payload = await rsc.text();
    expect(payload, "the page's RSC payload").toContain("admin-scripted");
    expect(payload, "the page's RSC payload").not.toContain(KEY);

    // No restart: the next debate uses the new default and reaches its verdict.
    await page.goto("/debates/new");
    await page.getByLabel("Claim", { exact: true }).fill("The boxer sold his medal to help flood victims in 2012.");
    await page.getByLabel("Paste gold evidence").check();
    await page
      .getByLabel(/Evidence passages, one per paragraph/)
      .fill("The boxer auctioned his Olympic medal in 2012 to fund a children's hospital.");
    await startPastEarlierChecks(page, page.getByRole("button", { name: "Start debate" }), /\/debates\/[0-9a-f-]{36}$/);
    await page.waitForURL(/\/debates\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("verdict")).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId("debate-status")).toHaveText("completed");
    await expect(page.locator("[data-testid=turn][data-status=completed]").first()).toContainText(
      "openai-compatible:admin-scripted",
    );
    expect(await page.content()).not.toContain(KEY);
  } finally {
    // The other specs run on the environment's model: clear what this one saved.
    await page.goto("/admin");
    await form.getByLabel("Default model").fill("");
    const first = form.getByTestId("compat-server").first();
    if ((await first.getByLabel("Name", { exact: true }).inputValue()) === "admin-scripted") {
      await first.getByLabel("Name", { exact: true }).fill("");
      await first.getByLabel("Address", { exact: true }).fill("");
    }
    await saveModels(page);
    await expect(form.getByRole("status")).toContainText("Saved");
  }
});

import fs from "node:fs";
import path from "node:path";
import { expect, test as setup, type Browser } from "./fixtures";
import { AUTH_DIR, DATA_DIR, PASSWORD, USERS } from "./users";

/*
 * Runs once before the specs, against the fresh server: the first admin is created through the
 * first-run page with the setup code the server wrote to its data directory (as an operator would
 * copy it from the console), and the other roles join through the admin page's invitation links.
 * Each role's signed-in browser state is saved for the specs to reuse.
 */

async function join(browser: Browser, link: string, file: string) {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto(link);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Password again").fill(PASSWORD);
  await page.getByRole("button", { name: "Create my account" }).click();
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
  await context.storageState({ path: file });
  await context.close();
}

setup("first admin through /setup, other roles through invitations", async ({ page, browser }) => {
  fs.mkdirSync(AUTH_DIR, { recursive: true });
  await page.goto("/debates");
  // Before any account exists, protected pages lead to set-up.
  await expect(page).toHaveURL(/\/setup$/);
  const code = fs.readFileSync(path.join(DATA_DIR, "setup-code"), "utf8").trim();
  // A mistyped code is refused beside the code, and nothing else typed is lost.
  await page.getByLabel("Setup code").fill(`${code}x`);
  await page.getByLabel("Your name").fill("Ada Admin");
  await page.getByLabel("Email").fill(USERS.admin.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Password again").fill(PASSWORD);
  await page.getByRole("button", { name: "Create admin account" }).click();
  await expect(page.locator("[data-field-error=code]")).toHaveText(
    "That setup code is not the one printed by the server.",
  );
  await expect(page.getByLabel("Your name")).toHaveValue("Ada Admin");
  await expect(page.getByLabel("Email")).toHaveValue(USERS.admin.email);
  await expect(page.getByLabel("Password again")).toHaveValue(PASSWORD);
  await expect(page.getByLabel("Setup code")).toHaveValue(`${code}x`);
  await page.screenshot({ path: "test-results/forms-setup-refused-1280.png", fullPage: true });
  await page.getByLabel("Setup code").fill(code);
  await page.getByRole("button", { name: "Create admin account" }).click();
  // The first run ends on what to do next, in order: evidence, a model, a first debate.
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByTestId("welcome-step-1")).toHaveAttribute("data-done", "false");
  await expect(page.getByTestId("welcome-step-1").getByRole("button", { name: "Load the demo corpus" })).toBeVisible();
  await expect(
    page.getByTestId("welcome-step-1").getByRole("link", { name: "Create a corpus and upload documents" }),
  ).toHaveAttribute("href", "/corpora");
  // The e2e server has its model configured: the step says which one.
  await expect(page.getByTestId("welcome-step-2")).toHaveAttribute("data-done", "true");
  await expect(page.getByTestId("welcome-step-2")).toContainText("openai-compatible:scripted");
  await expect(page.getByTestId("welcome-step-3")).toContainText("Once step 1 is done");
  await page.screenshot({ path: "test-results/welcome-1280.png", fullPage: true });
  await page.context().storageState({ path: USERS.admin.state });
  await page.goto("/admin");

  for (const key of ["journalist", "factchecker", "editor", "annotator1", "annotator2"] as const) {
    const u = USERS[key];
    await page.getByLabel("Email").fill(u.email);
    for (const role of ["admin", "fact-checker", "journalist", "annotator", "editor"]) {
      const box = page
        .locator("form", { has: page.getByRole("button", { name: "Create invitation link" }) })
        .getByLabel(role, { exact: true });
      if ((await box.isChecked()) !== u.roles.includes(role)) await box.click();
    }
    await page.getByRole("button", { name: "Create invitation link" }).click();
    // The message names the invitee: waiting for it means the link shown is the new one.
    await expect(page.getByRole("status").filter({ hasText: u.email })).toBeVisible();
    const link = (await page.getByTestId("invite-link").textContent())!.trim();
    await join(browser, link, u.state);
  }
});

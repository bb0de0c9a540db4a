import { expect, test, type Page } from "./fixtures";
import { noSidewaysScroll } from "./tool-mad-helpers";
import { PASSWORD, USERS } from "./users";

/*
 * Every form, refused by the server: what was typed, chosen, ticked and picked (files included)
 * is still there, the refusal stands beside the field it concerns, and no button or summary
 * disagrees with the form. One test per form; the set-up form's is in auth.setup.ts (the only
 * moment /setup exists). Screenshots of each refused form at 1280 and 375 px go to test-results/.
 */

async function shoot(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `test-results/forms-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: `test-results/forms-${name}-375.png`, fullPage: true });
  expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Clicks and waits for the server's answer (a server action is a POST), so a stale page is not read as the answer. */
async function submit(page: Page, button: ReturnType<Page["getByRole"]>) {
  await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), button.click()]);
}

test("sign-in keeps the email and password after a refusal", async ({ browser }) => {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/signin");
  await page.getByLabel("Email").fill("forms-nobody@e2e.test");
  await page.getByLabel("Password").fill("not the password 1");
  await submit(page, page.getByRole("button", { name: "Sign in" }));
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    "That email and password do not match an account.",
  );
  await expect(page.getByLabel("Email")).toHaveValue("forms-nobody@e2e.test");
  await expect(page.getByLabel("Password")).toHaveValue("not the password 1");
  await shoot(page, "signin");
  await context.close();
});

test("the invitation form and the invitation page keep what was entered, each refusal beside its field", async ({
  page,
  browser,
}) => {
  await page.goto("/admin");
  const form = page.locator("form", { has: page.getByRole("button", { name: "Create invitation link" }) });
  await form.getByLabel("Email").fill("not-an-email");
  await form.getByLabel("annotator", { exact: true }).check();
  await form.getByLabel("journalist", { exact: true }).uncheck();
  await submit(page, form.getByRole("button", { name: "Create invitation link" }));
  await expect(form.locator("[data-field-error=email]")).toBeVisible();
  await expect(form.getByLabel("Email")).toHaveValue("not-an-email");
  await expect(form.getByLabel("annotator", { exact: true })).toBeChecked();
  await expect(form.getByLabel("journalist", { exact: true })).not.toBeChecked();
  await shoot(page, "invite");
  await form.getByLabel("Email").fill("forms-invitee@e2e.test");
  await submit(page, form.getByRole("button", { name: "Create invitation link" }));
  await expect(page.getByRole("status").filter({ hasText: "forms-invitee@e2e.test" })).toBeVisible();
  const link = (await page.getByTestId("invite-link").textContent())!.trim();

  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const guest = await context.newPage();
  await guest.goto(link);
  await guest.getByLabel("Your name").fill("Ina Invitee");
  await guest.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await guest.getByLabel("Password again").fill("a different password");
  await submit(guest, guest.getByRole("button", { name: "Create my account" }));
  await expect(guest.locator("[data-field-error=confirm]")).toContainText("The two passwords differ");
  await expect(guest.getByLabel("Your name")).toHaveValue("Ina Invitee");
  await expect(guest.getByLabel("Password", { exact: true })).toHaveValue(PASSWORD);
  await shoot(guest, "invitation");
  await context.close();
});

test("admin settings and roles keep every change after a refusal, and save none of it", async ({ page }) => {
  await page.goto("/admin");
  const settings = page.locator("form", { has: page.getByRole("button", { name: "Save settings" }) });
  const publicReading = settings.getByRole("checkbox", { name: /Public newsroom page/ });
  const wasPublic = await publicReading.isChecked();
  await publicReading.setChecked(!wasPublic);
  await settings.getByLabel("Annotators per debate (overlap)").fill("30");
  await settings.getByLabel(/Annotation guidelines/).fill("Label the claim as it was made, not as it was meant.");
  await submit(page, settings.getByRole("button", { name: "Save settings" }));
  await expect(settings.locator("[data-field-error=annotation_overlap]")).toHaveText(
    "Annotators per debate must be a whole number from 1 to 20.",
  );
  await expect(settings.getByLabel("Annotators per debate (overlap)")).toHaveValue("30");
  await expect(settings.getByLabel(/Annotation guidelines/)).toHaveValue(
    "Label the claim as it was made, not as it was meant.",
  );
  await expect(publicReading).toBeChecked({ checked: !wasPublic });
  await expect(settings.getByRole("status")).toHaveCount(0);

  const mine = page.locator(`[data-testid=user-row][data-email="${USERS.admin.email}"]`);
  await mine.getByLabel("admin", { exact: true }).uncheck();
  await mine.getByLabel("annotator", { exact: true }).check();
  await submit(page, mine.getByRole("button", { name: "Save roles" }));
  await expect(mine.locator("[data-field-error=role]")).toContainText("This is the only admin");
  await expect(mine.getByLabel("admin", { exact: true })).not.toBeChecked();
  await expect(mine.getByLabel("annotator", { exact: true })).toBeChecked();
  await shoot(page, "admin");
  // Nothing was saved: a fresh page shows the settings as they were.
  await page.reload();
  await expect(
    page
      .locator("form", { has: page.getByRole("button", { name: "Save settings" }) })
      .getByRole("checkbox", { name: /Public newsroom page/ }),
  ).toBeChecked({ checked: wasPublic });
  await expect(
    page.locator(`[data-testid=user-row][data-email="${USERS.admin.email}"]`).getByLabel("admin", { exact: true }),
  ).toBeChecked();
});

test("the debate form keeps every field and choice after a refusal, shown beside the field", async ({ page }) => {
  await page.goto("/debates/new");
  await page.getByLabel("Claim", { exact: true }).fill("The boxer sold his medal to help children in the war.");
  await page.getByLabel("Paste gold evidence").check();
  await page
    .getByLabel(/Evidence passages, one per paragraph/)
    .fill("The boxer auctioned his medal in 2012.\n\nThe war began in 2022.");
  await page.getByLabel("Debate", { exact: true }).selectOption("position");
  await page.locator("summary", { hasText: "Advanced" }).click();
  await page.getByLabel("Rebuttal rounds").fill("2");
  await page.getByLabel("Early stopping").selectOption("off");
  await page.locator("summary", { hasText: "Budget" }).click();
  await page.getByLabel("Max tokens").fill("5000");
  await page.getByLabel("Max model calls").fill("1");
  await submit(page, page.getByRole("button", { name: "Start debate" }));
  await expect(page.locator("#maxCalls-error")).toContainText("at least two model calls");
  await expect(page).toHaveURL(/\/debates\/new$/);
  await expect(page.getByLabel("Claim", { exact: true })).toHaveValue(
    "The boxer sold his medal to help children in the war.",
  );
  await expect(page.getByLabel("Paste gold evidence")).toBeChecked();
  await expect(page.getByLabel(/Evidence passages, one per paragraph/)).toHaveValue(
    "The boxer auctioned his medal in 2012.\n\nThe war began in 2022.",
  );
  await expect(page.getByLabel("Debate", { exact: true })).toHaveValue("position");
  // The position debate's roles, not the default's: the model fields follow the kept choice.
  await expect(page.locator("select#model_advocate")).toBeVisible();
  await expect(page.getByLabel("Rebuttal rounds")).toHaveValue("2");
  await expect(page.getByLabel("Early stopping")).toHaveValue("off");
  await expect(page.getByLabel("Max tokens")).toHaveValue("5000");
  await expect(page.getByLabel("Max model calls")).toHaveValue("1");
  await shoot(page, "debate");
});

test("the compare form keeps both ticked methods, their presets and the claim after a refusal, and its button and estimate agree", async ({
  page,
}) => {
  const claim = "The council cut the budget. ".repeat(400).slice(0, 10_000);
  await page.goto("/debates/new?compare=1");
  const form = page.getByTestId("compare-form");
  await form.getByRole("checkbox", { name: /RADAR/ }).check();
  await form.getByRole("checkbox", { name: /Tool-MAD/ }).check();
  await form.getByLabel("Claim", { exact: true }).fill(claim);
  // Counted live, as on the single form.
  await expect(form.getByTestId("compare-claim-count")).toHaveText("10,000 / 2,000 characters");
  await form.getByLabel("Majority vote").check();
  await submit(page, form.getByRole("button", { name: "Start 2 debates" }));
  await expect(form.getByRole("alert").filter({ hasText: "10,000 characters" }).first()).toBeVisible();
  await expect(form.getByLabel("Claim", { exact: true })).toHaveValue(claim);
  await expect(form.getByRole("checkbox", { name: /RADAR/ })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: /Tool-MAD/ })).toBeChecked();
  await expect(form.getByLabel(/Preset for RADAR/)).toBeVisible();
  await expect(form.getByLabel(/Preset for Tool-MAD/)).toBeVisible();
  await expect(form.getByLabel("Majority vote")).toBeChecked();
  await expect(form.getByRole("button", { name: "Start 2 debates" })).toBeVisible();
  await expect(page.getByTestId("compare-estimate")).toContainText("Tool-MAD:", { timeout: 15_000 });
  await expect(page.getByTestId("compare-estimate")).toContainText("RADAR");
  await shoot(page, "compare");
});

test("/eval/new keeps the run name, both ticked methods and the chosen file after a refusal, and says what to write instead", async ({
  page,
}) => {
  await page.goto("/eval/new");
  await expect(page.getByTestId("claims-format")).toContainText('"gold_evidence": [{"text":');
  const form = page.getByTestId("eval-form");
  const line = JSON.stringify({
    id: "b1",
    claim: "The mayor cut the budget.",
    label: "FALSE",
    gold_evidence: ["The council raised it."],
  });
  await form
    .getByLabel(/Claims file/)
    .setInputFiles({ name: "bad.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(`${line}\n`) });
  await form.getByRole("checkbox", { name: "Tool-MAD" }).check();
  await form.getByLabel("Run name").fill("Tuesday's run");
  await form.getByLabel("Limit (claims)").fill("1");
  await form.getByLabel("Sample").selectOption("random");
  await expect(form.getByRole("button", { name: "Compare 2 methods" })).toBeVisible();
  await submit(page, form.getByRole("button", { name: "Compare 2 methods" }));
  const error = form.locator("[data-field-error=claims]");
  await expect(error).toContainText(
    'bad.jsonl:1: gold_evidence: passage 1 is not an object: write each passage as an object with its text, e.g. "gold_evidence": [{"text":',
  );
  await expect(error).not.toContainText("expected");
  await expect(form.getByLabel("Run name")).toHaveValue("Tuesday's run");
  await expect(form.getByLabel("Limit (claims)")).toHaveValue("1");
  await expect(form.getByLabel("Sample")).toHaveValue("random");
  await expect(form.getByRole("checkbox", { name: "RADAR" })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: "Tool-MAD" })).toBeChecked();
  expect(
    await form
      .getByLabel(/Claims file/)
      .evaluate((el) => [...((el as HTMLInputElement).files ?? [])].map((f) => f.name)),
  ).toEqual(["bad.jsonl"]);
  await expect(form.getByTestId("claims-choose-again")).toHaveCount(0);
  await expect(form.getByRole("button", { name: "Compare 2 methods" })).toBeVisible();
  await shoot(page, "eval");
});

test("corpus forms keep what was typed beside their refusal, and an empty search says what to do", async ({ page }) => {
  await page.goto("/corpora");
  await page.getByLabel("New corpus name").fill("my corpus!");
  await submit(page, page.getByRole("button", { name: "Create corpus" }));
  await expect(page.locator("#corpus-name-error")).toContainText("no spaces");
  await expect(page.getByLabel("New corpus name")).toHaveValue("my corpus!");

  await page.goto("/corpora/demo");
  const url = page.getByLabel("Or add a web page or file by its address");
  await url.fill("www.example");
  await submit(page, page.getByRole("button", { name: "Fetch and add" }));
  await expect(
    page.getByRole("alert").filter({ hasText: "Enter a web address starting with http:// or https://." }),
  ).toBeVisible();
  await expect(url).toHaveValue("www.example");
  await shoot(page, "corpus-url");

  await page.goto("/search");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("search-empty")).toContainText("Type what to look for first");
});

test("the labelling form keeps the rationale when the label is missing, and says so beside the label", async ({
  browser,
}) => {
  const context = await browser.newContext({ storageState: USERS.annotator2.state });
  const page = await context.newPage();
  await page.goto("/annotate");
  await expect(page.getByTestId("annotate-task")).toHaveAttribute("data-keys-ready", "true", { timeout: 30_000 });
  const panel = page.getByTestId("label-panel");
  await panel.getByLabel("Rationale").fill("E1 dates the sale to 2012.");
  await panel.getByRole("button", { name: /Save and next/ }).click();
  await expect(panel.locator("[data-field-error=goldLabel]")).toContainText("Choose a gold label first");
  await expect(panel.getByLabel("Rationale")).toHaveValue("E1 dates the sale to 2012.");
  await expect(page.getByTestId("save-status")).toHaveText("");
  await shoot(page, "annotate");
  await page.goto("about:blank");
  await context.close();
});

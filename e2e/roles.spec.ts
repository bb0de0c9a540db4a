import { expect, test } from "./fixtures";
import { PASSWORD, USERS } from "./users";

const anonymous = { storageState: { cookies: [], origins: [] } };

test.describe("without an account", () => {
  test.use(anonymous);

  test("debates and corpora lead to sign-in; a wrong password is refused; the right one returns to the page", async ({
    page,
  }) => {
    await page.goto("/debates");
    await expect(page).toHaveURL(/\/signin\?next=%2Fdebates$/);
    await page.getByLabel("Email").fill(USERS.journalist.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText(
      "That email and password do not match an account.",
    );
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/debates$/);
    await expect(page.getByTestId("signed-in-as")).toHaveText(USERS.journalist.email);
    const cookie = (await page.context().cookies()).find((c) => c.name === "cp_session")!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false });
  });

  test("the health check stays public and the event stream refuses", async ({ request }) => {
    expect((await request.get("/api/health")).status()).toBe(200);
    expect((await request.get("/api/debates/00000000-0000-0000-0000-000000000000/events")).status()).toBe(401);
    expect((await request.post("/api/corpora/demo/uploads?filename=a.txt", { data: "x" })).status()).toBe(401);
  });
});

test.describe("a journalist", () => {
  test.use({ storageState: USERS.journalist.state });

  test("reads debates but cannot open the claim form or the admin page", async ({ page }) => {
    await page.goto("/debates/new");
    await expect(page).toHaveURL(/\/forbidden/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account cannot open this page");
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/forbidden/);
    await page.goto("/debates");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // Sent with the app's own Origin, as its pages do, so the refusal is the role's and not the origin check's.
    const upload = await page.request.post("/api/corpora/demo/uploads?filename=a.txt", {
      data: "x",
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(upload.status()).toBe(403);
    expect((await upload.json()).error).toMatch(/role|Only a fact-checker/);
  });
});

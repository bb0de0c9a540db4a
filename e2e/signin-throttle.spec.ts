import { expect, test } from "./fixtures";

/*
 * On the production server: the client address sign-in limits use is the connection's, so
 * rotating X-Forwarded-For (no proxy is trusted by default) or sending the app's own peer header
 * does not make a guesser a new client.
 */

test.use({ storageState: { cookies: [], origins: [] } });

test("rotating forwarded and peer headers does not reset the guessing client's limit on an account", async ({
  page,
}) => {
  // Six password hashes (argon2id, deliberately slow) on a busy 2-core machine can take a while.
  test.setTimeout(180_000);
  await page.goto("/signin");
  const results: string[] = [];
  for (let i = 0; i < 6; i++) {
    await page.setExtraHTTPHeaders({
      "x-forwarded-for": `198.51.100.${i + 1}`,
      "x-counterpoint-peer": `203.0.113.${i + 1}`,
    });
    await page.getByLabel("Email").fill("guessed-account@e2e.test");
    await page.getByLabel("Password").fill(`guess number ${i}`);
    // Wait for the server's answer: the same message twice would otherwise be read before it arrives.
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Sign in" }).click(),
    ]);
    const alert = page.getByRole("main").getByRole("alert");
    await expect(alert).toHaveText(
      i < 5 ? "That email and password do not match an account." : /Too many sign-in attempts/,
    );
    results.push((await alert.textContent()) ?? "");
  }
  expect(results.filter((r) => /Too many/.test(r))).toHaveLength(1);
});

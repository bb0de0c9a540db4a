import type { Locator, Page } from "@playwright/test";

/**
 * Presses a form's start button and, when earlier checks of the claim are shown first (claim
 * matching: a spec that ran before may have debated a similar claim), chooses "Debate anyway", so a
 * spec about something else starts its debate whatever ran before it. `leaves`: the page the start goes to.
 */
export async function startPastEarlierChecks(page: Page, button: Locator, leaves: RegExp) {
  await button.click();
  const step = page.getByTestId("match-step");
  const outcome = await Promise.race([
    step.waitFor({ state: "visible", timeout: 60_000 }).then(
      () => "matched" as const,
      () => "none" as const,
    ),
    page.waitForURL(leaves, { timeout: 60_000 }).then(
      () => "started" as const,
      () => "none" as const,
    ),
  ]);
  if (outcome === "matched") await step.getByRole("button", { name: /Debate anyway/ }).click();
}

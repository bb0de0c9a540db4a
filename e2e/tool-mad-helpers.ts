import { expect, type Page } from "./fixtures";
import { startPastEarlierChecks } from "./match-helpers";

/** What the Tool-MAD and ZoFia specs do on the page (tool-mad, server-restart and zofia .spec.ts). */
export const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

export async function ensureDemoCorpus(page: Page) {
  await page.goto("/corpora");
  const load = page.getByRole("button", { name: "Load the demo corpus" });
  if (await load.isVisible()) {
    await load.click();
    await page.waitForURL(/\/corpora\/demo$/);
    await expect(page.getByTestId("ingest-job").first()).toHaveAttribute("data-status", "completed", {
      timeout: 120_000,
    });
  }
}

export async function startToolMad(page: Page, claim: string, opts: { screenshots?: boolean } = {}) {
  await page.goto("/debates/new");
  await page.getByRole("radio", { name: /Tool-MAD/ }).check();
  await page.getByLabel("Claim", { exact: true }).fill(claim);
  // No key configured: the form says where the search agent will search instead.
  await expect(page.getByTestId("search-provider")).toContainText("No web search configured");
  await expect(page.getByTestId("search-provider")).toContainText("offline stand-in for web search");
  await page.getByLabel("Rounds at most").fill("2");
  // The estimate follows the settings: 2 rounds of 2 agents (query, answer, 3 scorer calls each) and the judge.
  await expect(page.getByTestId("cost-estimate")).toContainText(
    "At most 21 model calls (every round run) and 4 searches",
    { timeout: 15_000 },
  );
  if (opts.screenshots) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: "test-results/tool-mad-form-1280.png", fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: "test-results/tool-mad-form-375.png", fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  await startPastEarlierChecks(page, page.getByRole("button", { name: "Start debate" }), /\/debates\/[0-9a-f-]{36}$/);
  await page.waitForURL(/\/debates\/[0-9a-f-]{36}$/);
  return page.url();
}

export const streamingRoles = (page: Page) =>
  page
    .locator("[data-testid=turn][data-status=streaming]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-role")));
export const completedTurns = (page: Page) =>
  page
    .locator("[data-testid=turn][data-status=completed]")
    .evaluateAll((els) => els.map((e) => `${e.getAttribute("data-seq")}|${e.textContent}`));
export const searches = (page: Page) =>
  page
    .locator("[data-testid=tool-mad-round]")
    .evaluateAll((rounds) =>
      rounds.flatMap((r) =>
        [...r.querySelectorAll("[data-testid=agent-column]")].flatMap((c) =>
          [...c.querySelectorAll("[data-testid=tool-mad-search]")].map(
            (s) => `${r.getAttribute("data-round")}|${c.getAttribute("data-agent")}|${s.getAttribute("data-seq")}`,
          ),
        ),
      ),
    );

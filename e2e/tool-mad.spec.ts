import { expect, test } from "./fixtures";
import {
  completedTurns,
  ensureDemoCorpus,
  noSidewaysScroll,
  searches,
  startToolMad,
  streamingRoles,
} from "./tool-mad-helpers";
import { hurry, resetHurry } from "./hurry";

/*
 * Tool-MAD end to end, as a new user with no search key: the search agent searches the corpus
 * stand-in, labelled. e2e/fake-openai.mjs answers Tool-MAD's prompts: in round 1 the corpus agent
 * says SUPPORTS and the search agent REFUTES; from round 2 both say SUPPORTS (consensus), unless the
 * claim says DISAGREE (then the judge decides). "SLOW" streams 8x slower, so two agents can be
 * watched writing at the same time.
 */

test.afterEach(resetHurry);

test("a new user runs Tool-MAD with no search key: both agents stream at once, the stand-in is labelled, a reload loses nothing, and they reach a verdict", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await ensureDemoCorpus(page);
  await startToolMad(
    page,
    "SLOW: Governor Elena Marsh raised $2.4 million at a charity auction for the Cedar River flood families.",
    { screenshots: true },
  );

  // Both agents' turns are being written at the same moment: two running cards side by side.
  await expect
    .poll(async () => new Set(await streamingRoles(page)), { timeout: 30_000, intervals: [100] })
    .toEqual(new Set(["rag-agent", "search-agent"]));
  // The screenshot shows answers being written once the documents are in.
  await expect(page.locator("[data-testid=turn][data-status=streaming][data-phase=answer]").first()).toContainText(
    "Claim checked",
    { timeout: 30_000 },
  );
  await page.screenshot({ path: "test-results/tool-mad-live-1280.png", fullPage: true });

  // The search agent's documents come from the corpus stand-in, and say so on every result.
  const searchColumn = page.locator("[data-testid=agent-column][data-agent=search-agent]").first();
  await expect(searchColumn.getByTestId("provider-badge")).toContainText("offline stand-in for web search", {
    timeout: 30_000,
  });
  const docs = searchColumn.getByTestId("tool-mad-doc");
  const n = await docs.count();
  for (let i = 0; i < n; i++) await expect(docs.nth(i)).toContainText("offline stand-in for web search");
  await expect(
    page.locator("[data-testid=agent-column][data-agent=rag-agent]").first().getByTestId("provider-badge"),
  ).toContainText("newsroom corpus");

  // Reload mid-debate: every finished turn is still there, with the same text.
  await expect(page.locator("[data-testid=turn][data-status=completed][data-role=rag-agent]").first()).toBeVisible({
    timeout: 30_000,
  });
  const before = await completedTurns(page);
  expect(before.length).toBeGreaterThanOrEqual(1);
  await page.reload();
  const after = await completedTurns(page);
  for (const t of before) expect(after).toContain(t);
  await page.setViewportSize({ width: 375, height: 740 });
  await page.screenshot({ path: "test-results/tool-mad-live-375.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Watched mid-debate: the rest may stream at the normal speed.
  await hurry("Cedar River flood families");
  // Round 1 disagrees, round 2 agrees with both answers passing their checks: consensus, no judge.
  const summary = page.getByTestId("verdict-summary");
  await expect(summary).toBeVisible({ timeout: 150_000 });
  await expect(summary).toContainText("True");
  await expect(summary).toContainText("Supported by the evidence");
  await expect(summary).toContainText("Decided by consensus");
  await expect(summary).not.toContainText("judge's confidence");
  await expect(page.getByTestId("debate-status")).toHaveText("completed");
  const markers = page.getByTestId("consensus-marker");
  await expect(markers).toHaveCount(2);
  await expect(markers.nth(0)).toContainText("They disagree");
  await expect(markers.nth(0)).toContainText("next round");
  await expect(markers.nth(1)).toContainText("Both agents agree: Supported by the evidence — no judge needed");
  // Faithfulness 3 of 4 passes 0.7; the unsupported statement is marked; relevance is calibrated for MiniLM.
  const gate = page.getByTestId("gate").first();
  await expect(gate).toContainText("0.75 · passes");
  await expect(gate.getByTestId("unsupported-statement")).toContainText("The money paid for flood relief.");
  // The round-2 query shows how it changed from round 1.
  await expect(
    page.locator("[data-testid=tool-mad-round][data-round='2'] [data-testid=query-diff]").first(),
  ).toContainText("2019");
  // One search per agent per round.
  expect((await searches(page)).length).toBe(4);

  for (const [width, height] of [
    [1280, 900],
    [375, 740],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.reload();
    await expect(page.getByTestId("verdict-summary")).toBeVisible();
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
    if (width === 1280) {
      // Side by side on a wide screen, stacked on a phone.
      const [a, b] = await page
        .locator("[data-testid=tool-mad-round][data-round='1'] [data-testid=agent-column]")
        .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
      expect(a).toBe(b);
    }
    await page.screenshot({ path: `test-results/tool-mad-finished-${width}.png`, fullPage: true });
  }
});

test("Tool-MAD stopped mid-round resumes without searching again, and the judge decides when they never agree", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await ensureDemoCorpus(page);
  await startToolMad(
    page,
    "SLOW DISAGREE: Governor Elena Marsh raised $2.4 million at a charity auction for flood families.",
  );
  // Stop while round 1's answers are being written, after both searches are stored.
  await expect.poll(async () => (await searches(page)).length, { timeout: 60_000 }).toBe(2);
  await expect(page.locator("[data-testid=turn][data-status=streaming][data-phase=answer]").first()).toBeVisible({
    timeout: 30_000,
  });
  const stored = await searches(page);
  await page.getByRole("button", { name: "Stop debate" }).click();
  await expect(page.getByTestId("debate-status")).toContainText("stopped", { timeout: 15_000 });
  await page.reload();
  expect(await searches(page)).toEqual(stored);

  await page.getByRole("button", { name: "Resume from the last finished turn" }).click();
  await hurry("charity auction for flood families");
  await expect(page.getByTestId("verdict-summary")).toBeVisible({ timeout: 150_000 });
  await page.reload();
  const all = await searches(page);
  // The round-1 searches are the stored ones (same turns), and no round ran a search twice.
  for (const s of stored) expect(all).toContain(s);
  expect(all.length).toBe(4);
  expect(new Set(all.map((s) => s.split("|").slice(0, 2).join("|"))).size).toBe(4);
  const summary = page.getByTestId("verdict-summary");
  await expect(summary).toContainText("False");
  await expect(summary).toContainText("Refuted by the evidence");
  await expect(summary).toContainText("Decided by the judge");
  await expect(page.getByTestId("consensus-marker").nth(0)).toContainText("next round");
  await expect(page.getByTestId("consensus-marker").nth(1)).toContainText("the judge decides");
  await expect(page.getByTestId("verdict")).toContainText("Scores the judge weighed");
  await page.screenshot({ path: "test-results/tool-mad-judge-1280.png", fullPage: true });
});

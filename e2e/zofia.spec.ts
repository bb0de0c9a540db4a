import { expect, test, type Page } from "./fixtures";
import { ensureDemoCorpus, noSidewaysScroll } from "./tool-mad-helpers";
import { startPastEarlierChecks } from "./match-helpers";
import { hurry, resetHurry } from "./hurry";

/*
 * ZoFia end to end, as a journalist with no search key and no encyclopedia: paste a news article,
 * pick ZoFia, watch entities become keywords and a search, the analyses appear, the debate stream,
 * reload mid-debate, and reach a verdict. e2e/fake-openai-zofia.mjs answers ZoFia's prompts: the
 * judge says "continue" after round 1 and "fake" after round 2. "SLOW" in the article makes every
 * call that reads the article stream 8x slower, so the debate can be watched and reloaded.
 */

const HEADLINE = "Governor Marsh's auction raises $2.4 million for Cedar River flood families";
const ARTICLE = [
  "Governor Elena Marsh stunned the state on Saturday night! At an unprecedented charity auction in Millbrook, the governor raised $2.4 million for families whose homes were destroyed when the Cedar River flooded.",
  "Insiders say the heroic governor personally auctioned a restored fishing boat for $310,000. Every dollar, she promised, will go straight to the flood families of Millbrook and Eastfield.",
  "Critics in Port Avery have stayed silent. Nobody else has done as much for the victims of the Cedar River floods, supporters say. SLOW",
].join("\n\n");

test.afterEach(resetHurry);

const completedArguments = (page: Page) =>
  page
    .locator("[data-testid=turn][data-status=completed]")
    .evaluateAll((els) =>
      els.map((e) => `${e.getAttribute("data-seq")}|${e.getAttribute("data-role")}|${e.textContent}`),
    );

test("a journalist pastes an article, picks ZoFia, watches the pipeline and the debate, reloads mid-debate and gets a verdict", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await ensureDemoCorpus(page);

  await page.goto("/debates/new");
  await page.getByRole("radio", { name: /ZoFia/ }).check();
  const input = page.getByTestId("article-input");
  await expect(input).toBeVisible();
  // The body counts to 20,000 live, and says by how much a paste is over.
  const body = page.getByLabel("Article text");
  await body.fill("x".repeat(20_001));
  await expect(page.getByTestId("article-count")).toHaveText("20,001 / 20,000 characters");
  await expect(input).toContainText("The article is 1 character over the 20,000-character limit");
  await body.fill(ARTICLE);
  await expect(page.getByTestId("article-count")).toHaveText(
    `${ARTICLE.length.toLocaleString("en-US")} / 20,000 characters`,
  );
  await page.getByLabel("Headline").fill(HEADLINE);
  await page.getByLabel("Publication date").fill("2025-05-02");
  // Fetching refuses an address on this server's own network, in words, and keeps what was pasted.
  await page.getByLabel(/Article address/).fill("http://127.0.0.1:9/story");
  await page.getByRole("button", { name: "Fetch from address" }).click();
  await expect(page.getByTestId("article-fetch-error")).toContainText("private or local network");
  await expect(body).toHaveValue(ARTICLE);
  await page.getByLabel(/Article address/).fill("");

  for (const [width, height] of [
    [1280, 900],
    [375, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
    await input.screenshot({ path: `test-results/zofia-article-input-${width}.png` });
    await page.screenshot({ path: `test-results/zofia-form-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await startPastEarlierChecks(page, page.getByRole("button", { name: "Start debate" }), /\/debates\/[0-9a-f-]{36}$/);
  await page.waitForURL(/\/debates\/[0-9a-f-]{36}$/);

  // The page is ZoFia's, headed by the article, with the web cutoff the day before publication.
  await expect(page.getByTestId("zofia-page")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(HEADLINE);
  await expect(page.getByText("Published 2025-05-02 · web evidence up to 2025-05-01")).toBeVisible();

  // Stage 1: entities (rule-based, labelled heuristic), keywords step by step, the query sent, no encyclopedia.
  await expect(page.getByTestId("zofia-ner")).toContainText("rule-based NER, heuristic confidence", {
    timeout: 60_000,
  });
  await expect(page.getByTestId("zofia-ner")).toContainText("Elena Marsh");
  // Kinds of name in words ("person", "place"), not the tagger's codes (PER, LOC).
  await expect(page.getByTestId("zofia-ner").locator("li").filter({ hasText: "Elena Marsh" }).first()).toContainText(
    "person",
  );
  await expect(page.getByTestId("zofia-ner")).not.toContainText("PER");
  await expect(page.getByTestId("zofia-salience")).toContainText("How close each name's sentences are in meaning", {
    timeout: 60_000,
  });
  await expect(page.getByTestId("zofia-keywords")).not.toContainText("SC-MMR");
  await expect(page.getByTestId("zofia-mmr-step").first()).toContainText("k = ", { timeout: 60_000 });
  await expect(page.getByTestId("zofia-keywords")).toContainText("Keywords:");
  await expect(page.getByTestId("zofia-query").first()).toContainText("Query:", { timeout: 60_000 });
  await expect(page.getByTestId("zofia-query").first()).toContainText("offline stand-in for web search");
  await expect(page.getByTestId("zofia-wiki")).toContainText("encyclopedia lookup unavailable");
  await expect(page.locator("[data-testid=zofia-matrix] [data-agent=pro]")).toContainText(
    "encyclopedia lookup unavailable",
  );

  // The debate streams: an argument is being written; reload mid-debate loses nothing finished.
  await expect(page.locator("[data-testid=turn][data-status=streaming]").first()).toBeVisible({ timeout: 120_000 });
  await page.screenshot({ path: "test-results/zofia-live-1280.png", fullPage: true });
  await expect(page.locator("[data-testid=turn][data-status=completed]").first()).toBeVisible({ timeout: 60_000 });
  const before = await completedArguments(page);
  await page.reload();
  await expect(page.getByTestId("zofia-page")).toBeVisible();
  const after = await completedArguments(page);
  for (const t of before) expect(after).toContain(t);
  // Reloaded mid-debate: the rest may stream at the normal speed.
  await hurry("Critics in Port Avery have stayed silent");

  // Verdict: FAKE, read as FALSE, after the judge said "continue" in round 1 and "fake" in round 2.
  const verdict = page.getByTestId("zofia-verdict");
  await expect(verdict).toBeVisible({ timeout: 180_000 });
  await expect(page.getByTestId("zofia-verdict-label")).toHaveText("Fake news");
  // One verdict shape for every method: the product-scale label first, then the method's own words.
  await expect(verdict.getByTestId("people-verdict").first()).toHaveAttribute("data-product", "FALSE");
  await expect(verdict.getByTestId("verdict-label").first()).toHaveText("False");
  await expect(verdict).toContainText("said Fake news");
  await expect(verdict).toContainText("Decided in round 2");
  // Its label probabilities in the same words as the verdict, never codes.
  await expect(page.getByTestId("zofia-label-probs")).toContainText(/False \(ZoFia: Fake news\) \d+%/);
  await expect(page.getByTestId("debate-status")).toHaveText("completed");
  const calls = page.getByTestId("zofia-judge-call");
  await expect(calls).toHaveCount(2);
  await expect(calls.nth(0)).toHaveAttribute("data-answer", "I");
  await expect(calls.nth(0)).toContainText("continue");
  await expect(calls.nth(0)).toContainText("60%");
  await expect(calls.nth(1)).toHaveAttribute("data-answer", "F");
  await expect(calls.nth(1)).toContainText("85%");

  // Analyses: five linguist readings with their lean, the expert's field, claims with the verifier's label and quotes checked.
  await expect(page.locator("[data-testid=zofia-linguist] [data-dimension]")).toHaveCount(5);
  await expect(page.locator("[data-testid=zofia-linguist] [data-dimension=emotion]")).toContainText("leans fake");
  await expect(page.getByTestId("zofia-expert")).toContainText("public finance reporter");
  await expect(page.getByTestId("zofia-claim")).toHaveCount(3);
  await expect(page.getByTestId("zofia-claims")).toContainText("not found in the source");

  for (const [width, height] of [
    [1280, 900],
    [375, 740],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.reload();
    await expect(page.getByTestId("zofia-verdict")).toBeVisible();
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/zofia-finished-${width}.png`, fullPage: true });
  }
});

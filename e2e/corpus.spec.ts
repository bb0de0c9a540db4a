import { expect, test, type Page } from "./fixtures";
import { USERS } from "./users";

/*
 * Runs first (files run in alphabetical order) on the fresh database: it starts from an install
 * with no corpus, and leaves the demo corpus loaded for the suites after it.
 */

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

// Specs run one file at a time in name order: this one must sort before every spec that loads the demo
// corpus (debate, side-by-side, tool-mad ...), since it checks what an empty install offers.
test("an empty install offers the demo corpus, and its load streams to completed", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Load the demo corpus" })).toBeVisible();
  await page.goto("/corpora");
  await expect(page.getByRole("heading", { name: "No corpus yet" })).toBeVisible();
  const started = Date.now();
  await page.getByRole("button", { name: "Load the demo corpus" }).click();
  await page.waitForURL(/\/corpora\/demo$/);
  const job = page.getByTestId("ingest-job").first();
  await expect(job).toContainText("demo corpus");
  await expect(job).toHaveAttribute("data-status", "completed", { timeout: 90_000 });
  const seconds = (Date.now() - started) / 1000;
  test
    .info()
    .annotations.push({ type: "demo corpus load", description: `${seconds.toFixed(1)} s from click to completed` });
  console.log(`[e2e] demo corpus: ${seconds.toFixed(1)} s from click to completed`);
  await expect(job).toContainText("completed");
  await expect(job.getByTestId("job-counts")).toContainText("30 added");
  await expect(job.getByTestId("job-counts")).toContainText("no errors");
  // The page refreshes itself when the job ends: counts and documents are there without a reload.
  await expect(page.getByTestId("corpus-stats")).toContainText("Documents 30");
  await expect(page.getByTestId("demo-ready")).toContainText("Governor Elena Marsh");
  await page.screenshot({ path: "test-results/corpus-demo.png", fullPage: true });
  // 25 a page, newest first: the last of the demo's items leads, the first ones are on page 2.
  await expect(page.getByTestId("document-list")).toContainText("Flood relief fund has paid $850,000 so far");
  await expect(page.getByTestId("document-list").locator("li").first()).toContainText("1 passage");
  await page.getByRole("link", { name: "Older" }).click();
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  await expect(page.getByTestId("document-list")).toContainText("Senator Marsh's gala auction raises $2.4 million");

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "The demo corpus is loaded" })).toBeVisible();
  // With the demo loaded, the home page offers its sample claim pre-filled in the form.
  await expect(page.getByRole("main").getByRole("link", { name: "Check this claim" })).toHaveAttribute(
    "href",
    /^\/debates\/new\?claim=/,
  );
  await page.goto("/corpora");
  await expect(page.getByTestId("corpus-list")).toContainText("demo");
  await expect(page.getByTestId("corpus-list")).toContainText("local:minilm-l6");
});

test("people who cannot add evidence are not offered the forms: an annotator and a journalist see no upload area, demo loader or 'Create corpus'", async ({
  browser,
}) => {
  for (const who of ["annotator1", "journalist"] as const) {
    const context = await browser.newContext({ storageState: USERS[who].state });
    const page = await context.newPage();
    await page.goto("/corpora");
    await expect(page.getByTestId("corpus-list")).toContainText("demo");
    await expect(page.getByTestId("create-corpus")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Create corpus" })).toHaveCount(0);
    await page.goto("/corpora/demo");
    await expect(page.getByTestId("corpus-stats")).toContainText("Documents 30");
    await expect(page.getByTestId("add-documents")).toHaveCount(0);
    await expect(page.getByTestId("demo-ready")).toHaveCount(0);
    await page.goto("/");
    await expect(page.getByRole("main").getByRole("link", { name: "Check this claim" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Load the demo corpus" })).toHaveCount(0);
    await context.close();
  }
});

test("an uploaded JSONL is ingested on the server with its bad line reported, and unknown types are refused", async ({
  page,
  allowConsoleError,
}) => {
  // The browser logs the refused upload's HTTP 415 as a failed resource load; that refusal is the point.
  allowConsoleError(/status of 415/);
  await page.goto("/corpora");
  const name = page.getByLabel("New corpus name");
  await name.fill("not a name!");
  await page.getByRole("button", { name: "Create corpus" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "no spaces" })).toBeVisible();
  await name.fill("e2e-uploads");
  await page.getByRole("button", { name: "Create corpus" }).click();
  await page.waitForURL(/\/corpora\/e2e-uploads$/);
  await expect(page.getByText("No documents yet.")).toBeVisible();

  const lines = [
    JSON.stringify({
      id: "minutes-1",
      title: "Council minutes, March",
      text: "The council approved the harbour dredging contract by five votes to two.",
      published_at: "2025-03-04",
    }),
    JSON.stringify({
      id: "minutes-2",
      title: "Council minutes, April",
      text: "The council postponed the vote on the parking levy until June.",
    }),
    '{"id": "broken", "text": "this line is cut off',
    JSON.stringify({
      id: "minutes-3",
      title: "Council minutes, May",
      text: "The parking levy passed on its second reading.",
    }),
  ];
  await page.getByLabel("Files to upload").setInputFiles({
    name: "minutes.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(lines.join("\n") + "\n"),
  });
  const job = page.getByTestId("ingest-job").first();
  await expect(job).toContainText("minutes.jsonl");
  await expect(job).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
  await expect(job.getByTestId("job-counts")).toContainText("3 added");
  await expect(job.getByTestId("job-counts")).toContainText("1 error, line 3");
  await job.getByText(/^Problems/).click();
  await expect(job).toContainText("line 3: not valid JSON");
  const docs = page.getByTestId("document-list");
  await expect(docs).toContainText("Council minutes, March");
  await expect(docs).toContainText("Council minutes, May");
  await expect(docs.locator("li")).toHaveCount(3);

  await page.getByLabel("Files to upload").setInputFiles({
    name: "minutes.docx",
    mimeType: "application/octet-stream",
    buffer: Buffer.from("PK not a supported file"),
  });
  const refused = page.getByTestId("upload-status").locator("li[data-state=refused]");
  await expect(refused).toContainText(
    'minutes.docx: refused: ".docx" files are not accepted. Accepted: .jsonl, .ndjson, .csv',
  );
  await expect(page.getByTestId("ingest-job")).toHaveCount(1);
  await page.screenshot({ path: "test-results/corpus-upload.png", fullPage: true });

  // The same refusals for API clients, before a byte is stored.
  const unknown = await page.request.post("/api/corpora/e2e-uploads/uploads?filename=notes.exe", {
    headers: { Origin: new URL(page.url()).origin },
    data: Buffer.from("x"),
  });
  expect(unknown.status()).toBe(415);
  expect((await unknown.json()).error).toContain("Accepted: .jsonl");
  const missing = await page.request.post("/api/corpora/no-such-corpus/uploads?filename=a.txt", {
    headers: { Origin: new URL(page.url()).origin },
    data: Buffer.from("hello"),
  });
  expect(missing.status()).toBe(404);
});

test("a running upload streams its progress live, and can be cancelled and resumed", async ({ page }) => {
  // Batches of 256 records; MiniLM embeds about a hundred one-line records a second on two idle
  // cores, so 2,000 records leave time to see counts move and to cancel between two batches.
  test.setTimeout(240_000);
  await page.goto("/corpora/e2e-uploads");
  const rows = Array.from({ length: 2000 }, (_, i) =>
    JSON.stringify({
      id: `bulk-${i}`,
      title: `Bulletin ${i}`,
      text: `Bulletin ${i}: the harbour office logged ${i * 7} ship movements and ${i % 13} delays in week ${i}.`,
    }),
  );
  await page.getByLabel("Files to upload").setInputFiles({
    name: "bulk.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(rows.join("\n") + "\n"),
  });
  const job = page.locator("[data-testid=ingest-job]").filter({ hasText: "bulk.jsonl" });
  // Counts moving while the status is still "running" can only come from the event stream.
  await expect(job).toHaveAttribute("data-status", "running");
  await expect(job.getByTestId("job-counts")).toContainText(/KiB of [\d.]+ KiB · (256|512|768|1,024) records/, {
    timeout: 90_000,
  });
  await expect(job).toHaveAttribute("data-status", "running");
  await expect(job.getByRole("progressbar")).toBeVisible();
  await job.getByRole("button", { name: "Cancel" }).click();
  await expect(job).toHaveAttribute("data-status", "cancelled", { timeout: 15_000 });
  await expect(job).toContainText("cancelled");
  await job.getByRole("button", { name: "Resume" }).click();
  await expect(job).toHaveAttribute("data-status", "completed", { timeout: 200_000 });
  // Counts go on from the batches committed before the cancel: nothing is counted twice.
  await expect(job.getByTestId("job-counts")).toContainText("2,000 records · 2,000 added");
});

test("searching the demo corpus shows highlighted words, the ranks behind each score, and opens the passage in its document", async ({
  page,
}) => {
  await page.goto("/");
  await page.getByLabel("Search passages").fill("toll for trucks on the Tollgate Bridge");
  await page.getByLabel("Search passages").press("Enter");
  await page.waitForURL(/\/search\?q=/);
  const hits = page.getByTestId("search-hit");
  await expect(hits.first()).toBeVisible();
  const first = hits.first();
  await expect(first).toContainText("Tollgate Bridge");
  await expect(first.locator("mark").first()).toBeVisible();
  const marked = (await first.locator("mark").allTextContents()).map((t) => t.toLowerCase());
  expect(marked).toEqual(expect.arrayContaining(["toll", "trucks"]));
  await expect(first.getByTestId("hit-scores")).toHaveText(
    /dense #\d+ \(cosine [\d.]+\) · lexical #\d+ \(BM25 [\d.]+\) · RRF 0\.\d{4}/,
  );
  await expect(first.getByTestId("weak-match")).toHaveCount(0);
  await page.screenshot({ path: "test-results/search.png", fullPage: true });

  // Reloadable from its address, and the filters are in it.
  await page.goto(`/search?q=${encodeURIComponent("toll trucks")}&corpus=demo&mode=lexical&k=5&before=2025-02-11`);
  await expect(page.getByLabel("Mode")).toHaveValue("lexical");
  await expect(hits).not.toHaveCount(0);
  await expect(hits.first()).toContainText("Tollgate Bridge toll schedule approved");
  await expect(hits.first().getByTestId("hit-scores")).toHaveText(/^lexical #1 \(BM25/);
  // Published 2025-02-12, after the date: left out.
  await expect(page.getByTestId("search-results")).not.toContainText("Commuter pass");

  const link = hits.first().getByRole("link");
  const href = await link.getAttribute("href");
  expect(href).toMatch(/^\/corpora\/demo\/documents\/\d+#p0$/);
  await link.click();
  await page.waitForURL(/\/corpora\/demo\/documents\/\d+#p0$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tollgate Bridge toll schedule approved");
  const target = page.locator("[data-testid=passage]:target");
  await expect(target).toHaveCount(1);
  await expect(target).toBeInViewport();
  await expect(target).toContainText("trucks with five or more axles pay $15");
});

test("a nonsense query's hits are marked weak, and the words searched are the user's own, not stems", async ({
  page,
}) => {
  await page.goto(`/search?q=${encodeURIComponent("Xyzzy plugh frobnicating")}&corpus=demo`);
  const hits = page.getByTestId("search-hit");
  await expect(hits).not.toHaveCount(0);
  await expect(page.getByTestId("weak-note")).toContainText("None of these passages contains a word of your query");
  await expect(page.getByTestId("weak-match")).toHaveCount(await hits.count());
  const heading = page.locator("#results-title");
  await expect(heading).toContainText("words searched: Xyzzy, plugh, frobnicating");
  await expect(heading).not.toContainText("xyzzi");
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: "test-results/search-weak-375.png", fullPage: true });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
});

test("search problems are messages, not crashes", async ({ page }) => {
  await page.goto("/search?q=anything&corpus=no-such-corpus");
  await expect(page.getByTestId("search-error")).toHaveText('There is no corpus named "no-such-corpus".');
  await page.goto("/search?q=anything&corpus=e2e-uploads&before=yesterday");
  await expect(page.getByTestId("search-error")).toContainText("is not a date");
});

test("corpus and search pages work at 375 px without sideways scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  for (const url of ["/corpora", "/corpora/demo", `/search?q=${encodeURIComponent("Marsh auction flood relief")}`]) {
    await page.goto(url);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await noSidewaysScroll(page), url).toBeLessThanOrEqual(0);
  }
});

import { percentile } from "./metrics";
import { launchChromium, startScriptedApp, TOKEN_CLOCK_SCRIPT } from "./browser-rig";

/**
 * Time from a model emitting a token to that token being visible in a browser: the production
 * server streams a debate from a scripted OpenAI-compatible server whose every token carries the
 * time it was sent; a MutationObserver in headless Chromium records when each one appears.
 * Both clocks are the local computer's.
 */

export async function benchTokenToBrowser(
  opts: { port?: number; fakePort?: number; chromium?: string; tokenDelayMs?: number } = {},
) {
  const browser = await launchChromium(opts.chromium ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium");
  let app: Awaited<ReturnType<typeof startScriptedApp>> | undefined;
  try {
    app = await startScriptedApp({
      port: opts.port ?? 3297,
      fakePort: opts.fakePort ?? 3298,
      tokenDelayMs: opts.tokenDelayMs,
      healthTimeoutMs: 600_000,
    });
    const page = await browser.newPage();
    await page.addInitScript(TOKEN_CLOCK_SCRIPT);
    // Signs in as an admin: on a fresh install the first admin is created on /setup (browser-rig.ts).
    await app.createAdmin(page);
    await page.goto(`${app.base}/debates/new`);
    await page.getByLabel("Claim", { exact: true }).fill("The boxer sold his medal to help children in the 2022 war.");
    await page.getByLabel("Paste gold evidence").check();
    await page
      .getByLabel(/Evidence passages, one per paragraph/)
      .fill("The medal was auctioned in 2012.\n\nThe war began in 2022.");
    await page.getByRole("button", { name: "Start debate" }).click();
    await page.waitForURL(/\/debates\/[0-9a-f-]{36}$/);
    await page.getByTestId("verdict").waitFor({ timeout: 300_000 });
    const latencies = (await page.evaluate("[...window.__tokenTimes.values()]")) as number[];
    if (latencies.length === 0) throw new Error("no timestamped token reached the page");
    return {
      token_to_browser_ms_p50: percentile(latencies, 50),
      token_to_browser_ms_p95: percentile(latencies, 95),
      token_to_browser_samples: latencies.length,
    };
  } finally {
    await browser.close();
    await app?.stop();
  }
}

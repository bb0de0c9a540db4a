import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Database } from "@/db/client";
import { DebateQueue } from "@/lib/debate/queue";
import { TOKEN_CLOCK_SCRIPT } from "./browser-rig";
import { percentile } from "./metrics";
import { benchViewer, createBenchDebates, deleteBenchDebates, removeBenchViewer, waitAllCompleted } from "./scale-db";
import { ROOT, startProcess, stopProcess, waitHealthy, type Proc } from "./scale-processes";

/**
 * Model token to watcher, across processes: a real `counterpoint worker` runs the debate against
 * the scripted OpenAI-compatible server (e2e/fake-openai.mjs, every speech token stamped with the
 * time it was sent), and the watcher is on a production app server (`next start`,
 * IN_PROCESS_WORKER=0) that does not run it, so every token crosses worker → PostgreSQL
 * LISTEN/NOTIFY → app server → watcher. The watcher is headless Chromium (a MutationObserver
 * records when each stamped token appears in the DOM) or, with --no-browser, an SSE client in this
 * process reading the same event stream. One machine, one clock.
 */

const STAMP = /\u27E6(\d+)\u27E7/g;

/** Why the latency part cannot run, in words that say what to do; null when it can. */
export function latencyPrerequisite(browser: boolean, chromium: string): string | null {
  if (!fs.existsSync(path.join(ROOT, ".next", "BUILD_ID")))
    return `No production build in ${path.join(ROOT, ".next")}: the latency measurement watches from a production app server (\`next start\`). Run \`npm run build\` first (a few minutes), or pass --no-token-latency to measure only throughput and lost turns.`;
  if (browser && !fs.existsSync(chromium))
    return `No Chromium at ${chromium}: install Debian's chromium package, set CHROMIUM_PATH, or pass --no-browser to measure to an SSE client instead.`;
  return null;
}

export type LatencyResult = {
  samples: number;
  p50: number;
  p95: number;
  debates: number;
  watcher: "browser" | "sse-client";
};

export async function benchCrossProcessLatency(
  db: Database,
  opts: {
    url: string;
    appPort: number;
    fakePort: number;
    workerHealthPort: number;
    perTokenMs: number;
    debates: number;
    keepDebates: boolean;
    browser: boolean;
    chromium: string;
    log: (l: string) => void;
  },
): Promise<LatencyResult> {
  const started: Proc[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-bench-scale-"));
  const viewer = await benchViewer(db);
  const queue = new DebateQueue(db, opts.url);
  const ids: string[] = [];
  let browser: import("@playwright/test").Browser | null = null;
  try {
    const base = `http://127.0.0.1:${opts.fakePort}/v1`;
    const providerEnv = {
      DEFAULT_MODEL: "openai-compatible:scripted",
      ROLE_MODELS: "",
      OPENAI_COMPATIBLE_SCRIPTED_BASE_URL: base,
      OPENAI_COMPATIBLE_SCRIPTED_MODEL: "scripted",
      OPENAI_API_KEY: "",
      ANTHROPIC_API_KEY: "",
    };
    const fake = startProcess([path.join(ROOT, "e2e/fake-openai.mjs")], {
      FAKE_OPENAI_PORT: String(opts.fakePort),
      FAKE_OPENAI_TIMESTAMPS: "1",
      FAKE_OPENAI_DELAY_MS: String(opts.perTokenMs),
    });
    started.push(fake);
    const worker = startProcess(
      [
        path.join(ROOT, "bin/counterpoint.mjs"),
        "worker",
        "--concurrency",
        "1",
        "--debates-concurrency",
        "1",
        "--health-port",
        String(opts.workerHealthPort),
        "--json",
      ],
      { DATABASE_URL: opts.url, DATA_DIR: dataDir, ...providerEnv },
    );
    started.push(worker);
    opts.log(
      `latency: starting the production app server on :${opts.appPort} (IN_PROCESS_WORKER=0) and a worker process`,
    );
    const app = startProcess(
      [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(opts.appPort), "-H", "127.0.0.1"],
      {
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        DATABASE_URL: opts.url,
        DATA_DIR: dataDir,
        IN_PROCESS_WORKER: "0",
        ...providerEnv,
      },
    );
    started.push(app);
    await waitHealthy(`http://127.0.0.1:${opts.fakePort}/`, fake, "the scripted model server", 30_000);
    await waitHealthy(`http://127.0.0.1:${opts.workerHealthPort}/health`, worker, "the worker", 120_000);
    await waitHealthy(`http://127.0.0.1:${opts.appPort}/api/health`, app, "the app server", 180_000);

    if (opts.browser) {
      const { chromium } = await import("@playwright/test");
      browser = await chromium.launch({
        executablePath: opts.chromium,
        args: [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--no-first-run",
        ],
      });
    }
    const all: number[] = [];
    for (let i = 0; i < opts.debates; i++) {
      const [id] = await createBenchDebates(db, 1, { model: "openai-compatible:scripted", tag: `latency ${i + 1}` });
      ids.push(id!);
      const watch = browser
        ? await watchInBrowser(browser, opts.appPort, viewer.sessionToken, id!)
        : await watchWithSse(opts.appPort, viewer.sessionToken, id!);
      // The watcher is subscribed before the debate is queued, so every token reaches it live.
      await queue.enqueue(id!);
      await waitAllCompleted(db, [id!], 300_000);
      const latencies = await watch.finish();
      if (latencies.length === 0)
        throw new Error(`no stamped token of debate ${id} reached the ${browser ? "browser" : "SSE client"}`);
      all.push(...latencies);
      opts.log(
        `latency: debate ${i + 1}/${opts.debates}: ${latencies.length} tokens, p50 ${percentile(latencies, 50)} ms, p95 ${percentile(latencies, 95)} ms`,
      );
    }
    return {
      samples: all.length,
      p50: percentile(all, 50),
      p95: percentile(all, 95),
      debates: opts.debates,
      watcher: browser ? "browser" : "sse-client",
    };
  } finally {
    await browser?.close().catch(() => undefined);
    opts.log("latency: stopping the app server, the worker and the model server");
    await Promise.all(started.map((p) => stopProcess(p)));
    await queue.close();
    if (!opts.keepDebates) await deleteBenchDebates(db, ids).catch(() => undefined);
    await removeBenchViewer(db, viewer.userId).catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

type Watch = { finish: () => Promise<number[]> };

/** Opens the debate's page and waits until its event stream has delivered the start-up snapshot. */
async function watchInBrowser(
  browser: import("@playwright/test").Browser,
  port: number,
  sessionToken: string,
  id: string,
): Promise<Watch> {
  const context = await browser.newContext();
  await context.addCookies([{ name: "cp_session", value: sessionToken, url: `http://127.0.0.1:${port}` }]);
  const page = await context.newPage();
  await page.addInitScript(TOKEN_CLOCK_SCRIPT);
  await page.addInitScript(`
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(...args) {
        super(...args);
        this.addEventListener("snapshot", () => { window.__snapshots = (window.__snapshots || 0) + 1; });
      }
    };
  `);
  await page.goto(`http://127.0.0.1:${port}/debates/${id}`);
  // Polled through evaluate: waitForFunction with a string evaluates it in the page, which the app's CSP refuses.
  const until = Date.now() + 60_000;
  while (!((await page.evaluate("window.__snapshots || 0")) as number)) {
    if (Date.now() > until)
      throw new Error(`the debate page of ${id} got no snapshot from its event stream within 60 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    finish: async () => {
      await page.getByTestId("verdict").waitFor({ timeout: 60_000 });
      const latencies = (await page.evaluate("[...window.__tokenTimes.values()]")) as number[];
      await context.close();
      return latencies;
    },
  };
}

/** Reads the debate's event stream with fetch, as a browser's EventSource would; resolves once the snapshot has arrived. */
async function watchWithSse(port: number, sessionToken: string, id: string): Promise<Watch> {
  const controller = new AbortController();
  const res = await fetch(`http://127.0.0.1:${port}/api/debates/${id}/events`, {
    headers: { cookie: `cp_session=${sessionToken}`, accept: "text/event-stream" },
    signal: controller.signal,
  });
  if (!res.ok || !res.body)
    throw new Error(
      `the app server refused the event stream of debate ${id}: ${res.status} ${await res.text().catch(() => "")}`,
    );
  const latencies: number[] = [];
  const seen = new Set<string>();
  let snapshot: () => void = () => {};
  const gotSnapshot = new Promise<void>((r) => (snapshot = r));
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const reading = (async () => {
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (done) return;
      const now = Date.now();
      buf += value;
      let end: number;
      while ((end = buf.indexOf("\n\n")) !== -1) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event === "snapshot") snapshot();
        if (event !== "debate" || !data) continue;
        const e = JSON.parse(data) as { type: string; text?: string };
        if (e.type !== "delta" || !e.text) continue;
        for (const m of e.text.matchAll(STAMP)) {
          if (seen.has(m[1]!)) continue;
          seen.add(m[1]!);
          latencies.push(now - Number(m[1]));
        }
      }
    }
  })();
  await within(gotSnapshot, 60_000, `no snapshot on the event stream of debate ${id} within 60 s`);
  return {
    finish: async () => {
      // The stream closes itself once the debate has ended; the last deltas may still be on the way.
      await within(reading, 10_000, null);
      controller.abort();
      return latencies;
    },
  };
}

/** Waits for `p` at most `ms`; then rejects with `error`, or resolves when `error` is null. The timer never outlives the wait. */
async function within(p: Promise<unknown>, ms: number, error: string | null): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      p,
      new Promise<void>(
        (resolve, reject) => (timer = setTimeout(() => (error ? reject(new Error(error)) : resolve()), ms)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

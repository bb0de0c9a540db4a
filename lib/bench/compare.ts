import { and, eq } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { insertComparison, setComparisonMethods } from "@/db/queries/comparisons";
import { getComparisonView } from "@/lib/compare/view";
import { ensembleVote } from "@/lib/compare/ensemble";
import { parseConfig } from "@/lib/config";
import { PROTOCOL_NAMES } from "@/lib/debate/protocols";
import { runDebate } from "@/lib/debate/runner";
import { BENCH_ARTICLE, BENCH_CORPUS, createPresetDebate, ensureBenchCorpus, TOOL_MAD_SCRIPTS } from "./protocols";
import { scriptedEmbedder } from "./scripted-embedder";
import { scriptedModel, type Script } from "./scripted-model";
import { launchChromium, type ScriptedApp, startScriptedApp } from "./browser-rig";
import { percentile } from "./metrics";

/**
 * `counterpoint bench compare`: one claim through every protocol at once, as "Compare methods"
 * starts them, with the scripted model (fixed latency): the wall time of the whole comparison
 * against each debate's own, and calls and tokens per protocol. The model is a measuring
 * instrument, never something the app can run; numbers are printed, never asserted.
 */

const MODEL = "openai:gpt-4o-mini";
/** A sentence with names the rule NER finds, so ZoFia reads it as a one-paragraph article like the others read a claim. */
export const COMPARE_CLAIM =
  "Olympic champion Oleksandr Petrenko sold his gold medal in Kyiv to help children displaced by the 2022 war.";

export type CompareBenchRow = {
  protocol: string;
  status: string;
  label: string | null;
  product_label: string | null;
  llm_calls: number;
  tool_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  tokens: number;
  /** This debate's own time, from its start to its verdict, while the others ran beside it. */
  duration_ms: number | null;
};

export type CompareBenchReport = {
  backend: string;
  claim: string;
  protocols: string[];
  model_latency_ms: { first_token: number; per_token: number };
  runs: number;
  /** Median over the runs: the whole comparison, first debate started to last verdict. */
  wall_ms_p50: number;
  /** Median over the runs of the sum of each debate's own time: what running them one after another would take, roughly. */
  sum_of_debates_ms_p50: number;
  /** Rows of the last run (calls and tokens do not vary between runs with the scripted model). */
  rows: CompareBenchRow[];
  totals: { llm_calls: number; tokens: number };
  ensemble: { majority: string | null; confidence_weighted: string | null; explanation: string };
  /** Token-to-browser p95 on the comparison page while every method streams; null when it could not be measured, with the reason. */
  token_to_browser_ms_p95: number | null;
  token_to_browser_ms_p50: number | null;
  token_to_browser_samples: number;
  /** Timestamped tokens sent before every member's stream on the comparison page was open (they arrive in the start-up snapshot: load time, not streaming latency; left out). */
  token_to_browser_excluded_before_page: number;
  token_to_browser_note: string | null;
  comparison_id: string;
};

const median = (xs: number[]) => {
  const a = [...xs].sort((x, y) => x - y);
  return a.length ? a[Math.floor((a.length - 1) / 2)]! : NaN;
};

/** One comparison of every protocol (defaults; Tool-MAD with its FEVER script), all debates run at once. */
async function oneRun(h: DbHandle, protocols: string[], latency: Pick<Script, "firstDelayMs" | "delayMs">) {
  const { db } = h;
  const corpus = await db.select({ id: s.corpora.id }).from(s.corpora).where(eq(s.corpora.name, BENCH_CORPUS));
  const { id, claimId } = await insertComparison(db, {
    claim: {
      text: COMPARE_CLAIM,
      claimDate: new Date(`${BENCH_ARTICLE.date}T00:00:00Z`),
      metadata: { title: BENCH_ARTICLE.title },
    },
    corpusId: corpus[0]?.id ?? null,
    methods: protocols.map((protocol) => ({ protocol, preset: null })),
    ensemble: "majority",
    createdBy: null,
  });
  // Created as the bench creates every protocol debate (offline tools, the scripted encoder), linked to the comparison.
  const debateIds: string[] = [];
  for (const p of protocols) debateIds.push(await createPresetDebate(db, p, "", { claimId, comparisonId: id }));
  await setComparisonMethods(
    db,
    id,
    protocols.map((protocol, i) => ({ protocol, preset: null, debateId: debateIds[i] })),
  );
  const embedder = scriptedEmbedder();
  const search = { config: parseConfig({}, process.cwd()).search, deps: { db, embedder } };
  const t0 = performance.now();
  await Promise.all(
    debateIds.map((debateId, i) => {
      const m = scriptedModel(MODEL, {
        ...latency,
        pStop: 0.2,
        verdict: "FALSE",
        verdictProb: 0.9,
        toolMad: { claim: COMPARE_CLAIM, ...TOOL_MAD_SCRIPTS["toolmad-fever"] },
      });
      void i;
      return runDebate(db, debateId, { resolve: () => m.resolved, embedder, search });
    }),
  );
  const wall = performance.now() - t0;
  const view = (await getComparisonView(db, id))!;
  const rows: CompareBenchRow[] = [];
  for (const m of view.members) {
    const tools = await db
      .select({ id: s.turns.id })
      .from(s.turns)
      .where(and(eq(s.turns.debateId, m.debateId), eq(s.turns.kind, "tool"), eq(s.turns.status, "completed")));
    rows.push({
      protocol: m.protocol,
      status: m.status,
      label: m.verdict?.label ?? null,
      product_label: m.verdict?.productLabel ?? null,
      llm_calls: m.calls,
      tool_calls: tools.length,
      prompt_tokens: m.tokens.prompt,
      completion_tokens: m.tokens.completion,
      tokens: m.tokens.prompt + m.tokens.completion,
      duration_ms: m.durationMs,
    });
  }
  return { id, view, rows, wall, sum: rows.reduce((a, r) => a + (r.duration_ms ?? 0), 0) };
}

/**
 * Token-to-browser on the comparison page while every method streams: the production server (built
 * first when sources changed) runs the four debates against e2e/fake-openai.mjs, whose every
 * spoken token carries the time it was sent; a MutationObserver in headless Chromium records when
 * each one appears on /compare/<id>. Both clocks are the local computer's.
 */
export async function benchCompareBrowser(opts: {
  port?: number;
  fakePort?: number;
  chromium?: string;
  tokenDelayMs?: number;
  protocols: string[];
}) {
  // E2E_PORT / FAKE_OPENAI_PORT: the ports a machine shared by several checkouts gives this one.
  const port = opts.port ?? (Number(process.env.E2E_PORT) || 3343);
  const fakePort = opts.fakePort ?? (Number(process.env.FAKE_OPENAI_PORT) || 3344);
  const browser = await launchChromium(opts.chromium ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium");
  let app: ScriptedApp | undefined;
  try {
    app = await startScriptedApp({ port, fakePort, tokenDelayMs: opts.tokenDelayMs, healthTimeoutMs: 900_000 });
    const page = await browser.newPage();
    // A string, not a function: tsx compiles functions with helpers that do not exist in the page.
    await page.addInitScript(`
      const seen = new Map();
      const before = new Set();
      const openedAt = Date.now();
      window.__tokenTimes = seen;
      window.__tokensBefore = before;
      const scan = (text) => {
        if (!text || !location.pathname.startsWith("/compare/")) return;
        const now = Date.now();
        for (const m of text.matchAll(/\u27E6(\\d+)\u27E7/g)) {
          if (seen.has(m[1]) || before.has(m[1])) continue;
          // Sent before this page was open (while the form's request created the debates): no browser could have shown it sooner.
          if (Number(m[1]) < openedAt) before.add(m[1]);
          else seen.set(m[1], now);
        }
      };
      new MutationObserver((records) => {
        for (const r of records) scan(r.target.textContent);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    `);
    const base = app.base;
    await app.createAdmin(page);
    // Every method reads the demo corpus.
    await page.goto(`${base}/corpora`);
    await page.getByRole("button", { name: "Load the demo corpus" }).click();
    await page.waitForURL(/\/corpora\/demo$/);
    await page.locator("[data-testid=ingest-job][data-status=completed]").first().waitFor({ timeout: 300_000 });
    await page.goto(`${base}/debates/new?compare=1`);
    const form = page.getByTestId("compare-form");
    for (const p of opts.protocols) await form.locator(`input[name=method][value=${p}]`).check();
    await form
      .getByLabel("Claim", { exact: true })
      .fill("Governor Elena Marsh raised $2.4 million at a charity auction for the Cedar River flood families.");
    await form.getByLabel("Corpus", { exact: true }).selectOption("demo");
    await form.getByRole("button", { name: `Start ${opts.protocols.length} debates` }).click();
    await page.waitForURL(/\/compare\/[0-9a-f-]{36}$/, { timeout: 120_000 });
    // From the moment every member's stream is open: tokens spoken while the page was still being
    // rendered and connected arrive in the streams' start-up snapshots, which is the page's load
    // time, not its streaming latency (they are counted apart, as "before the page").
    await page.waitForFunction(
      (n) => {
        const cols = [...document.querySelectorAll("[data-testid=compare-column]")];
        return (
          cols.length === n &&
          cols.every(
            (c) =>
              !["queued", "running"].includes(c.getAttribute("data-status") ?? "") ||
              (c.textContent ?? "").includes("● live"),
          )
        );
      },
      opts.protocols.length,
      { timeout: 120_000 },
    );
    const liveAt = Date.now();
    const t0 = Date.now();
    // Until every method has its verdict (or stopped): the page streams all of them at once.
    for (;;) {
      const statuses = await page
        .locator("[data-testid=compare-column]")
        .evaluateAll((cols) => cols.map((c) => c.getAttribute("data-status") ?? ""));
      if (statuses.length === opts.protocols.length && statuses.every((x) => !["queued", "running"].includes(x))) break;
      if (Date.now() - t0 > 900_000)
        throw new Error(`the methods did not all finish within 15 minutes (${statuses.join(", ")})`);
      await page.waitForTimeout(500);
    }
    const shown = (await page.evaluate("[...window.__tokenTimes.entries()]")) as Array<[string, number]>;
    const latencies = shown.filter(([sent]) => Number(sent) >= liveAt).map(([sent, at]) => at - Number(sent));
    const excluded =
      ((await page.evaluate("window.__tokensBefore.size")) as number) + (shown.length - latencies.length);
    if (latencies.length === 0) throw new Error("no timestamped token reached the comparison page");
    return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), samples: latencies.length, excluded };
  } finally {
    await browser.close();
    await app?.stop();
  }
}

export async function benchCompare(
  h: DbHandle,
  opts: {
    runs?: number;
    firstTokenMs?: number;
    perTokenMs?: number;
    protocols?: string[];
    browser?: boolean;
    log?: (line: string) => void;
  } = {},
): Promise<CompareBenchReport> {
  const runs = opts.runs ?? 3;
  const latency = { firstDelayMs: opts.firstTokenMs ?? 50, delayMs: opts.perTokenMs ?? 2 };
  const protocols = opts.protocols ?? [...PROTOCOL_NAMES];
  await ensureBenchCorpus(h.db);
  const walls: number[] = [];
  const sums: number[] = [];
  let last: Awaited<ReturnType<typeof oneRun>> | null = null;
  for (let i = 0; i < runs; i++) {
    opts.log?.(`bench compare: run ${i + 1} of ${runs}, ${protocols.join(", ")} at once`);
    last = await oneRun(h, protocols, latency);
    walls.push(last.wall);
    sums.push(last.sum);
  }
  const view = last!.view;
  const ballots = view.members.map((m) => ({
    debateId: m.debateId,
    protocol: m.protocol,
    productLabel: m.verdict?.productLabel ?? null,
    confidence: m.verdict?.confidence ?? null,
    pending: false,
  }));
  const majority = ensembleVote("majority", ballots);
  const weighted = ensembleVote("confidence-weighted", ballots);
  const round = (x: number) => Math.round(x);
  let browser: { p95: number | null; p50: number | null; samples: number; excluded: number; note: string | null } = {
    p95: null,
    p50: null,
    samples: 0,
    excluded: 0,
    note: opts.browser === false ? "skipped (--no-browser)" : null,
  };
  if (!browser.note) {
    opts.log?.("bench compare: token-to-browser on the comparison page (builds and starts the production server)");
    try {
      const b = await benchCompareBrowser({ protocols });
      browser = { ...b, note: null };
    } catch (e) {
      browser.note = `could not be measured: ${(e as Error).message.split("\n")[0]}`;
    }
  }
  return {
    backend: h.backend,
    claim: COMPARE_CLAIM,
    protocols,
    model_latency_ms: { first_token: latency.firstDelayMs, per_token: latency.delayMs },
    runs,
    wall_ms_p50: round(median(walls)),
    sum_of_debates_ms_p50: round(median(sums)),
    rows: last!.rows,
    totals: {
      llm_calls: last!.rows.reduce((a, r) => a + r.llm_calls, 0),
      tokens: last!.rows.reduce((a, r) => a + r.tokens, 0),
    },
    ensemble: { majority: majority.label, confidence_weighted: weighted.label, explanation: majority.explanation },
    token_to_browser_ms_p95: browser.p95,
    token_to_browser_ms_p50: browser.p50,
    token_to_browser_samples: browser.samples,
    token_to_browser_excluded_before_page: browser.excluded,
    token_to_browser_note: browser.note,
    comparison_id: last!.id,
  };
}

export function compareBenchMarkdown(r: CompareBenchReport): string {
  return [
    `One claim through ${r.protocols.length} methods at once (${r.backend}, scripted model: ${r.model_latency_ms.first_token} ms to first token, ${r.model_latency_ms.per_token} ms per token; median of ${r.runs} runs)`,
    `wall time ${r.wall_ms_p50} ms for the whole comparison; the debates' own times add up to ${r.sum_of_debates_ms_p50} ms`,
    "",
    "| protocol | verdict | LLM calls | tool calls | prompt tokens | completion tokens | own time ms |",
    "|---|---|---|---|---|---|---|",
    ...r.rows.map(
      (x) =>
        `| ${x.protocol} | ${x.label ?? x.status}${x.product_label && x.product_label !== x.label ? ` (${x.product_label})` : ""} | ${x.llm_calls} | ${x.tool_calls} | ${x.prompt_tokens} | ${x.completion_tokens} | ${x.duration_ms ?? "—"} |`,
    ),
    `| total | majority: ${r.ensemble.majority ?? "none"} | ${r.totals.llm_calls} | | | ${r.totals.tokens} tokens | |`,
    "",
    `token-to-browser on the comparison page while all stream: ${r.token_to_browser_ms_p95 === null ? `not measured (${r.token_to_browser_note})` : `p95 ${r.token_to_browser_ms_p95} ms, p50 ${r.token_to_browser_ms_p50} ms (${r.token_to_browser_samples} tokens)`}`,
    `comparison ${r.comparison_id}`,
  ].join("\n");
}

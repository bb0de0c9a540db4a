import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { sql } from "drizzle-orm";
import { closeDb, type DbHandle } from "@/db/client";
import { type Candidate, denseCandidates } from "@/db/queries/retrieval";
import { listPublished } from "@/db/queries/fact-checks";
import { createUser, findUserByEmail } from "@/db/queries/users";
import type { Principal } from "@/lib/auth/policy";
import { createSession, SESSION_COOKIE } from "@/lib/auth/sessions";
import { ingestRecords } from "@/lib/corpus/ingest";
import { DEFAULT_METHOD } from "@/lib/debate/methods";
import { InProcessExecutor } from "@/lib/eval/executor";
import { createEvalRun } from "@/lib/eval/run";
import { exportDebates } from "@/lib/export/debates";
import { searchWords } from "@/lib/fact-checks/search";
import { createFactCheck, publish } from "@/lib/fact-checks/workflow";
import { type ExportFormat, serialise } from "@/lib/export/formats";
import { importJsonl } from "@/lib/export/import";
import { importFactChecks } from "@/lib/matching/import/run";
import { claimCandidates, MATCH_CANDIDATES } from "@/lib/matching/retrieve";
import { DEFAULT_CANDIDATES, search } from "@/lib/retrieval/search";
import { start, waitFor } from "./browser-rig";
import { indexRecall, percentile } from "./metrics";
import { scriptedEmbedder } from "./scripted-embedder";
import { scriptedEvalResolver } from "./scripted-eval";
import { benchFactCheck, evalClaim, factCheck, passageDocument, rewording } from "./size-data";

/**
 * `counterpoint bench size`: the product at the size a newsroom brings, on the configured database,
 * from an empty one. Each step goes through the same service the app and the CLI use (fact-check
 * import, corpus ingest, an evaluation run on the scripted model, matching, search, the three
 * exports and the JSONL import), on deterministic generated data of realistic length, and prints
 * its time, rows per second, recall of the HNSW index against exact search where vectors are
 * searched, p95 where it is a query or a page, the peak memory so far, and whether every count
 * came back equal (nothing lost, nothing duplicated). Pages are timed on the production server
 * (started on the same database once the loads are done) with a signed-in admin's cookie.
 * Vectors come from the scripted hash encoder (384 dimensions, the size of the default encoder's),
 * so the numbers are the database's and the app's, not an encoder's (`bench embed` measures that).
 */

export const SIZE_DEFAULTS = { checks: 15_000, passages: 15_000, debates: 2_000, queries: 200, pageLoads: 30 };

export type SizeStep = {
  step: string;
  rows: number;
  seconds: number;
  rows_per_second: number | null;
  /** HNSW index against exact search, at the depth the product asks for. */
  index_recall: number | null;
  p95_ms: number | null;
  /** Peak resident memory so far: this process, and the app server during the page step. */
  peak_mb: number;
  counts_ok: boolean | null;
  counts: string;
};

export type SizeReport = {
  backend: "pglite" | "postgres";
  scale: number;
  sizes: { checks: number; passages: number; debates: number; queries: number };
  machine: { cpus: number; load_average_start: number[]; load_average_end: number[] };
  steps: SizeStep[];
  all_counts_ok: boolean;
  notes: string[];
};

export class SizeBenchError extends Error {}

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const rssMb = () => round(process.resourceUsage().maxRSS / 1024, 0);

async function count(h: DbHandle, q: ReturnType<typeof sql>): Promise<number> {
  const r = await h.db.execute<{ n: number | string }>(q);
  return Number(r.rows[0]?.n ?? 0);
}

/** Every descendant of `pid` (the app server is a child of scripts/start.mjs). */
function descendants(pid: number): number[] {
  const out: number[] = [];
  const parents = new Map<number, number[]>();
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(d)]);
    } catch {
      // gone
    }
  }
  const walk = (p: number) => {
    for (const c of parents.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/** The largest peak resident set (VmHWM) among a process and its descendants, in MB. */
function treePeakMb(pid: number): number {
  let peak = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"));
      if (m) peak = Math.max(peak, Number(m[1]) / 1024);
    } catch {
      // gone
    }
  }
  return round(peak, 0);
}

async function timedQueries(n: number, fn: (i: number) => Promise<void>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    ms.push(performance.now() - t);
  }
  return ms;
}

export async function runSizeBench(
  h: DbHandle,
  opts: {
    scale?: number;
    /** Database URL or data folder the app server must open (the CLI's own configuration). */
    serverEnv: Record<string, string>;
    port: number;
    /** Skip the page step (it needs a production build). */
    pages?: boolean;
    log?: (line: string) => void;
  },
): Promise<SizeReport> {
  const scale = opts.scale ?? 1;
  const log = opts.log ?? (() => {});
  const n = (x: number) => Math.max(1, Math.round(x * scale));
  const sizes = {
    checks: n(SIZE_DEFAULTS.checks),
    passages: n(SIZE_DEFAULTS.passages),
    debates: n(SIZE_DEFAULTS.debates),
    queries: Math.min(SIZE_DEFAULTS.queries, n(SIZE_DEFAULTS.queries * 5)),
  };
  const existing = await count(
    h,
    sql`select (select count(*) from claim_index) + (select count(*) from passages) + (select count(*) from debates) as n`,
  );
  if (existing > 0)
    throw new SizeBenchError(
      `bench size starts from an empty database, and this one holds ${existing} checks, passages or debates: point it at a new data folder (DATA_DIR=$(mktemp -d)) or an empty PostgreSQL database (DATABASE_URL=...).`,
    );
  const loadStart = os.loadavg().map((x) => round(x, 2));
  const steps: SizeStep[] = [];
  const DIM = 384;
  const embedder = scriptedEmbedder({ id: "bench:size-hash-384", dim: DIM });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cp-bench-size-"));
  const step = (s: Omit<SizeStep, "peak_mb" | "rows_per_second"> & { peak_mb?: number; perSecond?: boolean }) => {
    const row: SizeStep = {
      step: s.step,
      rows: s.rows,
      seconds: round(s.seconds, 1),
      rows_per_second: s.perSecond === false ? null : round(s.rows / Math.max(s.seconds, 1e-3), 1),
      index_recall: s.index_recall,
      p95_ms: s.p95_ms === null ? null : round(s.p95_ms, 1),
      peak_mb: s.peak_mb ?? rssMb(),
      counts_ok: s.counts_ok,
      counts: s.counts,
    };
    steps.push(row);
    log(
      `${row.step}: ${row.rows} rows in ${row.seconds} s${row.rows_per_second !== null ? ` (${row.rows_per_second}/s)` : ""}${row.p95_ms !== null ? `, p95 ${row.p95_ms} ms` : ""}${row.index_recall !== null ? `, recall ${row.index_recall}` : ""}; ${row.counts}`,
    );
  };

  try {
    // 1. Fact-check import, as `factchecks import` runs it.
    const feed = path.join(tmp, "checks.jsonl");
    fs.writeFileSync(
      feed,
      Array.from({ length: sizes.checks }, (_, i) => JSON.stringify(factCheck(i))).join("\n"),
      "utf8",
    );
    let t = performance.now();
    let lastLog = 0;
    const imp = await importFactChecks({ db: h.db, embedder }, feed, {
      onProgress: (p) => {
        if (p.phase === "download" || performance.now() - lastLog < 5000) return;
        lastLog = performance.now();
        log(`import: ${p.phase} ${p.done} of ${p.total}`);
      },
    });
    const importSeconds = (performance.now() - t) / 1000;
    const stored = await count(h, sql`select count(*) as n from imported_fact_checks`);
    const indexed = await count(h, sql`select count(*) as n from claim_index where source = 'imported'`);
    const vectors = await count(h, sql`select count(*) as n from claim_index_embeddings where model = ${embedder.id}`);
    step({
      step: "import fact-checks",
      rows: sizes.checks,
      seconds: importSeconds,
      index_recall: null,
      p95_ms: null,
      counts_ok:
        imp.imported === sizes.checks &&
        stored === sizes.checks &&
        indexed === sizes.checks &&
        vectors === sizes.checks,
      counts: `${imp.imported} imported, ${stored} stored, ${indexed} indexed, ${vectors} with vectors of ${sizes.checks}`,
    });

    // 2. Corpus ingest, as `ingest` runs it.
    t = performance.now();
    const ing = await ingestRecords(
      h.db,
      (function* () {
        for (let i = 0; i < sizes.passages; i++) {
          const d = passageDocument(i);
          yield {
            kind: "document" as const,
            document: { id: d.id, title: d.title, text: d.text, passages: [{ id: `${d.id}#0`, text: d.text }] },
          };
        }
      })(),
      { corpus: "bench-size", source: "bench size", kind: "generated", embedder },
    );
    const ingestSeconds = (performance.now() - t) / 1000;
    const passages = await count(h, sql`select count(*) as n from passages where corpus_id = ${ing.corpusId}`);
    const passageVectors = await count(
      h,
      sql`select count(*) as n from passage_embeddings pe join passages p on p.id = pe.passage_id where p.corpus_id = ${ing.corpusId}`,
    );
    step({
      step: "ingest passages",
      rows: sizes.passages,
      seconds: ingestSeconds,
      index_recall: null,
      p95_ms: null,
      counts_ok:
        ing.passagesAdded === sizes.passages && passages === sizes.passages && passageVectors === sizes.passages,
      counts: `${ing.passagesAdded} added, ${passages} stored, ${passageVectors} with vectors of ${sizes.passages}; ${ing.errors} errors`,
    });

    // 3. Debates: one evaluation run on the scripted model, run by the in-process executor.
    t = performance.now();
    const { runId } = await createEvalRun(
      h.db,
      {
        name: "bench size",
        dataset: "bench-size",
        claims: Array.from({ length: sizes.debates }, (_, i) => evalClaim(i)),
        evidence: { mode: "gold" },
        protocol: DEFAULT_METHOD,
        config: { variant: "expertise", earlyStopping: "off" },
        models: { politician: "openai:gpt-4o-mini", scientist: "openai:gpt-4o-mini", judge: "openai:gpt-4o-mini" },
        executor: "in-process",
      },
      { validateModel: () => {} },
    );
    const progress = setInterval(async () => {
      const done = await count(
        h,
        sql`select count(*) as n from debates where eval_run_id = ${runId} and status = 'completed'`,
      ).catch(() => null);
      if (done !== null) log(`debates: ${done} of ${sizes.debates} completed`);
    }, 15_000);
    try {
      await new InProcessExecutor(h.db, { backend: h.backend }).work({
        concurrency: 4,
        runId,
        untilRunDone: true,
        resolverFor: scriptedEvalResolver({}),
      });
    } finally {
      clearInterval(progress);
    }
    const debateSeconds = (performance.now() - t) / 1000;
    const completed = await count(
      h,
      sql`select count(*) as n from debates where eval_run_id = ${runId} and status = 'completed'`,
    );
    const allDebates = await count(h, sql`select count(*) as n from debates`);
    step({
      step: "debates (evaluation run)",
      rows: sizes.debates,
      seconds: debateSeconds,
      index_recall: null,
      p95_ms: null,
      counts_ok: completed === sizes.debates && allDebates === sizes.debates,
      counts: `${completed} completed, ${allDebates} stored of ${sizes.debates}`,
    });

    // 3b. Publishing: one fact-check per debate through the editors' service, then the public list
    // searched (a claim's topic and figures, in-process, as the page and the API ask it).
    t = performance.now();
    const editorRow = await createUser(h.db, {
      email: "bench-size-editor@counterpoint.invalid",
      name: "Bench editor",
      passwordHash: null,
      roles: ["editor"],
    });
    const editor: Principal = { id: editorRow.id, email: editorRow.email, name: "Bench editor", roles: ["editor"] };
    const decided = (
      await h.db.execute(
        sql`select d.id, c.text from debates d join claims c on c.id = d.claim_id where d.eval_run_id = ${runId} and d.status = 'completed' order by d.created_at, d.id`,
      )
    ).rows as Array<{ id: string; text: string }>;
    for (const [i, d] of decided.entries()) {
      const fc = await createFactCheck(h.db, editor, { debateId: d.id }, benchFactCheck(d.text, i));
      await publish(h.db, editor, fc.id, fc.currentVersion);
      if ((i + 1) % 500 === 0) log(`fact-checks: ${i + 1} of ${decided.length} published`);
    }
    const published = await count(h, sql`select count(*) as n from fact_checks where state = 'published'`);
    step({
      step: "publish fact-checks",
      rows: decided.length,
      seconds: (performance.now() - t) / 1000,
      index_recall: null,
      p95_ms: null,
      counts_ok: published === decided.length && decided.length === sizes.debates,
      counts: `${published} published of ${decided.length} decided debates`,
    });
    t = performance.now();
    let found = 0;
    let wrong = 0;
    const factSearchMs = await timedQueries(sizes.queries, async (i) => {
      const claim = decided[Math.floor((i * decided.length) / sizes.queries)]!.text;
      // Its topic (the fourth word) and its figures, as a reader remembers a fact-check.
      const tokens = claim.replace(/\.$/, "").split(/\s+/);
      const words = searchWords([tokens[3], ...tokens.filter((w) => /^\d+$/.test(w)).slice(0, 2)].join(" "));
      const hits = await listPublished(h.db, { limit: 31, words });
      if (hits.some((x) => x.version.claim === claim)) found++;
      const hay = (x: (typeof hits)[number]) =>
        [x.version.claim, x.version.claimant, x.version.textualRating, x.version.explanation].join(" ").toLowerCase();
      wrong += hits.filter((x) => !words.every((w) => hay(x).includes(w))).length;
    });
    step({
      step: "search fact-checks",
      rows: sizes.queries,
      seconds: (performance.now() - t) / 1000,
      index_recall: null,
      p95_ms: percentile(factSearchMs, 95),
      counts_ok: wrong === 0 && found > 0,
      counts: `${found} of ${sizes.queries} searches (a published claim's topic and figures) listed it on their first page of 31; ${wrong} hits lacked a word`,
    });

    // 4. Matching: reworded stored claims through the matcher's retrieval; recall against exact search.
    const qChecks = Array.from({ length: sizes.queries }, (_, i) => {
      const k = Math.floor((i * sizes.checks) / sizes.queries);
      return rewording(factCheck(k).claim, i);
    });
    const qVectors = await embedder.embed(qChecks);
    const got: Candidate[][] = [];
    const exact: Candidate[][] = [];
    const exactMs: number[] = [];
    const matchMs = await timedQueries(sizes.queries, async (i) => {
      const c = await claimCandidates(h.db, {
        text: qChecks[i]!,
        vector: { model: embedder.id, values: qVectors[i]! },
      });
      got.push(c.dense);
    });
    for (const v of qVectors) {
      const te = performance.now();
      const e = await denseCandidates(h.db, {
        table: "claim_index",
        model: embedder.id,
        dim: DIM,
        vector: v,
        limit: MATCH_CANDIDATES,
        plan: "exact",
      });
      exactMs.push(performance.now() - te);
      exact.push(e);
    }
    const matchRecall = indexRecall(got, exact, MATCH_CANDIDATES, exactMs);
    step({
      step: "match",
      rows: sizes.queries,
      seconds: matchMs.reduce((a, b) => a + b, 0) / 1000,
      index_recall: matchRecall.recall,
      p95_ms: percentile(matchMs, 95),
      counts_ok: got.every((g) => g.length === MATCH_CANDIDATES),
      counts: `${got.filter((g) => g.length === MATCH_CANDIDATES).length} of ${sizes.queries} queries got ${MATCH_CANDIDATES} dense candidates; ${matchRecall.queries_missing_one} missed an exact neighbour; exact scan p95 ${matchRecall.exact_p95_ms} ms`,
    });

    // 5. Search over the corpus (hybrid, as the search box runs it); recall of the filtered dense query.
    const qPassages = Array.from({ length: sizes.queries }, (_, i) => {
      const k = Math.floor((i * sizes.passages) / sizes.queries);
      return rewording(passageDocument(k).text.split(". ")[0]!, i);
    });
    const pVectors = await embedder.embed(qPassages);
    let full = 0;
    const searchMs = await timedQueries(sizes.queries, async (i) => {
      const r = await search(h.db, {
        text: qPassages[i]!,
        corpus: "bench-size",
        k: 10,
        embedder,
        queryVector: pVectors[i],
      });
      if (r.hits.length === 10) full++;
    });
    const sGot: Candidate[][] = [];
    const sExact: Candidate[][] = [];
    const sExactMs: number[] = [];
    for (const v of pVectors) {
      const p = { model: embedder.id, dim: DIM, vector: v, limit: DEFAULT_CANDIDATES, corpusIds: [ing.corpusId] };
      sGot.push(await denseCandidates(h.db, p));
      const te = performance.now();
      sExact.push(await denseCandidates(h.db, { ...p, plan: "exact" }));
      sExactMs.push(performance.now() - te);
    }
    const searchRecall = indexRecall(sGot, sExact, DEFAULT_CANDIDATES, sExactMs);
    step({
      step: "search",
      rows: sizes.queries,
      seconds: searchMs.reduce((a, b) => a + b, 0) / 1000,
      index_recall: searchRecall.recall,
      p95_ms: percentile(searchMs, 95),
      counts_ok: full === sizes.queries,
      counts: `${full} of ${sizes.queries} searches got 10 hits; corpus-filtered dense top ${DEFAULT_CANDIDATES} (the hybrid search's depth): ${searchRecall.queries_missing_one} missed an exact neighbour; exact scan p95 ${searchRecall.exact_p95_ms} ms`,
    });

    // 6. Exports, as `export` writes them, then the JSONL read back (every debate already there).
    const files: Partial<Record<ExportFormat, string>> = {};
    for (const format of ["jsonl", "csv", "claimreview"] as const) {
      const file = path.join(tmp, `debates.${format}`);
      t = performance.now();
      const out = fs.createWriteStream(file);
      for await (const chunk of serialise(
        exportDebates(h.db, { run: runId }),
        format,
        { name: "Bench newsroom" },
        "https://counterpoint.invalid",
      ))
        if (!out.write(chunk)) await new Promise<void>((r) => out.once("drain", () => r()));
      await new Promise<void>((r, j) => out.end((e?: Error | null) => (e ? j(e) : r())));
      const seconds = (performance.now() - t) / 1000;
      files[format] = file;
      const text = fs.readFileSync(file, "utf8");
      const items =
        format === "jsonl"
          ? text.split("\n").filter(Boolean).length
          : format === "csv"
            ? text.split("\r\n").filter(Boolean).length - 1
            : (text.match(/"@type":\s*"ClaimReview"/g) ?? []).length;
      step({
        step: `export ${format}`,
        rows: items,
        seconds,
        index_recall: null,
        p95_ms: null,
        counts_ok: items === sizes.debates,
        counts: `${items} of ${sizes.debates} debates written (${round(text.length / 1024 ** 2)} MB)`,
      });
    }
    t = performance.now();
    const back = await importJsonl(h.db, createInterface({ input: fs.createReadStream(files.jsonl!) }));
    const afterImport = await count(h, sql`select count(*) as n from debates`);
    step({
      step: "import JSONL back",
      rows: back.debates,
      seconds: (performance.now() - t) / 1000,
      index_recall: null,
      p95_ms: null,
      counts_ok: back.debates === sizes.debates && back.debatesAdded === 0 && afterImport === sizes.debates,
      counts: `${back.debates} read, ${back.debatesAdded} added (all were there), ${afterImport} debates stored`,
    });

    // 7. Pages on the production server, with a signed-in admin (also an annotator, for the queue).
    if (opts.pages !== false) {
      const email = "bench-size@counterpoint.invalid";
      const user =
        (await findUserByEmail(h.db, email)) ??
        (await createUser(h.db, { email, name: "Bench", passwordHash: null, roles: ["admin", "annotator"] }));
      const session = await createSession(h.db, user.id, { userAgent: "bench size" });
      // The embedded database belongs to one process: the server opens it once this one has let go.
      if (h.backend === "pglite") await closeDb();
      const server = start(process.execPath, ["scripts/start.mjs"], {
        ...opts.serverEnv,
        PORT: String(opts.port),
        HOST: "127.0.0.1",
      });
      const base = `http://127.0.0.1:${opts.port}`;
      try {
        await Promise.race([
          waitFor(`${base}/api/health`, 900_000),
          new Promise((_, reject) =>
            server.once("exit", (code) => reject(new Error(`the app server exited (${code}):\n${server.tail()}`))),
          ),
        ]);
        const pages = [
          ["/debates", "page /debates"],
          ["/debates?status=completed&verdict=FALSE", "page /debates filtered"],
          ["/fact-checks", "page /fact-checks"],
          ["/fact-checks?q=budget+deficit", "page /fact-checks searched"],
          ["/annotate", "page /annotate (annotator's queue)"],
          ["/api/health", "/api/health"],
        ] as const;
        for (const [url, name] of pages) {
          const ms: number[] = [];
          let ok = 0;
          // One untimed load: the first request compiles and caches what every later one reuses.
          await fetch(`${base}${url}`, { headers: { cookie: `${SESSION_COOKIE}=${session.token}` } });
          const t0 = performance.now();
          for (let i = 0; i < SIZE_DEFAULTS.pageLoads; i++) {
            const ti = performance.now();
            const r = await fetch(`${base}${url}`, {
              headers: { cookie: `${SESSION_COOKIE}=${session.token}` },
              redirect: "manual",
            });
            await r.text();
            ms.push(performance.now() - ti);
            if (r.status === 200) ok++;
          }
          step({
            step: name,
            rows: SIZE_DEFAULTS.pageLoads,
            seconds: (performance.now() - t0) / 1000,
            perSecond: false,
            index_recall: null,
            p95_ms: percentile(ms, 95),
            peak_mb: Math.max(rssMb(), treePeakMb(server.pid!)),
            counts_ok: ok === SIZE_DEFAULTS.pageLoads,
            counts: `${ok} of ${SIZE_DEFAULTS.pageLoads} loads answered 200`,
          });
        }
      } finally {
        server.kill("SIGTERM");
        if (server.exitCode === null) await new Promise((r) => server.once("exit", r));
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return {
    backend: h.backend,
    scale,
    sizes,
    machine: {
      cpus: os.cpus().length,
      load_average_start: loadStart,
      load_average_end: os.loadavg().map((x) => round(x, 2)),
    },
    steps,
    all_counts_ok: steps.every((s) => s.counts_ok !== false),
    notes: [
      "Vectors from the scripted hash encoder (384 dimensions): the numbers are the database's and the app's; `bench embed` measures encoders.",
      "Debates: one evaluation run (RADAR, expertise, one rebuttal round; 7 scripted model calls each, no model latency), 4 at a time in this process.",
      `Match and search recall: the HNSW index's neighbours against an exact scan (match: top ${MATCH_CANDIDATES}, unfiltered; search: top ${DEFAULT_CANDIDATES}, the hybrid search's depth, filtered to the corpus).`,
      "Peak memory: this process's peak resident set; on page rows, the larger of it and the app server's.",
    ],
  };
}

export function sizeMarkdown(r: SizeReport): string {
  const cell = (x: number | boolean | null) => (x === null ? "" : x === true ? "yes" : x === false ? "NO" : String(x));
  return [
    "| step | rows | seconds | rows/s | index recall | p95 ms | peak MB | counts equal |",
    "|---|---|---|---|---|---|---|---|",
    ...r.steps.map(
      (s) =>
        `| ${s.step} | ${s.rows} | ${s.seconds} | ${cell(s.rows_per_second)} | ${cell(s.index_recall)} | ${cell(s.p95_ms)} | ${s.peak_mb} | ${cell(s.counts_ok)} |`,
    ),
  ].join("\n");
}

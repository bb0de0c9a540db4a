import { findMethod } from "@/lib/debate/methods";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { findCorpus } from "@/db/queries/corpus";
import { createDebateRecord, debateTotals, loadDebate } from "@/db/queries/debates";
import { parseConfig } from "@/lib/config";
import { ingestRecords } from "@/lib/corpus/ingest";
import { getProtocol, PROTOCOL_NAMES } from "@/lib/debate/protocols";
import { runDebate } from "@/lib/debate/runner";
import { prepareConfig } from "@/lib/debate/start";
import type { DebateEvidence } from "@/lib/debate/types";
import { promptsHash } from "@/lib/prompts";
import { corpusToolSnapshot, searchToolSnapshot } from "@/lib/tools";
import { profileStatements, type StatementStats } from "./db-profile";
import { scriptedEmbedder } from "./scripted-embedder";
import { scriptedModel, type Script, type ToolMadScript } from "./scripted-model";

/**
 * One row per protocol preset of the registry, run with the scripted model: calls, searches,
 * tokens, rounds, who decided, and the orchestration overhead (wall time during which no model
 * call, search or encoder was working). Protocols added to the registry later get rows here
 * without changes; one whose prompts the scripted model does not know shows its error instead.
 */

export const BENCH_CLAIM = "The boxer sold his Olympic medal to help children in the 2022 war.";
const MODEL = "openai:gpt-4o-mini";
export const BENCH_CORPUS = "bench-protocols";

/**
 * The news article ZoFia checks (it reads whole articles, not claims): the same story as the
 * claim, with names the rule NER finds, a headline and a publication date (the web search is cut
 * off the day before).
 */
export const BENCH_ARTICLE = {
  title: "Olympic boxer sells gold medal for war orphans",
  text: "Olympic champion Oleksandr Petrenko sold his gold medal in Kyiv to help children displaced by the 2022 war, the Red Cross said on Monday. The boxer said the medal meant less to him than the children. Collectors in London bid for the medal online.",
  date: "2023-03-01",
};

/** The corpus Tool-MAD's RAG agent and the search stand-in read: a few dozen short news passages. */
function corpusRecords() {
  const topics = [
    [
      "Medal auction",
      "The boxer auctioned his Olympic gold medal in 2012 and gave the proceeds to a children's hospital.",
      "2012-06-01",
    ],
    ["Displaced", "In 2022 the war displaced millions of children; aid agencies appealed for donations.", "2022-03-01"],
    [
      "Fact check",
      "Fact check: the medal auction was in 2012, years before the 2022 war, and funded a hospital.",
      "2023-01-10",
    ],
    [
      "Charity sale",
      "Several athletes sold medals for charity; one boxer's medal fetched a record price at auction.",
      "2015-09-12",
    ],
  ] as const;
  const filler = Array.from({ length: 36 }, (_, i) => [
    `Background ${i + 1}`,
    `Background passage ${i + 1}: reporting on sports charities, auctions and appeals in ${2000 + (i % 24)}, with dates and figures about donations.`,
    `${2000 + (i % 24)}-01-15`,
  ]);
  // What ZoFia's keywords find in the stand-in, published before the article; after the 20 supplied to RADAR, so its pool is unchanged.
  const article = [
    [
      "Petrenko auction",
      "Oleksandr Petrenko auctioned his Olympic gold medal in Kyiv in 2012; the Red Cross children's fund received the money.",
      "2012-07-01",
    ],
    [
      "Red Cross appeal",
      "The Red Cross appealed in Kyiv for children displaced by the 2022 war; Oleksandr Petrenko was not mentioned.",
      "2022-04-01",
    ],
  ] as const;
  return [...topics, ...filler, ...article].map(([title, text, date], i) => ({
    kind: "document" as const,
    document: {
      id: `bench-${i + 1}`,
      title,
      text,
      url: `https://news.example.org/${i + 1}`,
      publishedAt: new Date(date),
    },
  }));
}

/** The 20 passages supplied to protocols that take their evidence up front (RADAR). */
export const SUPPLIED_EVIDENCE: DebateEvidence[] = corpusRecords()
  .slice(0, 20)
  .map((r, i) => ({ rank: i + 1, source: "retrieved", text: r.document.text, title: r.document.title }));

/**
 * How the scripted Tool-MAD agents behave per preset: a deterministic mix of rounds with and
 * without agreement and passing gates, so the rows show both ways a debate ends. Label indexes
 * point into the preset's label list (0: supports, 1: refutes).
 */
export const TOOL_MAD_SCRIPTS: Record<string, ToolMadScript> = {
  // Round 1 the labels differ; round 2 they agree but the search agent states something its documents do not support; round 3 consensus.
  "toolmad-fever": { rounds: [{ labels: { rag: 0, search: 1 } }, { unfaithful: ["search"] }, {}] },
  // Agreement in round 1 with an off-topic RAG answer, then disagreement to the end: the judge decides.
  "toolmad-feverous": {
    rounds: [{ offTopic: ["rag"] }, { labels: { rag: 0, search: 1 } }, { labels: { rag: 1, search: 0 } }],
    judge: 1,
  },
  // Everyone agrees and every gate passes at once: consensus in round 1, no judge.
  "toolmad-averitec": { rounds: [{}] },
  // Disagreement, then consensus in round 2.
  "toolmad-faviq": { rounds: [{ labels: { rag: 1, search: 0 } }, { labels: { rag: 1, search: 1 } }] },
};

/** The paper's tokens per claim for a preset, where the paper gives them. */
export function paperTokensPerClaim(protocol: string, preset: string): number | null {
  return findMethod(protocol)?.paperTokens?.(preset) ?? null;
}

/** What the papers and specs say a debate should cost, where they say anything. */
function paperReference(protocol: string, preset: string): string | null {
  return findMethod(protocol)?.paperCost?.(preset) ?? null;
}

export type ProtocolRow = {
  protocol: string;
  preset: string;
  llm_calls: number;
  tool_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  rounds: number | null;
  decided_by: string | null;
  label: string | null;
  overhead_ms_p50: number;
  overhead_ms_p95: number;
  overhead_samples: number;
  /** CPU time of the process per debate (model, encoder and searches included), p50: robust to other jobs on the machine, unlike wall time. */
  cpu_ms_p50: number;
  /**
   * The runner's CPU per debate divided by the steps it stored, p50 and p95 over the runs: every
   * method held to one bar whatever its length. Measured in a warm process (each protocol runs one
   * uncounted debate first): the process's CPU during the run, less what the scripted model spent
   * choosing and building its answers and what the word-hash encoder spent (a provider's and an
   * encoder's work). Still counted: reading the model's stream through the AI SDK, the offline
   * search (and on PGlite the database itself, which runs in this process).
   */
  runner_cpu_ms_per_step_p50: number;
  runner_cpu_ms_per_step_p95: number;
  /** Database statements per debate and their summed time (ms), mean over the samples. */
  db_statements: number;
  db_ms: number;
  paper: string | null;
  /** The paper's tokens per claim for this preset (PROClaim, spec §7); null where the paper gives none. */
  paper_tokens_per_claim: number | null;
  /** Evidence pool at the verdict (PROClaim: admitted A0 plus P-RAG's accepted passages of the primary trial); null for protocols without one. */
  pool_size: number | null;
  /**
   * Where the debate's output tokens fall against the paper's budget range, for a protocol whose
   * paper gives one (ZoFia: 400–1,200 per article); null otherwise. A scripted model writes
   * realistic lengths, but it is not a model: the position shows the measure works, not what a model spends.
   */
  output_budget: { min: number; max: number; completion_tokens: number; position: "below" | "within" | "above" } | null;
  error?: string;
};

/** The papers' output-token budget per item, where one is given. */
const OUTPUT_BUDGET: Record<string, { min: number; max: number }> = { zofia: { min: 400, max: 1200 } };

export function outputBudget(protocol: string, completionTokens: number): ProtocolRow["output_budget"] {
  const b = OUTPUT_BUDGET[protocol];
  if (!b) return null;
  return {
    ...b,
    completion_tokens: completionTokens,
    position: completionTokens < b.min ? "below" : completionTokens > b.max ? "above" : "within",
  };
}

export type ProtocolBreakdown = {
  protocol: string;
  debates: number;
  overhead_ms_mean: number;
  db_ms_mean: number;
  statements: StatementStats[];
};

/** The length of the union of intervals, clipped to [from, to]. */
export function busyMs(intervals: Array<[number, number]>, from: number, to: number): number {
  const xs = intervals
    .map(([a, b]) => [Math.max(a, from), Math.min(b, to)] as [number, number])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of xs) {
    if (b <= end) continue;
    total += b - Math.max(a, end);
    end = b;
  }
  return total;
}

/** The search and tools a bench debate uses: always the offline stand-in, never the web, whatever the environment says. */
const offlineSearch = () => parseConfig({}, process.cwd()).search;

/** The bench corpus, ingested once per database with the word-hash encoder. */
export async function ensureBenchCorpus(db: Database) {
  const embedder = scriptedEmbedder();
  if (!(await findCorpus(db, BENCH_CORPUS)))
    await ingestRecords(db, corpusRecords(), { corpus: BENCH_CORPUS, embedder, source: "bench", kind: "records" });
}

/** Creates one debate of a preset as the form would (config prepared by its protocol), with the offline tools. */
export async function createPresetDebate(
  db: Database,
  protocolName: string,
  preset: string,
  link?: { claimId: string; comparisonId: string },
) {
  const protocol = getProtocol(protocolName);
  const config = protocol.parseConfig(protocol.presets[preset] ?? {});
  const models = Object.fromEntries(protocol.roles(config).map((r) => [r, MODEL]));
  const prepared = await prepareConfig(db, protocol, config, models, BENCH_CORPUS);
  const stored = { ...(prepared.config as Record<string, unknown>) };
  if (protocol.embeds) stored.embedder = scriptedEmbedder().id;
  if (protocol.tools)
    stored.tools = Object.fromEntries(
      Object.entries(protocol.tools).map(([name, source]) => [
        name,
        source === "corpus" ? corpusToolSnapshot(BENCH_CORPUS) : searchToolSnapshot(offlineSearch(), BENCH_CORPUS),
      ]),
    );
  const upfront = protocol.upfrontEvidence !== false;
  const corpus = await findCorpus(db, BENCH_CORPUS);
  // ZoFia reads a news article with its headline and date; the other protocols the claim.
  // A method that reads articles gets the bench's article, the others its claim.
  const claim =
    findMethod(protocol.name)?.input === "article"
      ? {
          text: BENCH_ARTICLE.text,
          claimDate: new Date(`${BENCH_ARTICLE.date}T00:00:00Z`),
          metadata: { title: BENCH_ARTICLE.title },
        }
      : { text: BENCH_CLAIM };
  return createDebateRecord(db, {
    claim,
    protocol: protocol.name,
    variant: prepared.variant,
    config: stored,
    models,
    thresholds: prepared.thresholds ?? null,
    promptsHash: promptsHash(protocol.templates(config)),
    evidenceMode: upfront ? "supplied" : "retrieved",
    corpusId: upfront ? null : (corpus?.id ?? null),
    evidence: upfront ? SUPPLIED_EVIDENCE : [],
    // One of a comparison's debates (bench compare): on the comparison's claim.
    ...(link ? { claimId: link.claimId, comparisonId: link.comparisonId } : {}),
  });
}

/** Runs one preset debate with the scripted model; returns its id and the overhead in ms. */
export async function runPresetDebate(
  db: Database,
  protocolName: string,
  preset: string,
  latency: Pick<Script, "firstDelayMs" | "delayMs">,
  profile?: () => { stop(): void },
) {
  const id = await createPresetDebate(db, protocolName, preset);
  const script: Script = {
    ...latency,
    pStop: 0.2,
    verdictProb: 0.9,
    toolMad: { claim: BENCH_CLAIM, ...TOOL_MAD_SCRIPTS[preset] },
  };
  const m = scriptedModel(MODEL, script);
  const embedder = scriptedEmbedder();
  // Only the run is profiled and timed: creating the debate is the form's work, not the runner's.
  const profiling = profile?.();
  // CPU time of this process (PGlite runs in it): what the run costs whatever else the machine is doing.
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const outcome = await runDebate(db, id, {
    resolve: () => m.resolved,
    embedder,
    search: { config: offlineSearch(), deps: { db, embedder } },
  }).finally(() => profiling?.stop());
  const ended = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const processCpuMs = (cpu.user + cpu.system) / 1000;
  if (outcome.status !== "completed") throw new Error(`debate ${id} ended ${outcome.status}: ${outcome.error}`);
  // Searches are the tools' time, like a model's: read from their stored turns (wall-clock ms).
  const toolTurns = await db
    .select({ startedAt: s.turns.startedAt, finishedAt: s.turns.finishedAt })
    .from(s.turns)
    .where(and(eq(s.turns.debateId, id), eq(s.turns.kind, "tool")));
  const toPerf = (d: Date) => d.getTime() - performance.timeOrigin;
  const busy = busyMs(
    [
      ...m.intervals(),
      ...embedder.intervals,
      ...toolTurns
        .filter((t) => t.startedAt && t.finishedAt)
        .map((t) => [toPerf(t.startedAt!), toPerf(t.finishedAt!)] as [number, number]),
    ],
    started,
    ended,
  );
  // Steps stored (every turn row: model turns, records, embeddings, searches), for the CPU per step.
  const [{ steps }] = (await db
    .select({ steps: sql<number>`count(*)::int` })
    .from(s.turns)
    .where(eq(s.turns.debateId, id))) as [{ steps: number }];
  return {
    id,
    overheadMs: ended - started - busy,
    cpuMs: processCpuMs,
    runnerCpuMs: processCpuMs - m.ownCpuMs() - embedder.cpuMs(),
    toolCalls: toolTurns.length,
    steps,
  };
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
    : NaN;
};
const round1 = (x: number) => Math.round(x * 10) / 10;

/** The row of one finished debate: counted from what was stored, not from what the runner said. */
export async function protocolRowOf(
  db: Database,
  id: string,
  protocol: string,
  preset: string,
): Promise<
  Omit<
    ProtocolRow,
    | "overhead_ms_p50"
    | "overhead_ms_p95"
    | "overhead_samples"
    | "cpu_ms_p50"
    | "runner_cpu_ms_per_step_p50"
    | "runner_cpu_ms_per_step_p95"
    | "db_statements"
    | "db_ms"
  >
> {
  const totals = await debateTotals(db, id);
  const d = await loadDebate(db, id);
  const details = (d?.verdict?.details ?? null) as { decidedBy?: string; poolSize?: unknown } | null;
  return {
    protocol,
    preset,
    llm_calls: totals.calls,
    tool_calls: d?.turns.filter((t) => t.kind === "tool" && t.status === "completed").length ?? 0,
    prompt_tokens: totals.promptTokens,
    completion_tokens: totals.completionTokens,
    rounds: d?.verdict?.roundsCompleted ?? null,
    // RADAR's verdict is always its judge's (early stopping ends the rounds, not the judging).
    decided_by: details?.decidedBy ?? (d?.verdict ? "judge" : null),
    label: d?.verdict?.label ?? null,
    paper: paperReference(protocol, preset),
    paper_tokens_per_claim: paperTokensPerClaim(protocol, preset),
    pool_size: typeof details?.poolSize === "number" ? details.poolSize : null,
    output_budget: outputBudget(protocol, totals.completionTokens),
  };
}

/**
 * A protocol's presets in the bench's order, each naming the earlier preset it would repeat: two
 * presets with the same configuration and script (ZoFia's PolitiFact and GossipCop differ only in
 * their data) run the same debate, and measuring it twice adds time and no information. Tool-MAD's
 * FEVER and FEVEROUS share a configuration but not a script: both run.
 */
export function benchedPresets(protocolName: string): Array<{ preset: string; sameAs?: string }> {
  const protocol = getProtocol(protocolName);
  const first = new Map<string, string>();
  return Object.keys(protocol.presets).map((preset) => {
    const key = JSON.stringify([
      protocol.parseConfig(protocol.presets[preset] ?? {}),
      TOOL_MAD_SCRIPTS[preset] ?? null,
    ]);
    const sameAs = first.get(key);
    if (!sameAs) first.set(key, preset);
    return sameAs ? { preset, sameAs } : { preset };
  });
}

export async function benchProtocols(
  db: Database,
  opts: {
    runs?: number;
    firstTokenMs?: number;
    perTokenMs?: number;
    protocols?: string[];
    log?: (line: string) => void;
  } = {},
): Promise<{ rows: ProtocolRow[]; breakdown: ProtocolBreakdown[] }> {
  const runs = opts.runs ?? 10;
  const latency = { firstDelayMs: opts.firstTokenMs ?? 50, delayMs: opts.perTokenMs ?? 2 };
  await ensureBenchCorpus(db);
  const rows: ProtocolRow[] = [];
  const breakdown: ProtocolBreakdown[] = [];
  for (const name of opts.protocols ?? PROTOCOL_NAMES) {
    const protocol = getProtocol(name);
    const stats = new Map<string, StatementStats>();
    const allOverheads: number[] = [];
    let allDb = 0;
    let warmedUp = false;
    for (const { preset, sameAs } of benchedPresets(name)) {
      if (sameAs) {
        opts.log?.(`bench: ${name} / ${preset} runs the same debate as ${sameAs}; not run again`);
        continue;
      }
      opts.log?.(`bench: ${name} / ${preset}, ${runs} debates`);
      const overheads: number[] = [];
      const cpus: number[] = [];
      const perStep: number[] = [];
      let statements = 0;
      let dbMs = 0;
      let last: string | null = null;
      try {
        // The protocol's first debate in this process pays for loading and compiling its code and
        // the database's first plans of its statements: run once, not counted, so the rows show
        // what a debate costs a server that has been running (the first preset of each protocol).
        if (!warmedUp) {
          opts.log?.(`bench: ${name} / ${preset}, one warm-up debate (not counted)`);
          await runPresetDebate(db, name, preset, latency);
          warmedUp = true;
        }
        for (let i = 0; i < runs; i++) {
          let profile: ReturnType<typeof profileStatements> | undefined;
          const r = await runPresetDebate(db, name, preset, latency, () => (profile = profileStatements(db)));
          const snap = profile?.snapshot() ?? [];
          overheads.push(r.overheadMs);
          cpus.push(r.cpuMs);
          perStep.push(r.runnerCpuMs / Math.max(1, r.steps));
          last = r.id;
          for (const st of snap) {
            statements += st.count;
            dbMs += st.ms;
            const acc = stats.get(st.statement) ?? { statement: st.statement, count: 0, ms: 0 };
            acc.count += st.count;
            acc.ms += st.ms;
            stats.set(st.statement, acc);
          }
        }
        allOverheads.push(...overheads);
        allDb += dbMs;
        rows.push({
          ...(await protocolRowOf(db, last!, name, preset)),
          overhead_ms_p50: round1(percentile(overheads, 50)),
          overhead_ms_p95: round1(percentile(overheads, 95)),
          overhead_samples: overheads.length,
          cpu_ms_p50: round1(percentile(cpus, 50)),
          runner_cpu_ms_per_step_p50: round1(percentile(perStep, 50)),
          runner_cpu_ms_per_step_p95: round1(percentile(perStep, 95)),
          db_statements: round1(statements / runs),
          db_ms: round1(dbMs / runs),
        });
      } catch (e) {
        rows.push({
          protocol: name,
          preset,
          llm_calls: 0,
          tool_calls: 0,
          prompt_tokens: 0,
          completion_tokens: 0,
          rounds: null,
          decided_by: null,
          label: null,
          overhead_ms_p50: NaN,
          overhead_ms_p95: NaN,
          overhead_samples: 0,
          cpu_ms_p50: NaN,
          runner_cpu_ms_per_step_p50: NaN,
          runner_cpu_ms_per_step_p95: NaN,
          db_statements: 0,
          db_ms: 0,
          paper: paperReference(name, preset),
          paper_tokens_per_claim: paperTokensPerClaim(name, preset),
          pool_size: null,
          output_budget: null,
          error: (e as Error).message,
        });
      }
    }
    const n = allOverheads.length;
    if (n) {
      breakdown.push({
        protocol: name,
        debates: n,
        overhead_ms_mean: round1(allOverheads.reduce((a, x) => a + x, 0) / n),
        db_ms_mean: round1(allDb / n),
        statements: [...stats.values()]
          .sort((a, b) => b.ms - a.ms)
          .map((st) => ({ statement: st.statement, count: round1(st.count / n), ms: round1(st.ms / n) })),
      });
    }
  }
  return { rows, breakdown };
}

export function protocolsMarkdown(rows: ProtocolRow[]): string {
  return [
    "| protocol | preset | LLM calls | tool calls | prompt tokens | completion tokens | rounds | decided by | pool size | overhead p50 / p95 ms | CPU ms p50 | CPU ms per step p50 / p95 | DB statements | paper / spec |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map((r) =>
      r.error
        ? `| ${r.protocol} | ${r.preset} | failed: ${r.error.replace(/\|/g, "/")} ||||||||||| ${r.paper ?? "—"} |`
        : `| ${r.protocol} | ${r.preset} | ${r.llm_calls} | ${r.tool_calls} | ${r.prompt_tokens} | ${r.completion_tokens} | ${r.rounds ?? "—"} | ${r.decided_by ?? "—"} | ${r.pool_size ?? "—"} | ${r.overhead_ms_p50} / ${r.overhead_ms_p95} | ${r.cpu_ms_p50} | ${r.runner_cpu_ms_per_step_p50} / ${r.runner_cpu_ms_per_step_p95} | ${r.db_statements} | ${r.paper ?? "—"}${r.output_budget ? `; output ${r.completion_tokens} tokens: ${r.output_budget.position} ${r.output_budget.min}–${r.output_budget.max}` : ""} |`,
    ),
  ].join("\n");
}

export function breakdownMarkdown(b: ProtocolBreakdown[]): string {
  return b
    .map((p) =>
      [
        `${p.protocol}: overhead ${p.overhead_ms_mean} ms per debate (mean of ${p.debates}), of which database statements ${p.db_ms_mean} ms (summed; in parallel branches they may overlap a model call)`,
        "| statement | per debate | ms per debate |",
        "|---|---|---|",
        ...p.statements.map((st) => `| ${st.statement} | ${st.count} | ${st.ms} |`),
      ].join("\n"),
    )
    .join("\n\n");
}

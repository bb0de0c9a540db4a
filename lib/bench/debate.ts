import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { createDebateRecord, debateTotals, loadDebate } from "@/db/queries/debates";
import { DEFAULT_METHOD, findMethod } from "@/lib/debate/methods";
import { benchConfig, benchProtocol, type BenchConfig } from "./default-method";
import { runDebate } from "@/lib/debate/runner";
import { promptsHash } from "@/lib/prompts";
import type { DebateEvidence } from "@/lib/debate/types";
import { scriptedModel } from "./scripted-model";
import {
  benchProtocols,
  breakdownMarkdown,
  protocolsMarkdown,
  type ProtocolBreakdown,
  type ProtocolRow,
} from "./protocols";

/**
 * `counterpoint bench debate`: what a debate costs in calls and tokens per variant, with and
 * without early stopping, how much time the runner adds on top of the model, and whether 20
 * debates at once on one server all get every turn stored. The model is a scripted one with a
 * fixed latency: a measuring instrument, never something the app can run.
 */

const EVIDENCE: DebateEvidence[] = Array.from({ length: 20 }, (_, i) => ({
  rank: i + 1,
  source: "retrieved",
  text:
    i === 0
      ? "The boxer auctioned his Olympic gold medal in 2012 and gave the proceeds to a children's hospital."
      : i === 1
        ? "In 2022 the war displaced millions of children; aid agencies appealed for donations."
        : `Background passage ${i + 1}: reporting on sports charities, auctions and appeals in several years, with dates and figures.`,
}));

async function newDebate(db: Database, config: BenchConfig) {
  return createDebateRecord(db, {
    claim: { text: "The boxer sold his Olympic medal to help children in the 2022 war." },
    protocol: DEFAULT_METHOD,
    variant: config.variant,
    config,
    models: Object.fromEntries(
      benchProtocol()
        .roles(config)
        .map((r) => [r, "openai:gpt-4o-mini"]),
    ),
    promptsHash: promptsHash(benchProtocol().templates(config)),
    evidenceMode: "supplied",
    evidence: EVIDENCE,
  });
}

function percentile(xs: number[], p: number) {
  const sorted = [...xs].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export type VariantRow = {
  variant: string;
  early_stopping: boolean;
  llm_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  stopped_after: string | null;
};

export type DebateBenchReport = {
  model_latency_ms: { first_token: number; per_token: number };
  variants: VariantRow[];
  /** One row per preset of every registered protocol (scripted model, offline tools). */
  protocols: ProtocolRow[];
  /** Where each protocol's overhead goes: database statements per debate by purpose. */
  overhead_breakdown: ProtocolBreakdown[];
  overhead_ms_p50: number;
  overhead_ms_p95: number;
  overhead_samples: number;
  concurrent: {
    debates: number;
    completed: number;
    turns_expected: number;
    turns_stored: number;
    lost_turns: number;
    wall_ms: number;
  };
  token_to_browser_ms_p50?: number;
  token_to_browser_ms_p95?: number;
  token_to_browser_samples?: number;
  notes: string[];
};

/** Runs one debate with a scripted model and measures the time the runner spends outside model calls. */
async function timedDebate(db: Database, config: BenchConfig, script: Parameters<typeof scriptedModel>[1]) {
  const id = await newDebate(db, config);
  const m = scriptedModel("openai:gpt-4o-mini", script);
  const started = performance.now();
  const outcome = await runDebate(db, id, { resolve: () => m.resolved });
  const wall = performance.now() - started;
  if (outcome.status !== "completed") throw new Error(`bench debate ${id} ended ${outcome.status}: ${outcome.error}`);
  return { id, wall, modelMs: m.modelMs(), calls: m.calls() };
}

export async function benchDebate(
  db: Database,
  opts: {
    firstTokenMs?: number;
    perTokenMs?: number;
    overheadRuns?: number;
    concurrent?: number;
    protocolRuns?: number;
    log?: (line: string) => void;
  } = {},
): Promise<DebateBenchReport> {
  const firstTokenMs = opts.firstTokenMs ?? 50;
  const perTokenMs = opts.perTokenMs ?? 2;
  const script = { firstDelayMs: firstTokenMs, delayMs: perTokenMs };
  const notes = [
    "Scripted model: fixed latency, token counts from the scripted usage (prompt ≈ characters/4), logprobs as OpenAI returns them.",
    "Early stopping 'on' uses a judge that is confident after the opening (p_stop 0.9, label probability 0.9); 'off' runs every round.",
  ];

  // Calls and tokens per variant, with and without early stopping.
  const variants: VariantRow[] = [];
  for (const variant of findMethod(DEFAULT_METHOD)?.variants ?? []) {
    for (const early of [true, false]) {
      if ((variant === "single" || variant === "cot") && !early) continue;
      const config = benchConfig({ variant, earlyStopping: early ? "on" : "off" });
      const { id } = await timedDebate(db, config, {
        ...script,
        firstDelayMs: 0,
        delayMs: 0,
        pStop: 0.9,
        verdictProb: 0.9,
      });
      const totals = await debateTotals(db, id);
      const d = await loadDebate(db, id);
      variants.push({
        variant,
        early_stopping: early && variant !== "single" && variant !== "cot",
        llm_calls: totals.calls,
        prompt_tokens: totals.promptTokens,
        completion_tokens: totals.completionTokens,
        stopped_after: d?.verdict?.stopAfter ?? null,
      });
    }
  }

  // Every protocol preset in the registry, with the overhead per preset.
  const protocols = await benchProtocols(db, {
    runs: opts.protocolRuns ?? opts.overheadRuns ?? 10,
    firstTokenMs,
    perTokenMs,
    log: opts.log,
  });
  notes.push(
    "Protocol rows: one debate per preset counted from its stored rows (llm_calls, tool turns, the verdict); overhead is wall time during which no model call, search or encoder was working, p50/p95 over the runs.",
    "Tool-MAD rows search a 40-passage corpus through the offline corpus stand-in with a word-hash encoder; the scripted agents follow a fixed per-preset plan (lib/bench/protocols.ts TOOL_MAD_SCRIPTS): disagreement, gates failing on an unsupported statement or an off-topic answer, consensus or the judge.",
    "PROClaim rows run one scripted trial per distinct configuration (the four dataset presets share one; each ablation its own) on the same corpus: two premises, admissibility admitting, disputing and discarding, P-RAG in round 1 with some passages novel enough and some not, one expert, a plateau of S_t in round 2 (the court closes instead without reflections), the role switch and the panel (two NOT SUPPORTED, one INCONCLUSIVE). pool_size is A0 plus P-RAG's accepted passages of the primary trial; paper_tokens_per_claim is the paper's §7 figure, which a 2-round scripted trial is far below.",
  );

  // Orchestration overhead: wall time minus the model's own time, per debate.
  const overheads: number[] = [];
  const runs = opts.overheadRuns ?? 10;
  for (let i = 0; i < runs; i++) {
    const config = benchConfig({ variant: "expertise", earlyStopping: "score-only" });
    const r = await timedDebate(db, config, { ...script, pStop: 0.2 });
    overheads.push(r.wall - r.modelMs);
  }

  // Many debates at once on one process: every turn of every debate must be stored.
  const n = opts.concurrent ?? 20;
  const config = benchConfig({ variant: "expertise", earlyStopping: "off" });
  const ids = await Promise.all(Array.from({ length: n }, () => newDebate(db, config)));
  const started = performance.now();
  const outcomes = await Promise.all(
    ids.map((id) => {
      const m = scriptedModel("openai:gpt-4o-mini", script);
      return runDebate(db, id, { resolve: () => m.resolved });
    }),
  );
  const wall = performance.now() - started;
  // expertise, 1 rebuttal, no checkpoints: 2 openings + 2 rebuttals + 2 closings + judge.
  const perDebate = 7;
  let stored = 0;
  for (const id of ids) {
    const rows = await db.select({ status: s.turns.status }).from(s.turns).where(eq(s.turns.debateId, id));
    stored += rows.filter((r) => r.status === "completed").length;
  }
  return {
    model_latency_ms: { first_token: firstTokenMs, per_token: perTokenMs },
    variants,
    protocols: protocols.rows,
    overhead_breakdown: protocols.breakdown,
    overhead_ms_p50: round(percentile(overheads, 50)),
    overhead_ms_p95: round(percentile(overheads, 95)),
    overhead_samples: overheads.length,
    concurrent: {
      debates: n,
      completed: outcomes.filter((o) => o.status === "completed").length,
      turns_expected: n * perDebate,
      turns_stored: stored,
      lost_turns: n * perDebate - stored,
      wall_ms: Math.round(wall),
    },
    notes,
  };
}

const round = (x: number) => Math.round(x * 10) / 10;

export function debateBenchMarkdown(r: DebateBenchReport): string {
  const lines = [
    "| variant | early stopping | LLM calls | prompt tokens | completion tokens | stopped after |",
    "|---|---|---|---|---|---|",
    ...r.variants.map(
      (v) =>
        `| ${v.variant} | ${v.early_stopping ? "on" : "off"} | ${v.llm_calls} | ${v.prompt_tokens} | ${v.completion_tokens} | ${v.stopped_after ?? "—"} |`,
    ),
    "",
    "| measure | value |",
    "|---|---|",
    `| orchestration overhead per debate, p50 / p95 (model time excluded, ${r.overhead_samples} debates) | ${r.overhead_ms_p50} / ${r.overhead_ms_p95} ms |`,
    `| ${r.concurrent.debates} concurrent debates: completed, turns stored / expected | ${r.concurrent.completed}, ${r.concurrent.turns_stored} / ${r.concurrent.turns_expected} (${r.concurrent.wall_ms} ms) |`,
  ];
  if (r.token_to_browser_ms_p50 !== undefined) {
    lines.push(
      `| token emitted by the model → visible in the browser, p50 / p95 (${r.token_to_browser_samples} tokens) | ${r.token_to_browser_ms_p50} / ${r.token_to_browser_ms_p95} ms |`,
    );
  }
  lines.push("", protocolsMarkdown(r.protocols), "", breakdownMarkdown(r.overhead_breakdown));
  return lines.join("\n");
}

import type { Fence } from "@/lib/prompts/fence";
import type { Database } from "@/db/client";
import type { DebateStatus } from "@/db/schema";
import type { ResolvedModel } from "@/lib/ai/registry";
import type { SearchConfig } from "@/lib/config";
import type { Embedder } from "@/lib/embeddings/registry";
import type { ResolveDeps } from "@/lib/tools";
import { publish, type TurnInfo } from "../events";
import type { Journal } from "../journal";
import type { getProtocol } from "../protocols";
import type { NerProvider } from "@/lib/tools/ner/types";
import type { WikiProvider } from "@/lib/tools/wiki/types";
import type { AddEvidenceSpec, BudgetState, DebateEvidence, LookupSettings } from "../types";
import { runStore, type RunSnapshot } from "../run-store";

/**
 * What every step writer of one run shares: the debate, its journal, its evidence pool, its
 * spending so far and its stop signal. Built once per run by the runner (runner.ts); the writers
 * (model-turn.ts, record.ts, embed.ts, tool.ts) and the context (context.ts) only read it, apart
 * from the counters they add to.
 */

export type RunOptions = {
  signal?: AbortSignal;
  /** How model ids become models: the registry, or a scripted model in tests and benchmarks. */
  resolve?: (id: string) => ResolvedModel;
  /** The sentence encoder for `ctx.embed` (default: the registry's model named in `config.embedder`); tests pass a scripted one. */
  embedder?: Embedder;
  /** Search settings and dependencies for `ctx.tool` (default: the server's configuration); tests point them at a scripted server. */
  search?: { config?: SearchConfig; deps?: ResolveDeps };
  /**
   * Scripted entity recognisers and encyclopedias for `ctx.lookup` (tests and benchmarks), given
   * the settings the debate froze; default: the providers those settings name.
   */
  lookups?: {
    ner?: (frozen: NonNullable<LookupSettings["ner"]>) => NerProvider;
    encyclopedia?: (frozen: NonNullable<LookupSettings["encyclopedia"]>) => WikiProvider | null;
  };
  /** Which idle states this run may claim the debate from (default: any; queue workers: only `queued`). */
  claimFrom?: DebateStatus[];
  /**
   * Read the claim before each new turn (one indexed read): for runs that other processes may stop
   * (queue workers on PostgreSQL), so Stop takes effect at the next turn, not only at the next
   * heartbeat. A turn already streaming is stopped by the heartbeat.
   */
  checkClaimEachTurn?: boolean;
};

/** One run of one debate in this process; `lost` once its claim is no longer held (stopped elsewhere, or taken over). */
export type Run = { controller: AbortController; token: string; lost?: boolean; handBack?: boolean };

export type Loaded = RunSnapshot;

export class DebateCancelled extends Error {
  constructor() {
    super("cancelled");
  }
}

type Limits = { budgetTokens: number | null; maxCalls: number | null };

/** The debate's spending limits (`config.budget`, set when it was created); null: none. */
export function budgetLimits(config: unknown): Limits {
  const b = (config as { budget?: { budgetTokens?: unknown; maxCalls?: unknown } } | null)?.budget;
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : null);
  return { budgetTokens: n(b?.budgetTokens), maxCalls: n(b?.maxCalls) };
}

/** A protocol went on past its budget without wrapping up: the turn is refused, the debate fails saying why. */
export class BudgetExhausted extends Error {
  constructor(which: "tokens" | "calls", limits: Limits) {
    super(
      which === "tokens"
        ? `the debate's token budget (${limits.budgetTokens?.toLocaleString("en")} tokens) is spent`
        : `the debate's call budget (${limits.maxCalls} model calls) is spent`,
    );
  }
}

/** Tokens and model calls spent so far, replayed steps included, against the debate's limits. */
export class Spending {
  tokens = 0;
  calls = 0;
  constructor(readonly limits: Limits) {}
  exhausted(): BudgetState["exhausted"] {
    const l = this.limits;
    return l.budgetTokens !== null && this.tokens >= l.budgetTokens
      ? "tokens"
      : l.maxCalls !== null && this.calls >= l.maxCalls
        ? "calls"
        : null;
  }
}

export type RunScope = {
  db: Database;
  debateId: string;
  debate: Loaded["debate"];
  protocol: ReturnType<typeof getProtocol>;
  config: unknown;
  /** The debate's fence, derived from its id: the same in every run, so a resumed debate prompts alike. */
  fence: Fence;
  opts: RunOptions;
  run: Run;
  signal: AbortSignal;
  journal: Journal;
  spending: Spending;
  /** The evidence pool: grows during a debate (tools add passages). */
  pool: DebateEvidence[];
  modelFor(role: string): string;
  /** Passages a person struck (rank: reason): no role reads them from here on (lib/debate/interventions/apply.ts). */
  struck: Map<number, string>;
  /** The text of each model turn in progress, as streamed (a retry starts it again from nothing). */
  partials: Map<number, string>;
};

/** Passages a role may read (all of them for no role, e.g. a judge). */
export function visibleTo(scope: RunScope, role?: string) {
  return scope.pool.filter((e) => !scope.struck.has(e.rank) && (!role || !e.visibleTo || e.visibleTo.includes(role)));
}

/** Throws if the run was stopped: no step starts after Stop. */
export function checkNotStopped(scope: RunScope) {
  if (scope.signal.aborted) throw new DebateCancelled();
}

/**
 * Throws if the run lost its claim (handed back, or taken over): a step that was already under
 * way when that happened (a parallel branch's search) must not store anything, or it would land
 * beside the rows of the run that continues the debate.
 */
export function checkStillHeld(scope: RunScope) {
  if (scope.run.lost) throw new DebateCancelled();
}

export type Step = { round: number; phase: string; role: string; kind: "analysis" | "tool"; model: string | null };
export type StepRow = {
  status: "completed" | "failed";
  content: string;
  latencyMs: number;
  startedAt: Date;
  finishedAt: Date;
  metadata: Record<string, unknown>;
  error: string | null;
};

/**
 * Stores a step that called no model (a record, an embedding, a tool call), whole, in one insert,
 * and tells watchers; a failed one fails the debate, naming the step.
 */
export async function writeStep(scope: RunScope, n: number, step: Step, row: StepRow) {
  const { db, debateId } = scope;
  const info: TurnInfo = {
    seq: n,
    round: step.round,
    phase: step.phase,
    role: step.role,
    kind: step.kind,
    model: step.model ?? "",
  };
  checkStillHeld(scope);
  await runStore().insertStepTurn(db, { debateId, seq: n, ...step, ...row });
  scope.journal.record({
    seq: n,
    round: step.round,
    phase: step.phase,
    role: step.role,
    kind: step.kind,
    status: row.status,
  });
  publish(debateId, { type: "turn-start", turn: info });
  if (row.status === "failed") {
    publish(debateId, {
      type: "turn-error",
      seq: n,
      error: row.error ?? "failed",
      status: "failed",
      content: row.content,
    });
    throw Object.assign(new Error(row.error ?? "failed"), { turnSeq: n, turnLabel: `${step.role}, ${step.phase}` });
  }
  publish(debateId, {
    type: "turn-end",
    turn: {
      ...info,
      content: row.content,
      promptTokens: 0,
      completionTokens: 0,
      costUsd: 0,
      latencyMs: row.latencyMs,
      citations: [],
      scores: null,
      metadata: row.metadata,
    },
  });
}

/** Adds passages to the pool (ranks continue); a step that added them in an earlier run gets the stored rows back. */
export async function addEvidence(scope: RunScope, spec: AddEvidenceSpec): Promise<DebateEvidence[]> {
  const { pool } = scope;
  const stored = pool.filter((e) => e.addedSeq === spec.addedSeq);
  if (stored.length) return stored;
  checkStillHeld(scope);
  let rank = pool.reduce((m, e) => Math.max(m, e.rank), 0);
  const added = spec.items.map((item) => ({
    ...item,
    rank: ++rank,
    origin: spec.origin,
    addedSeq: spec.addedSeq,
    ...(spec.visibleTo ? { visibleTo: spec.visibleTo } : {}),
  }));
  // In the pool before the write is awaited: a parallel branch adding at the same time takes the next ranks.
  pool.push(...added);
  await runStore().addDebateEvidence(scope.db, scope.debateId, added);
  publish(scope.debateId, { type: "evidence", evidence: added });
  return added;
}

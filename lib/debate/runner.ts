import os from "node:os";
import type { Database } from "@/db/client";
import * as q from "@/db/queries/debates";
import { callModel, ModelCallError, type CallRecord, type RetryInfo } from "@/lib/ai/call";
import { scoreOptions } from "@/lib/ai/score-options";
import { resolveModel, type ResolvedModel } from "@/lib/ai/registry";
import { citedRanks } from "./evidence";
import { publish, setRunning, type TurnInfo } from "./events";
import { getConfig, type SearchConfig } from "@/lib/config";
import { renderPrompt } from "@/lib/prompts";
import { callSearch, providerFor, searchToolSnapshotSchema, ToolCallFailed, toolRecordFromTurn, toolTurnFields, type ResolveDeps, type SucceededToolCall } from "@/lib/tools";
import { resolveEmbedder, type Embedder } from "@/lib/embeddings/registry";
import { readJsonAnswer } from "./json-answer";
import { getProtocol, modelForRole } from "./protocols";
import type { BudgetState, DebateContext, DebateEvidence, ToolSpec, JsonTurnResult, RecordResult, RecordSpec, ScoredTurnResult, ScoredTurnSpec, ToolResult, TurnResult, TurnSpec } from "./types";
import { ALREADY_RUNNING, claimRefusal, INTERRUPTED_BY_RESTART, STILL_STOPPING } from "./claim-refusal";

/**
 * Runs debates. A protocol decides who speaks; the runner makes each turn real: it opens the turn
 * row, streams the model's text to watchers, retries transient failures, writes the finished turn
 * before the next one starts, records every model call, and on resume replays the finished turns
 * from the database instead of calling the model again.
 */

/**
 * Identifies this server process in `debates.runner_id`. Next.js may load this module once per
 * bundle in one process, so the id lives on globalThis: one process, one id.
 */
const idKey = Symbol.for("counterpoint.debate-runner-id");
export const RUNNER_ID: string = ((globalThis as Record<symbol, string | undefined>)[idKey] ??= `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`);

const key = Symbol.for("counterpoint.debate-runner");
/** One run of one debate in this process; `lost` once its claim is no longer held (stopped elsewhere, or taken over). */
type Run = { controller: AbortController; token: string; lost?: boolean; handBack?: boolean };
type RunnerState = { controllers: Map<string, Run>; timer?: NodeJS.Timeout; runs: number };
function state(): RunnerState {
  const g = globalThis as typeof globalThis & { [key]?: RunnerState };
  return (g[key] ??= { controllers: new Map(), runs: 0 });
}

class DebateCancelled extends Error {
  constructor() {
    super("cancelled");
  }
}

/** The debate's spending limits (`config.budget`, set when it was created); null: none. */
function budgetLimits(config: unknown): { budgetTokens: number | null; maxCalls: number | null } {
  const b = (config as { budget?: { budgetTokens?: unknown; maxCalls?: unknown } } | null)?.budget;
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : null);
  return { budgetTokens: n(b?.budgetTokens), maxCalls: n(b?.maxCalls) };
}

/** A protocol went on past its budget without wrapping up: the turn is refused, the debate fails saying why. */
class BudgetExhausted extends Error {
  constructor(which: "tokens" | "calls", limits: { budgetTokens: number | null; maxCalls: number | null }) {
    super(which === "tokens" ? `the debate's token budget (${limits.budgetTokens?.toLocaleString("en")} tokens) is spent` : `the debate's call budget (${limits.maxCalls} model calls) is spent`);
  }
}

/** A step's identity for replay: what it is, not when it ran. */
function stepKey(t: { round: number; phase: string; role: string }, kind: string) {
  return `${t.round}\u0000${t.phase}\u0000${t.role}\u0000${kind}`;
}

/** `released`: handed back to the queue unfinished (a worker stopping gracefully); another run continues it. */
export type RunOutcome = { status: "completed" | "failed" | "cancelled" | "skipped" | "released"; error?: string };

export type RunOptions = {
  signal?: AbortSignal;
  /** How model ids become models: the registry, or a scripted model in tests and benchmarks. */
  resolve?: (id: string) => ResolvedModel;
  /** The sentence encoder for `ctx.embed` (default: the registry's model named in `config.embedder`); tests pass a scripted one. */
  embedder?: Embedder;
  /** Search settings and dependencies for `ctx.tool` (default: the server's configuration); tests point them at a scripted server. */
  search?: { config?: SearchConfig; deps?: ResolveDeps };
  /** Which idle states this run may claim the debate from (default: any; queue workers: only `queued`). */
  claimFrom?: Parameters<typeof q.claimForRun>[4];
  /**
   * Read the claim before each new turn (one indexed read): for runs that other processes may stop
   * (queue workers on PostgreSQL), so Stop takes effect at the next turn, not only at the next
   * heartbeat. A turn already streaming is stopped by the heartbeat.
   */
  checkClaimEachTurn?: boolean;
};

export type Claim = { ok: true; token: string } | { ok: false; error: string };

/**
 * Claims a debate for one run of this process. Every way of running a debate (the form, Resume,
 * evaluation workers, the CLI, benchmarks) goes through here: of two claimants one wins, and the
 * other is told why in words.
 */
export async function claimDebate(db: Database, debateId: string, from?: RunOptions["claimFrom"]): Promise<Claim> {
  // In this process a run may still be winding down (stopped, not yet written): not claimable yet.
  const local = state().controllers.get(debateId);
  if (local) return { ok: false, error: local.controller.signal.aborted ? STILL_STOPPING : ALREADY_RUNNING };
  const token = `${RUNNER_ID}/${++state().runs}`;
  if (await q.claimForRun(db, debateId, token, getConfig().debateLeaseMs, from)) return { ok: true, token };
  return { ok: false, error: await claimRefusal(db, debateId) };
}

/** Claims the debate and runs it to the end; "skipped", with the reason, when another run holds it. */
export async function runDebate(db: Database, debateId: string, opts: RunOptions = {}): Promise<RunOutcome> {
  const claim = await claimDebate(db, debateId, opts.claimFrom);
  if (!claim.ok) return { status: "skipped", error: claim.error };
  return runClaimed(db, debateId, claim.token, opts);
}

/**
 * Claims the debate now and runs it in this process without waiting; the browser may come and
 * go. A refused claim is returned, so whoever pressed the button hears why.
 */
export async function startDebateRun(db: Database, debateId: string, opts: RunOptions = {}): Promise<Claim> {
  const claim = await claimDebate(db, debateId);
  if (claim.ok) {
    runClaimed(db, debateId, claim.token, opts).catch((e) => console.error(`[debate ${debateId}] runner crashed: ${(e as Error).message}`));
  }
  return claim;
}

async function runClaimed(db: Database, debateId: string, token: string, opts: RunOptions): Promise<RunOutcome> {
  const snapshot = await q.loadForRun(db, debateId);
  if (!snapshot) return { status: "skipped", error: "no such debate" };
  const { debate, claim } = snapshot;
  let protocol: ReturnType<typeof getProtocol>;
  let config: unknown;
  try {
    protocol = getProtocol(debate.protocol);
    config = protocol.parseConfig(debate.config);
  } catch (e) {
    // A debate that cannot start must not stay claimed as "running".
    const message = `This debate's stored set-up cannot be run: ${(e as Error).message}`;
    await q.finishClaimedDebate(db, debateId, token, "failed", { message });
    return { status: "failed", error: message };
  }
  // The pool grows during a debate (tools add passages); `evidence` is the pool it started with.
  const pool = q.evidenceFromRows(snapshot.evidence).sort((a, b) => a.rank - b.rank);
  const evidence = pool.filter((e) => e.addedSeq === undefined);
  const visible = (role?: string) => pool.filter((e) => !role || !e.visibleTo || e.visibleTo.includes(role));
  const models = debate.models;
  const limits = budgetLimits(debate.config);

  const controller = new AbortController();
  opts.signal?.addEventListener("abort", () => controller.abort(), { once: true });
  const run: Run = { controller, token };
  state().controllers.set(debateId, run);
  setRunning(debateId, true);
  startHeartbeat(db);
  publish(debateId, { type: "status", status: "running" });

  // Finished turns from an earlier run are replayed: each step of the protocol has an identity
  // (round, phase, role, kind, and how many such steps came before it), and a step whose identity
  // has a finished turn gets that turn back instead of running again. Identity, not position, so
  // branches that ran side by side (ctx.parallel) replay whatever order they finished in. A turn a
  // user stopped keeps its row and number, so new turns are numbered after every kept row.
  // Only when the snapshot holds some: this run holds the claim, so nobody adds one meanwhile (a statement saved per run).
  if (snapshot.turns.some((t) => !q.KEPT_TURN_STATUSES.includes(t.status))) await q.dropUnfinishedTurns(db, debateId);
  const kept = snapshot.turns.filter((t) => q.KEPT_TURN_STATUSES.includes(t.status));
  const finished = new Map<string, typeof kept>();
  for (const t of kept.filter((t) => t.status === "completed").sort((a, b) => a.seq - b.seq)) {
    const k = stepKey(t, t.kind);
    finished.set(k, [...(finished.get(k) ?? []), t]);
  }
  const occurrences = new Map<string, number>();
  let seq = kept.reduce((m, t) => Math.max(m, t.seq), 0);
  let tokens = 0;
  let modelCalls = 0;

  const exhausted = (): BudgetState["exhausted"] =>
    limits.budgetTokens !== null && tokens >= limits.budgetTokens ? "tokens" : limits.maxCalls !== null && modelCalls >= limits.maxCalls ? "calls" : null;

  const modelFor = (role: string) => modelForRole(protocol, config, models, role);
  const roleTemperatures = new Map(protocol.roleSpecs(config).map((r) => [r.role, r.temperature]));

  /** The stored step this one replays, if an earlier run finished it. */
  function replayed(spec: { round: number; role: string; phase: string }, kind: string) {
    if (controller.signal.aborted) throw new DebateCancelled();
    const k = stepKey(spec, kind);
    const n = occurrences.get(k) ?? 0;
    occurrences.set(k, n + 1);
    return finished.get(k)?.[n];
  }

  type Generated = { text: string; usage: TurnResult["usage"]; costUsd: number | null; latencyMs: number; scores?: Record<string, unknown>; metadata?: Record<string, unknown> };
  async function turn<T extends TurnSpec>(spec: T, generate: (info: TurnInfo, calls: CallRecord[]) => Promise<Generated>) {
    const done = replayed(spec, spec.kind);
    if (done) {
      tokens += (done.promptTokens ?? 0) + (done.completionTokens ?? 0);
      modelCalls += (done.metadata as { repaired?: boolean } | null)?.repaired ? 2 : 1;
      return {
        result: {
          seq: done.seq,
          text: done.content,
          model: done.model ?? modelFor(spec.role),
          usage: { promptTokens: done.promptTokens ?? 0, completionTokens: done.completionTokens ?? 0 },
          costUsd: done.costUsd,
          latencyMs: done.latencyMs ?? 0,
          replayed: true,
        } satisfies TurnResult,
        scores: done.scores,
        metadata: done.metadata,
      };
    }
    const spent = exhausted();
    if (spent && !spec.wrapUp) throw new BudgetExhausted(spent, limits);
    if (opts.checkClaimEachTurn) {
      // Stopped or taken over from another process since the last heartbeat: no new turn starts.
      const row = await q.getDebateStatus(db, debateId);
      if (row?.status !== "running" || row.runnerId !== token) {
        run.lost = row?.runnerId !== token;
        controller.abort();
        throw new DebateCancelled();
      }
    }
    const n = ++seq;
    const info: TurnInfo = { seq: n, round: spec.round, phase: spec.phase, role: spec.role, kind: spec.kind, model: modelFor(spec.role) };
    // Citations count only passages this role could read when it spoke; a judge reads the whole pool.
    const citable = new Set(visible(spec.kind === "judge" ? undefined : spec.role).map((e) => e.rank));
    // The row is opened while the model starts, so its insert runs under the model's time to first
    // token instead of before it; the finish below waits for it, so a finished turn is still
    // written before the next one starts. (Watchers in this process see the turn from the event.)
    const opening = q.beginTurn(db, { debateId, ...info });
    // Awaited below; this only keeps a failure before then from counting as unhandled.
    opening.catch(() => undefined);
    publish(debateId, { type: "turn-start", turn: info });
    // Every call of this turn (retries, repairs, samples) is written together with the turn.
    const calls: CallRecord[] = [];
    partials.set(n, "");
    try {
      const out = await generate(info, calls);
      const citations = citedRanks(out.text, Number.MAX_SAFE_INTEGER).filter((r) => citable.has(r));
      const turnId = await opening;
      // Written before the protocol may start the next turn: a crash loses at most the turn in progress.
      await q.finishTurn(db, turnId, debateId, {
        content: out.text,
        promptTokens: out.usage.promptTokens,
        completionTokens: out.usage.completionTokens,
        costUsd: out.costUsd,
        latencyMs: out.latencyMs,
        citations,
        scores: out.scores ?? null,
        metadata: out.metadata ?? spec.metadata ?? null,
      }, calls);
      tokens += out.usage.promptTokens + out.usage.completionTokens;
      // Retries and repairs are calls too; a failed attempt spends as much as a good one.
      modelCalls += Math.max(1, calls.length);
      publish(debateId, {
        type: "turn-end",
        turn: { ...info, content: out.text, promptTokens: out.usage.promptTokens, completionTokens: out.usage.completionTokens, costUsd: out.costUsd, latencyMs: out.latencyMs, citations, scores: out.scores ?? null, metadata: out.metadata ?? spec.metadata ?? null },
      });
      return {
        result: { seq: n, text: out.text, model: info.model, usage: out.usage, costUsd: out.costUsd, latencyMs: out.latencyMs, replayed: false } satisfies TurnResult,
        scores: out.scores ?? null,
        metadata: out.metadata ?? spec.metadata ?? null,
      };
    } catch (e) {
      // A run that lost its claim writes nothing more: the debate belongs to the run that took it.
      if (run.lost) throw new DebateCancelled();
      const stopped = controller.signal.aborted;
      const message = stopped ? "Stopped by a user before this turn was finished." : (e as Error).message;
      // What the turn had written so far is kept: a stopped turn's text is shown, marked stopped.
      const partial = partials.get(n) ?? "";
      const turnId = await opening.catch(() => null);
      if (turnId) await q.failTurn(db, turnId, debateId, message, partial, calls, stopped ? "stopped" : "failed").catch(() => undefined);
      publish(debateId, { type: "turn-error", seq: n, error: message, status: stopped ? "stopped" : "failed", content: partial });
      if (stopped) throw new DebateCancelled();
      throw Object.assign(e as Error, { turnSeq: n, turnLabel: `${spec.role}, ${spec.phase}` });
    } finally {
      partials.delete(n);
    }
  }
  // The text of each turn in progress, as streamed (a retry starts it again from nothing).
  const partials = new Map<number, string>();

  const resolve = opts.resolve ?? ((id: string) => resolveModel(id));
  const callOptions = (info: TurnInfo, calls: CallRecord[], spec: TurnSpec) => ({
    model: resolve(info.model),
    purpose: `${spec.phase}:${spec.role}`,
    system: spec.system,
    // An agent that keeps a chat sends its conversation so far; the prompt is always the last word.
    messages: [...(spec.messages ?? []), { role: "user" as const, content: spec.prompt }],
    maxOutputTokens: spec.maxOutputTokens,
    // A turn that names no temperature speaks at its role's, as the protocol declared it.
    temperature: spec.temperature ?? roleTemperatures.get(spec.role),
    abortSignal: controller.signal,
    onTextDelta: (text: string) => {
      partials.set(info.seq, (partials.get(info.seq) ?? "") + text);
      publish(debateId, { type: "delta", seq: info.seq, text });
    },
    onRetry: ({ attempt, maxAttempts, reason, delayMs, error }: RetryInfo) => {
      partials.set(info.seq, "");
      publish(debateId, { type: "turn-reset", seq: info.seq, attempt, maxAttempts, reason, delayMs: Math.round(delayMs), error: error.message });
    },
    onRecord: (rec: CallRecord) => void calls.push(rec),
  });

  /** A finished model call's numbers, summed over the calls of one turn (an answer and its repair). */
  const sum = (cs: Array<{ usage: TurnResult["usage"]; costUsd: number | null; latencyMs: number }>) => ({
    usage: { promptTokens: cs.reduce((a, c) => a + c.usage.promptTokens, 0), completionTokens: cs.reduce((a, c) => a + c.usage.completionTokens, 0) },
    costUsd: cs.some((c) => c.costUsd === null) ? null : cs.reduce((a, c) => a + (c.costUsd ?? 0), 0),
    latencyMs: cs.reduce((a, c) => a + c.latencyMs, 0),
  });

  type Step = { round: number; phase: string; role: string; kind: "analysis" | "tool"; model: string | null };
  type StepRow = { status: "completed" | "failed"; content: string; latencyMs: number; startedAt: Date; finishedAt: Date; metadata: Record<string, unknown>; error: string | null };
  /** Writes a step that called no model, whole, and tells watchers; a failed one fails the debate, naming the step. */
  async function writeStep(n: number, step: Step, row: StepRow) {
    const info: TurnInfo = { seq: n, round: step.round, phase: step.phase, role: step.role, kind: step.kind, model: step.model ?? "" };
    await q.insertStepTurn(db, { debateId, seq: n, ...step, ...row });
    publish(debateId, { type: "turn-start", turn: info });
    if (row.status === "failed") {
      publish(debateId, { type: "turn-error", seq: n, error: row.error ?? "failed", status: "failed", content: row.content });
      throw Object.assign(new Error(row.error ?? "failed"), { turnSeq: n, turnLabel: `${step.role}, ${step.phase}` });
    }
    publish(debateId, { type: "turn-end", turn: { ...info, content: row.content, promptTokens: 0, completionTokens: 0, costUsd: 0, latencyMs: row.latencyMs, citations: [], scores: null, metadata: row.metadata } });
  }

  // A tool searches with what was frozen into the debate when it was created, never today's setting.
  const frozenTools = ((debate.config as { tools?: Record<string, unknown> }).tools ?? {}) as Record<string, unknown>;
  function searchTool(name: string) {
    const parsed = searchToolSnapshotSchema.safeParse(frozenTools[name]);
    if (!parsed.success) {
      throw new Error(`this debate has no tool "${name}" in its stored set-up (config.tools.${name}); protocol "${protocol.name}" must declare it in \`tools\` so one is chosen when the debate is created`);
    }
    return { snapshot: parsed.data, provider: () => providerFor(parsed.data, opts.search?.config ?? getConfig().search, { db, allow: getConfig().fetch.allow, ...opts.search?.deps }) };
  }

  /** A search's results as pool passages (origin `tool:<provider>`), added once per tool turn. */
  async function toolEvidence(spec: ToolSpec, n: number, record: SucceededToolCall): Promise<DebateEvidence[]> {
    if (spec.addEvidence === false || record.results.length === 0) return [];
    const who = spec.addEvidence?.visibleTo;
    const visibleTo = who === "all" ? undefined : who && who.length ? who : [spec.role];
    return ctx.addEvidence({
      origin: `tool:${record.provider}`,
      addedSeq: n,
      visibleTo,
      items: record.results.map((r) => ({
        text: r.text,
        source: "tool" as const,
        title: r.title || undefined,
        url: r.url ?? undefined,
        publishedAt: r.publishedAt ?? undefined,
        ...(r.source.kind === "corpus" ? { passageId: r.source.passageId, externalId: r.source.passageExternalId } : {}),
        metadata: { provider: record.provider, live: record.live, label: record.label, query: record.request.query, resultRank: r.rank },
      })),
    });
  }

  const ctx: DebateContext<unknown> = {
    claim: {
      text: claim.text,
      date: claim.claimDate?.toISOString(),
      ...(typeof claim.metadata?.title === "string" ? { title: claim.metadata.title } : {}),
      ...(claim.appearanceUrl ? { url: claim.appearanceUrl } : {}),
    },
    evidence,
    config,
    modelFor,
    signal: controller.signal,
    tokensSoFar: () => tokens,
    async speak(spec) {
      const { result } = await turn(spec, async (info, calls) => {
        const r = await callModel(callOptions(info, calls, spec));
        // Metadata that depends on what was said (a parsed label, a query), stored with the turn.
        return spec.metadataFrom ? { ...r, metadata: { ...spec.metadata, ...spec.metadataFrom(r.text) } } : r;
      });
      return result;
    },
    async speakScored(spec: ScoredTurnSpec): Promise<ScoredTurnResult> {
      const { result, scores } = await turn(spec, async (info, calls) => {
        const r = await scoreOptions({ ...callOptions(info, calls, spec), options: spec.options, marker: spec.marker, fallback: spec.fallback });
        // Samples drawn for a fallback are calls of this turn too.
        const extra = r.samples ?? [];
        return {
          text: r.call.text,
          usage: {
            promptTokens: r.call.usage.promptTokens + extra.reduce((a, c) => a + c.usage.promptTokens, 0),
            completionTokens: r.call.usage.completionTokens + extra.reduce((a, c) => a + c.usage.completionTokens, 0),
          },
          costUsd: [r.call, ...extra].some((c) => c.costUsd === null) ? null : [r.call, ...extra].reduce((a, c) => a + (c.costUsd ?? 0), 0),
          latencyMs: r.call.latencyMs,
          scores: r.scores as unknown as Record<string, unknown>,
          // What the scored answer was read as (ZoFia's judge: R/F/I and its probabilities), stored with the turn.
          ...(spec.metadataFromScored ? { metadata: { ...spec.metadata, ...spec.metadataFromScored(r.call.text, r.scores) } } : {}),
        };
      });
      return { ...result, scores: scores as unknown as ScoredTurnResult["scores"] };
    },
    async speakJson(spec, schema) {
      const { result, metadata } = await turn(spec, async (info, calls) => {
        const first = await callModel(callOptions(info, calls, spec));
        const reading = readJsonAnswer(first.text, schema);
        if (reading.ok) return { text: first.text, ...sum([first]), metadata: { ...spec.metadata, json: reading.value as unknown, repaired: false } };
        // One repair: the model sees its own answer and what was wrong with it.
        partials.set(info.seq, "");
        const repairSpec: TurnSpec = {
          ...spec,
          messages: [...(spec.messages ?? []), { role: "user", content: spec.prompt }, { role: "assistant", content: first.text }],
          prompt: renderPrompt("engine/repair-json", { problem: reading.problem }),
        };
        const second = await callModel({ ...callOptions(info, calls, repairSpec), purpose: `${spec.phase}:${spec.role}:repair-json` });
        const again = readJsonAnswer(second.text, schema);
        const numbers = sum([first, second]);
        if (again.ok) return { text: second.text, ...numbers, metadata: { ...spec.metadata, json: again.value as unknown, repaired: true } };
        // Recorded as it was said: no default stands in for an answer nobody could read.
        return { text: second.text, ...numbers, metadata: { ...spec.metadata, json: null, repaired: true, unparsed: { problem: again.problem, firstProblem: reading.problem, firstAnswer: first.text } } };
      });
      const m = (metadata ?? {}) as { json?: unknown; unparsed?: { problem: string } };
      // A replayed value is what the schema produced when the turn was first read (stored as JSON).
      if (m.unparsed || m.json === null || m.json === undefined) {
        return { ...result, value: null, unparsed: { error: m.unparsed?.problem ?? "the stored turn has no parsed answer" } } as JsonTurnResult<never>;
      }
      return { ...result, value: m.json, unparsed: null } as JsonTurnResult<never>;
    },
    async record<T>(spec: RecordSpec<T>): Promise<RecordResult<T>> {
      const done = replayed(spec, "analysis");
      if (done) return { seq: done.seq, value: (done.metadata as { value: T } | null)?.value as T, replayed: true };
      const n = ++seq;
      const startedAt = new Date();
      const t0 = performance.now();
      const step = { round: spec.round, phase: spec.phase, role: spec.role, kind: "analysis" as const, model: null };
      let value: T;
      try {
        value = await spec.compute();
      } catch (e) {
        await writeStep(n, step, { status: "failed", content: "", latencyMs: performance.now() - t0, startedAt, finishedAt: new Date(), metadata: { ...spec.metadata }, error: `computing ${spec.phase} failed: ${(e as Error).message}` });
        throw e;
      }
      // Stored as JSON: what the protocol gets back on resume is what JSON keeps of the value.
      const content = spec.content ? spec.content(value) : JSON.stringify(value);
      await writeStep(n, step, { status: "completed", content, latencyMs: performance.now() - t0, startedAt, finishedAt: new Date(), metadata: { ...spec.metadata, value: value as unknown }, error: null });
      return { seq: n, value, replayed: false };
    },
    async embed(spec) {
      const done = replayed(spec, "analysis");
      if (done) {
        const m = done.metadata as { vectors?: number[][]; embedder?: string } | null;
        if (!m?.vectors || !m.embedder) throw new Error(`the stored step ${done.seq} (${spec.role}, ${spec.phase}) holds no vectors to replay`);
        return { seq: done.seq, vectors: m.vectors, embedder: m.embedder, replayed: true };
      }
      const n = ++seq;
      const startedAt = new Date();
      const t0 = performance.now();
      const frozen = (debate.config as { embedder?: unknown }).embedder;
      const step = { round: spec.round, phase: spec.phase, role: spec.role, kind: "analysis" as const };
      let embedder: Embedder;
      let vectors: number[][];
      try {
        if (!opts.embedder && typeof frozen !== "string") throw new Error(`protocol "${protocol.name}" must declare \`embeds: true\` so an encoder is frozen into the debate when it is created`);
        embedder = opts.embedder ?? resolveEmbedder(frozen as string);
        vectors = [];
        for (let i = 0; i < spec.texts.length; i += embedder.batchSize) vectors.push(...(await embedder.embed(spec.texts.slice(i, i + embedder.batchSize), controller.signal)));
      } catch (e) {
        if (controller.signal.aborted) throw new DebateCancelled();
        const model = opts.embedder?.id ?? (typeof frozen === "string" ? frozen : null);
        await writeStep(n, { ...step, model }, { status: "failed", content: "", latencyMs: performance.now() - t0, startedAt, finishedAt: new Date(), metadata: { ...spec.metadata, texts: spec.texts }, error: `embedding failed: ${(e as Error).message}` });
        throw e;
      }
      const content = `Embedded ${spec.texts.length} text${spec.texts.length === 1 ? "" : "s"} with ${embedder.id}`;
      await writeStep(n, { ...step, model: embedder.id }, { status: "completed", content, latencyMs: performance.now() - t0, startedAt, finishedAt: new Date(), metadata: { ...spec.metadata, embedder: embedder.id, texts: spec.texts, vectors }, error: null });
      return { seq: n, vectors, embedder: embedder.id, replayed: false };
    },
    async tool(spec): Promise<ToolResult> {
      const { snapshot, provider } = searchTool(spec.tool ?? "search");
      const done = replayed(spec, "tool");
      if (done) {
        // Replayed from the stored results; a record for another request means history changed, and is refused.
        const record = toolRecordFromTurn(done, { provider: snapshot.provider, request: spec.request });
        if (record.status !== "ok") throw new Error(`the stored search of turn ${done.seq} failed and cannot be replayed`);
        return { seq: done.seq, record, evidence: await toolEvidence(spec, done.seq, record), replayed: true };
      }
      const n = ++seq;
      const step = { round: spec.round, phase: spec.phase, role: spec.role, kind: "tool" as const };
      let record: SucceededToolCall;
      try {
        record = await callSearch(provider(), spec.request, { signal: controller.signal });
      } catch (e) {
        if (controller.signal.aborted) throw new DebateCancelled();
        // Stored as a failed turn and the debate fails naming it (writeStep throws): never an empty result list.
        if (e instanceof ToolCallFailed) {
          const f = toolTurnFields(e.record);
          await writeStep(n, { ...step, model: snapshot.provider }, { status: "failed", content: f.content ?? "", latencyMs: f.latencyMs ?? 0, startedAt: f.startedAt!, finishedAt: f.finishedAt!, metadata: { ...spec.metadata, ...(f.metadata as Record<string, unknown>) }, error: f.error ?? e.message });
        }
        // The provider could not even be built (a key gone since the debate started): a failed turn that says so.
        const now = new Date();
        await writeStep(n, { ...step, model: snapshot.provider }, { status: "failed", content: `Search (${snapshot.label}): "${spec.request.query}"`, latencyMs: 0, startedAt: now, finishedAt: now, metadata: { ...spec.metadata, toolRequest: spec.request }, error: (e as Error).message });
        throw e;
      }
      const f = toolTurnFields(record);
      await writeStep(n, { ...step, model: record.provider }, { status: "completed", content: f.content ?? "", latencyMs: f.latencyMs ?? 0, startedAt: f.startedAt!, finishedAt: f.finishedAt!, metadata: { ...spec.metadata, ...(f.metadata as Record<string, unknown>) }, error: null });
      return { seq: n, record, evidence: await toolEvidence(spec, n, record), replayed: false };
    },
    parallel: (branches) => Promise.all(branches.map((b) => b())),
    evidenceFor: (role) => visible(role),
    async addEvidence(spec) {
      // Already added by this turn in an earlier run: the stored rows, ranks and all.
      const stored = pool.filter((e) => e.addedSeq === spec.addedSeq);
      if (stored.length) return stored;
      let rank = pool.reduce((m, e) => Math.max(m, e.rank), 0);
      const added = spec.items.map((item) => ({ ...item, rank: ++rank, origin: spec.origin, addedSeq: spec.addedSeq, ...(spec.visibleTo ? { visibleTo: spec.visibleTo } : {}) }));
      // In the pool before the write is awaited: a parallel branch adding at the same time takes the next ranks.
      pool.push(...added);
      await q.addDebateEvidence(db, debateId, added);
      publish(debateId, { type: "evidence", evidence: added });
      return added;
    },
    budget: () => ({ tokens, calls: modelCalls, budgetTokens: limits.budgetTokens, maxCalls: limits.maxCalls, exhausted: exhausted() }),
    async checkpoint(record) {
      await q.saveCheckpoint(db, debateId, record);
      publish(debateId, { type: "checkpoint", checkpoint: record });
    },
  };

  try {
    const verdict = await protocol.run(ctx);
    if (controller.signal.aborted) throw new DebateCancelled();
    // Verdict and completion in one transaction: one commit at the end of every debate instead of two.
    await q.completeWithVerdict(db, debateId, token, "judge", verdict);
    publish(debateId, { type: "verdict", verdict });
    publish(debateId, { type: "status", status: "completed" });
    return { status: "completed" };
  } catch (e) {
    if (e instanceof DebateCancelled || controller.signal.aborted) {
      if (run.handBack) {
        // Queued again for the next worker; the turn in progress is dropped by the run that resumes.
        // Watchers are told, so no page keeps showing the half-written turn while the debate waits.
        publish(debateId, { type: "status", status: "queued" });
        await q.releaseClaim(db, debateId, token);
        return { status: "released" };
      }
      if (run.lost) {
        // Another run holds the debate now (this one's claim lapsed): leave everything to it.
        return { status: "cancelled", error: "another run took this debate over" };
      }
      await q.finishClaimedDebate(db, debateId, token, "cancelled", { message: STOPPED_MESSAGE });
      publish(debateId, { type: "status", status: "cancelled" });
      return { status: "cancelled" };
    }
    const err = e as Error & { turnSeq?: number; turnLabel?: string };
    const message = err.turnLabel ? `Turn ${err.turnSeq} (${err.turnLabel}) failed: ${err.message}` : err.message;
    await q.finishClaimedDebate(db, debateId, token, "failed", { message, turnSeq: err.turnSeq, retryable: e instanceof ModelCallError ? e.retryable : undefined });
    publish(debateId, { type: "status", status: "failed", error: message });
    return { status: "failed", error: message };
  } finally {
    // Only this run's entry: a later run of the same debate may already have registered its own.
    if (state().controllers.get(debateId) === run) {
      state().controllers.delete(debateId);
      setRunning(debateId, false);
    }
  }
}

const STOPPED_MESSAGE = "Stopped by a user. Finished turns are kept; resume to continue from the last finished turn.";

/** Starts a debate in this process without waiting for it; the browser may come and go. */
export function runInBackground(db: Database, debateId: string, opts: RunOptions = {}): void {
  startDebateRun(db, debateId, opts)
    .then((c) => {
      if (!c.ok) console.error(`[debate ${debateId}] not started: ${c.error}`);
    })
    .catch((e) => console.error(`[debate ${debateId}] runner crashed: ${(e as Error).message}`));
}

/**
 * Stops a debate. Running here: aborted at once. Running in another process (PostgreSQL
 * deployments): marked cancelled, and that process notices at its next heartbeat.
 */
export async function cancelDebate(db: Database, debateId: string): Promise<boolean> {
  const local = state().controllers.get(debateId);
  if (local) {
    local.controller.abort();
    return true;
  }
  const status = await q.getDebateStatus(db, debateId);
  if (!status || !["queued", "running", "interrupted"].includes(status.status)) return false;
  await q.finishDebate(db, debateId, "cancelled", { message: STOPPED_MESSAGE });
  return true;
}

/**
 * A graceful stop of a worker: the given debates (all of this process's, without ids) stop at
 * once and are handed back, queued, so another worker resumes them from their last finished turn
 * without waiting for a lease to run out. Finished turns are kept; the turn in progress is not
 * finished, so it is run again by whoever resumes.
 */
export function handBack(debateIds?: string[]): string[] {
  const handed: string[] = [];
  for (const [id, r] of state().controllers) {
    if (debateIds && !debateIds.includes(id)) continue;
    // `lost` too: nothing more is written by this run (no stopped turn, no cancelled status).
    r.handBack = true;
    r.lost = true;
    r.controller.abort();
    handed.push(id);
  }
  return handed;
}

export function isRunningHere(debateId: string) {
  return state().controllers.has(debateId);
}

const HEARTBEAT_MS = 5_000;
/** Several beats fit in a lease (DEBATE_LEASE_SECONDS), so one slow write does not lose the debate. */
const beatEvery = () => Math.min(HEARTBEAT_MS, Math.floor(getConfig().debateLeaseMs / 3));

function startHeartbeat(db: Database) {
  const st = state();
  if (st.timer) return;
  st.timer = setInterval(async () => {
    const runs = [...st.controllers.entries()].map(([id, r]) => ({ id, token: r.token }));
    if (runs.length === 0) {
      clearInterval(st.timer);
      st.timer = undefined;
      return;
    }
    try {
      // A debate stopped from another process, or taken over after this run missed its lease: stop here too.
      for (const id of await q.heartbeat(db, runs)) {
        const r = st.controllers.get(id);
        if (!r) continue;
        const row = await q.getDebateStatus(db, id);
        r.lost = row?.runnerId !== r.token;
        r.controller.abort();
      }
    } catch (e) {
      console.error(`[debates] heartbeat failed: ${(e as Error).message}`);
    }
  }, beatEvery());
  st.timer.unref();
}

/** At start-up: debates a dead process left running become `interrupted`, resumable by a user. */
export async function recoverOrphans(db: Database, backend: "pglite" | "postgres") {
  return q.markOrphansInterrupted(db, { allRunning: backend === "pglite", staleAfterMs: 6 * HEARTBEAT_MS, exceptRunner: RUNNER_ID, message: INTERRUPTED_BY_RESTART });
}

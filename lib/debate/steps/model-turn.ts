import type { z } from "zod";
import { callModel, type CallRecord, type RetryInfo } from "@/lib/ai/call";
import { resolveModel } from "@/lib/ai/registry";
import { scoreOptions } from "@/lib/ai/score-options";
import { renderPrompt } from "@/lib/prompts";
import { citedRanks } from "../evidence";
import { publish, type TurnInfo } from "../events";
import { readJsonAnswer } from "../json-answer";
import { answerWithRepair } from "../kit";
import type { JsonTurnResult, ScoredTurnResult, ScoredTurnSpec, TurnResult, TurnSpec } from "../types";
import { BudgetExhausted, checkNotStopped, checkStillHeld, DebateCancelled, visibleTo, type RunScope } from "./scope";
import { runStore } from "../run-store";
import { applyInterventions } from "../interventions/apply";

/**
 * The writer of model turns (ctx.speak, speakScored, speakJson): a replayed turn comes back from
 * the journal; a new one opens its row, streams the model's text to watchers, and is written with
 * every model call it made before the protocol goes on.
 */

type Generated = {
  text: string;
  usage: TurnResult["usage"];
  costUsd: number | null;
  latencyMs: number;
  scores?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
};

async function modelTurn<T extends TurnSpec>(
  scope: RunScope,
  spec: T,
  generate: (info: TurnInfo, calls: CallRecord[], spec: T) => Promise<Generated>,
) {
  const { db, debateId, run, spending } = scope;
  checkNotStopped(scope);
  const done = scope.journal.lookup(spec, spec.kind);
  if (done) {
    spending.tokens += (done.promptTokens ?? 0) + (done.completionTokens ?? 0);
    spending.calls += (done.metadata as { repaired?: boolean } | null)?.repaired ? 2 : 1;
    return {
      result: {
        seq: done.seq,
        text: done.content,
        model: done.model ?? scope.modelFor(spec.role),
        usage: { promptTokens: done.promptTokens ?? 0, completionTokens: done.completionTokens ?? 0 },
        costUsd: done.costUsd,
        latencyMs: done.latencyMs ?? 0,
        replayed: true,
      } satisfies TurnResult,
      scores: done.scores,
      metadata: done.metadata,
    };
  }
  const spent = spending.exhausted();
  if (spent && !spec.wrapUp) throw new BudgetExhausted(spent, spending.limits);
  if (scope.opts.checkClaimEachTurn) {
    // Stopped or taken over from another process since the last heartbeat: no new turn starts.
    const row = await runStore().getDebateStatus(db, debateId);
    if (row?.status !== "running" || row.runnerId !== run.token) {
      run.lost = row?.runnerId !== run.token;
      run.controller.abort();
      throw new DebateCancelled();
    }
  }
  const n = scope.journal.next();
  // A step boundary: people's interventions waiting for this debate enter here (a new turn only;
  // a replayed one already carried them), and a judge waits while the verdict is held.
  const asked = await applyInterventions(scope, spec, n);
  const info: TurnInfo = {
    seq: n,
    round: spec.round,
    phase: spec.phase,
    role: spec.role,
    kind: spec.kind,
    model: scope.modelFor(spec.role),
  };
  // Citations count only passages this role could read when it spoke; a judge reads the whole pool.
  const citable = new Set(visibleTo(scope, spec.kind === "judge" ? undefined : spec.role).map((e) => e.rank));
  // The row is opened while the model starts, so its insert runs under the model's time to first
  // token instead of before it; the finish below waits for it, so a finished turn is still
  // written before the next one starts. (Watchers in this process see the turn from the event.)
  const opening = runStore().beginTurn(db, { debateId, ...info });
  // Awaited below; this only keeps a failure before then from counting as unhandled.
  opening.catch(() => undefined);
  publish(debateId, { type: "turn-start", turn: info });
  // Every call of this turn (retries, repairs, samples) is written together with the turn.
  const calls: CallRecord[] = [];
  scope.partials.set(n, "");
  try {
    const out = await generate(info, calls, asked);
    const citations = citedRanks(out.text, Number.MAX_SAFE_INTEGER).filter((r) => citable.has(r));
    const turnId = await opening;
    checkStillHeld(scope);
    const metadata = out.metadata ?? spec.metadata ?? null;
    const finished = {
      content: out.text,
      promptTokens: out.usage.promptTokens,
      completionTokens: out.usage.completionTokens,
      costUsd: out.costUsd,
      latencyMs: out.latencyMs,
      citations,
      scores: out.scores ?? null,
      metadata,
    };
    // Written before the protocol may start the next turn: a crash loses at most the turn in progress.
    await runStore().finishTurn(db, turnId, debateId, finished, calls);
    scope.journal.record({
      seq: n,
      round: spec.round,
      phase: spec.phase,
      role: spec.role,
      kind: spec.kind,
      status: "completed",
    });
    spending.tokens += out.usage.promptTokens + out.usage.completionTokens;
    // Retries and repairs are calls too; a failed attempt spends as much as a good one.
    spending.calls += Math.max(1, calls.length);
    publish(debateId, { type: "turn-end", turn: { ...info, ...finished } });
    return {
      result: {
        seq: n,
        text: out.text,
        model: info.model,
        usage: out.usage,
        costUsd: out.costUsd,
        latencyMs: out.latencyMs,
        replayed: false,
      } satisfies TurnResult,
      scores: out.scores ?? null,
      metadata,
    };
  } catch (e) {
    // A run that lost its claim writes nothing more: the debate belongs to the run that took it.
    if (run.lost) throw new DebateCancelled();
    const stopped = scope.signal.aborted;
    const message = stopped ? "Stopped by a user before this turn was finished." : (e as Error).message;
    // What the turn had written so far is kept: a stopped turn's text is shown, marked stopped.
    const partial = scope.partials.get(n) ?? "";
    const turnId = await opening.catch(() => null);
    if (turnId)
      await runStore()
        .failTurn(db, turnId, debateId, message, partial, calls, stopped ? "stopped" : "failed")
        .catch(() => undefined);
    publish(debateId, {
      type: "turn-error",
      seq: n,
      error: message,
      status: stopped ? "stopped" : "failed",
      content: partial,
    });
    if (stopped) throw new DebateCancelled();
    throw Object.assign(e as Error, { turnSeq: n, turnLabel: `${spec.role}, ${spec.phase}` });
  } finally {
    scope.partials.delete(n);
  }
}

/** The model call of a turn: its model, its messages, and the streaming and retry events watchers see. */
function callOptions(scope: RunScope, info: TurnInfo, calls: CallRecord[], spec: TurnSpec) {
  const resolve = scope.opts.resolve ?? ((id: string) => resolveModel(id));
  const { debateId, partials } = scope;
  return {
    model: resolve(info.model),
    purpose: `${spec.phase}:${spec.role}`,
    system: spec.system,
    // An agent that keeps a chat sends its conversation so far; the prompt is always the last word.
    messages: [...(spec.messages ?? []), { role: "user" as const, content: spec.prompt }],
    maxOutputTokens: spec.maxOutputTokens,
    // A turn that names no temperature speaks at its role's, as the protocol declared it.
    temperature: spec.temperature ?? roleTemperature(scope, spec.role),
    abortSignal: scope.signal,
    onTextDelta: (text: string) => {
      partials.set(info.seq, (partials.get(info.seq) ?? "") + text);
      publish(debateId, { type: "delta", seq: info.seq, text });
    },
    onRetry: ({ attempt, maxAttempts, reason, delayMs, error }: RetryInfo) => {
      partials.set(info.seq, "");
      publish(debateId, {
        type: "turn-reset",
        seq: info.seq,
        attempt,
        maxAttempts,
        reason,
        delayMs: Math.round(delayMs),
        error: error.message,
      });
    },
    onRecord: (rec: CallRecord) => void calls.push(rec),
  };
}

const temperatures = new WeakMap<RunScope, Map<string, number | undefined>>();
function roleTemperature(scope: RunScope, role: string) {
  let m = temperatures.get(scope);
  if (!m)
    temperatures.set(scope, (m = new Map(scope.protocol.roleSpecs(scope.config).map((r) => [r.role, r.temperature]))));
  return m.get(role);
}

/** A finished model call's numbers, summed over the calls of one turn (an answer and its repair). */
const sum = (cs: Array<{ usage: TurnResult["usage"]; costUsd: number | null; latencyMs: number }>) => ({
  usage: {
    promptTokens: cs.reduce((a, c) => a + c.usage.promptTokens, 0),
    completionTokens: cs.reduce((a, c) => a + c.usage.completionTokens, 0),
  },
  costUsd: cs.some((c) => c.costUsd === null) ? null : cs.reduce((a, c) => a + (c.costUsd ?? 0), 0),
  latencyMs: cs.reduce((a, c) => a + c.latencyMs, 0),
});

export async function speak(scope: RunScope, spec: TurnSpec): Promise<TurnResult> {
  const { result } = await modelTurn(scope, spec, async (info, calls, spec) => {
    const r = await callModel(callOptions(scope, info, calls, spec));
    // Metadata that depends on what was said (a parsed label, a query), stored with the turn.
    return spec.metadataFrom ? { ...r, metadata: { ...spec.metadata, ...spec.metadataFrom(r.text) } } : r;
  });
  return result;
}

export async function speakScored(scope: RunScope, spec: ScoredTurnSpec): Promise<ScoredTurnResult> {
  const { result, scores } = await modelTurn(scope, spec, async (info, calls, spec) => {
    const r = await scoreOptions({
      ...callOptions(scope, info, calls, spec),
      options: spec.options,
      marker: spec.marker,
      fallback: spec.fallback,
    });
    // Samples drawn for a fallback are calls of this turn too.
    const extra = r.samples ?? [];
    return {
      text: r.call.text,
      usage: {
        promptTokens: r.call.usage.promptTokens + extra.reduce((a, c) => a + c.usage.promptTokens, 0),
        completionTokens: r.call.usage.completionTokens + extra.reduce((a, c) => a + c.usage.completionTokens, 0),
      },
      costUsd: [r.call, ...extra].some((c) => c.costUsd === null)
        ? null
        : [r.call, ...extra].reduce((a, c) => a + (c.costUsd ?? 0), 0),
      latencyMs: r.call.latencyMs,
      scores: r.scores as unknown as Record<string, unknown>,
      // What the scored answer was read as (ZoFia's judge: R/F/I and its probabilities), stored with the turn.
      ...(spec.metadataFromScored
        ? { metadata: { ...spec.metadata, ...spec.metadataFromScored(r.call.text, r.scores) } }
        : {}),
    };
  });
  return { ...result, scores: scores as unknown as ScoredTurnResult["scores"] };
}

export async function speakJson<S extends z.ZodType>(
  scope: RunScope,
  spec: TurnSpec,
  schema: S,
): Promise<JsonTurnResult<z.output<S>>> {
  const { result, metadata } = await modelTurn(scope, spec, async (info, calls, spec) => {
    // The kit's answer-then-repair-once, inside one stored turn: both calls are this step's.
    const problems: string[] = [];
    const read = (text: string) => {
      const r = readJsonAnswer(text, schema);
      if (r.ok) return { json: r.value as unknown };
      problems.push(r.problem);
      return null;
    };
    const r = await answerWithRepair({
      ask: () => callModel(callOptions(scope, info, calls, spec)),
      read,
      repair: (first) => {
        // One repair: the model sees its own answer and what was wrong with it.
        scope.partials.set(info.seq, "");
        const repairSpec: TurnSpec = {
          ...spec,
          messages: [
            ...(spec.messages ?? []),
            { role: "user", content: spec.prompt },
            { role: "assistant", content: first.text },
          ],
          // The problem quotes the answer (a parse error shows its text): fenced like any model output.
          prompt: renderPrompt("engine/repair-json", { problem: scope.fence.wrap("answer", problems[0] ?? "") }),
        };
        return callModel({
          ...callOptions(scope, info, calls, repairSpec),
          purpose: `${spec.phase}:${spec.role}:repair-json`,
        });
      },
      onFailure: "repair",
    });
    const numbers = sum(r.repair ? [r.turn, r.repair] : [r.turn]);
    if (r.value)
      return {
        text: r.text,
        ...numbers,
        metadata: { ...spec.metadata, json: r.value.json, repaired: r.repair !== null },
      };
    // Recorded as it was said: no default stands in for an answer nobody could read.
    return {
      text: r.text,
      ...numbers,
      metadata: {
        ...spec.metadata,
        json: null,
        repaired: true,
        unparsed: { problem: problems[1] ?? "", firstProblem: problems[0] ?? "", firstAnswer: r.turn.text },
      },
    };
  });
  const m = (metadata ?? {}) as { json?: unknown; unparsed?: { problem: string } };
  // A replayed value is what the schema produced when the turn was first read (stored as JSON).
  if (m.unparsed || m.json === null || m.json === undefined) {
    return {
      ...result,
      value: null,
      unparsed: { error: m.unparsed?.problem ?? "the stored turn has no parsed answer" },
    } as JsonTurnResult<never>;
  }
  return { ...result, value: m.json, unparsed: null } as JsonTurnResult<never>;
}

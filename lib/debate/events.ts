import { EventEmitter } from "node:events";
import type { CheckpointRecord, DebateEvidence, VerdictRecord } from "./types";

/**
 * What a watcher of a debate receives, in order. The same events drive the browser stream, the
 * CLI and the benchmarks; the database has everything except the text of the turn in progress,
 * which lives in the process's buffer until the turn is finished and written.
 */
export type TurnInfo = { seq: number; round: number; phase: string; role: string; kind: string; model: string };

export type DebateEvent =
  | { type: "status"; status: string; error?: string }
  | { type: "turn-start"; turn: TurnInfo }
  | { type: "delta"; seq: number; text: string }
  /**
   * A failed attempt is being retried: the text of turn `seq` starts again from nothing. `attempt`
   * failed out of `maxAttempts`; `reason` says why in words (e.g. "a rate limit").
   */
  | { type: "turn-reset"; seq: number; attempt: number; maxAttempts: number; reason: string; delayMs: number; error: string }
  | {
      type: "turn-end";
      turn: TurnInfo & {
        content: string;
        promptTokens: number;
        completionTokens: number;
        costUsd: number | null;
        latencyMs: number;
        citations: number[];
        scores: Record<string, unknown> | null;
        /** The protocol's signals for this turn (parsed JSON, computed values, a tool call's record). */
        metadata?: Record<string, unknown> | null;
      };
    }
  /** The turn ended unfinished: `failed` (regenerated on resume) or `stopped` by a user (kept with what it had written). */
  | { type: "turn-error"; seq: number; error: string; status: "failed" | "stopped"; content: string }
  | { type: "checkpoint"; checkpoint: CheckpointRecord }
  /** Passages a turn added to the pool during the debate (a search's results). */
  | { type: "evidence"; evidence: DebateEvidence[] }
  | { type: "verdict"; verdict: VerdictRecord }
  /** Added by the event stream for watchers (not published by the runner): the expert's inferred field. */
  | { type: "domain"; domain: string };

/** A retry in progress on a running turn, for watchers who arrive during it. */
export type RetryNote = { attempt: number; maxAttempts: number; reason: string };
/** A turn being generated, with its text so far. */
export type LiveTurn = { turn: TurnInfo; text: string; retry?: RetryNote };
/** Several turns may run at once (two agents in one round, a judge panel): keyed by seq. */
type Live = { emitter: EventEmitter; running: Map<number, LiveTurn>; active: boolean };

const key = Symbol.for("counterpoint.debate-live");
type G = typeof globalThis & { [key]?: Map<string, Live> };

function registry(): Map<string, Live> {
  const g = globalThis as G;
  return (g[key] ??= new Map());
}

function live(debateId: string): Live {
  const reg = registry();
  let l = reg.get(debateId);
  if (!l) {
    l = { emitter: new EventEmitter(), running: new Map(), active: false };
    // Many browsers may watch one debate.
    l.emitter.setMaxListeners(0);
    reg.set(debateId, l);
  }
  return l;
}

export function publish(debateId: string, event: DebateEvent) {
  const l = live(debateId);
  if (event.type === "turn-start") l.running.set(event.turn.seq, { turn: event.turn, text: "" });
  else if (event.type === "delta") {
    const t = l.running.get(event.seq);
    if (t) {
      t.text += event.text;
      t.retry = undefined;
    }
  } else if (event.type === "turn-reset") {
    const t = l.running.get(event.seq);
    if (t) {
      t.text = "";
      t.retry = { attempt: event.attempt, maxAttempts: event.maxAttempts, reason: event.reason };
    }
  } else if (event.type === "turn-end") l.running.delete(event.turn.seq);
  else if (event.type === "turn-error") l.running.delete(event.seq);
  else if (event.type === "status" && event.status !== "running") l.running.clear();
  l.emitter.emit("event", event);
}

/** The turns being generated right now in this process, in seq order, each with its text so far. */
export function liveTurns(debateId: string): LiveTurn[] {
  const running = registry().get(debateId)?.running;
  if (!running) return [];
  return [...running.values()].sort((a, b) => a.turn.seq - b.turn.seq).map((c) => ({ turn: c.turn, text: c.text, ...(c.retry ? { retry: c.retry } : {}) }));
}

/**
 * Subscribes before the caller reads the database, so nothing falls between the snapshot and the
 * live events; the caller drops events for turns the snapshot already holds.
 */
export function subscribe(debateId: string, listener: (e: DebateEvent) => void): () => void {
  const l = live(debateId);
  l.emitter.on("event", listener);
  return () => {
    l.emitter.off("event", listener);
    if (l.emitter.listenerCount("event") === 0 && !l.active) registry().delete(debateId);
  };
}

export function setRunning(debateId: string, running: boolean) {
  const l = live(debateId);
  l.active = running;
  if (!running) l.running.clear();
  if (!running && l.emitter.listenerCount("event") === 0) registry().delete(debateId);
}

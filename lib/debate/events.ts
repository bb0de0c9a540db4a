import { EventEmitter } from "node:events";
import type { CheckpointRecord, VerdictRecord } from "./types";

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
  | { type: "verdict"; verdict: VerdictRecord }
  /** Added by the event stream for watchers (not published by the runner): the expert's inferred field. */
  | { type: "domain"; domain: string };

/** A retry in progress on the current turn, for watchers who arrive during it. */
export type RetryNote = { attempt: number; maxAttempts: number; reason: string };
type Live = { emitter: EventEmitter; current: { turn: TurnInfo; text: string; retry?: RetryNote } | null; running: boolean };

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
    l = { emitter: new EventEmitter(), current: null, running: false };
    // Many browsers may watch one debate.
    l.emitter.setMaxListeners(0);
    reg.set(debateId, l);
  }
  return l;
}

export function publish(debateId: string, event: DebateEvent) {
  const l = live(debateId);
  if (event.type === "turn-start") l.current = { turn: event.turn, text: "" };
  else if (event.type === "delta" && l.current?.turn.seq === event.seq) {
    l.current.text += event.text;
    l.current.retry = undefined;
  } else if (event.type === "turn-reset" && l.current?.turn.seq === event.seq) {
    l.current.text = "";
    l.current.retry = { attempt: event.attempt, maxAttempts: event.maxAttempts, reason: event.reason };
  }
  else if (event.type === "turn-end" || event.type === "turn-error") l.current = null;
  l.emitter.emit("event", event);
}

/** The turn being generated right now in this process, with its text so far. */
export function currentTurn(debateId: string) {
  const c = registry().get(debateId)?.current;
  return c ? { turn: c.turn, text: c.text, ...(c.retry ? { retry: c.retry } : {}) } : null;
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
    if (l.emitter.listenerCount("event") === 0 && !l.running) registry().delete(debateId);
  };
}

export function setRunning(debateId: string, running: boolean) {
  const l = live(debateId);
  l.running = running;
  if (!running && l.emitter.listenerCount("event") === 0) registry().delete(debateId);
}

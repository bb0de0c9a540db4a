import type { InterventionView } from "./interventions/contract";
import { EventEmitter } from "node:events";
import { peekProcessGlobal, processGlobal, setProcessGlobal } from "@/lib/process/globals";
import { spliceDelta } from "./splice";
import type { DebateEvidence, VerdictRecord } from "./types";
import type { MethodViewExtras } from "./definition";
import type { DebateStatus } from "@/db/schema";

/**
 * What a watcher of a debate receives, in order. The same events drive the browser stream, the
 * CLI and the benchmarks; the database has everything except the text of the turn in progress,
 * which lives in the running process's buffer until the turn is finished and written. On
 * PostgreSQL an event bus (pg-bus.ts) carries the running process's events to every other process
 * that watches the debate, where they land in the same buffer, so `liveTurns` and `subscribe`
 * work alike wherever the debate runs.
 */
export type TurnInfo = { seq: number; round: number; phase: string; role: string; kind: string; model: string };

/**
 * Each event's payload and meaning for API clients is in event-schema.ts, which fails the build
 * when an event here is not described there.
 */
export type DebateEvent =
  | { type: "status"; status: DebateStatus; error?: string }
  | { type: "turn-start"; turn: TurnInfo }
  /**
   * `offset`: where `text` starts in the turn's text so far (UTF-16 units; set by `publish`), so a
   * receiver can drop what it already has and notice what it missed.
   */
  | { type: "delta"; seq: number; text: string; offset?: number }
  /**
   * A failed attempt is being retried: the text of turn `seq` starts again from nothing. `attempt`
   * failed out of `maxAttempts`; `reason` says why in words (e.g. "a rate limit").
   */
  | {
      type: "turn-reset";
      seq: number;
      attempt: number;
      maxAttempts: number;
      reason: string;
      delayMs: number;
      error: string;
    }
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
  /** A method's note (ctx.note, e.g. RADAR's checkpoint), by kind (`name`) and `key`: the method's views read `value`. */
  | { type: "note"; name: string; key: string; value: unknown }
  /** Passages a turn added to the pool during the debate (a search's results). */
  | { type: "evidence"; evidence: DebateEvidence[] }
  | { type: "verdict"; verdict: VerdictRecord }
  /** A person's intervention, when submitted (any process) and again when the engine applies or refuses it. */
  | { type: "intervention"; intervention: InterventionView }
  /**
   * Added by the event stream for watchers (not published by the runner): what the method's
   * definition read from a step just finished for the page (`view.extras`), only the fields it found.
   */
  | { type: "view-extras"; extras: MethodViewExtras };

/** A retry in progress on a running turn, for watchers who arrive during it. */
export type RetryNote = { attempt: number; maxAttempts: number; reason: string };
/** A turn being generated, with its text so far. */
export type LiveTurn = { turn: TurnInfo; text: string; retry?: RetryNote };
/** Several turns may run at once (two agents in one round, a judge panel): keyed by seq. */
export type Live = { emitter: EventEmitter; running: Map<number, LiveTurn>; active: boolean; follows: number };

function registry(): Map<string, Live> {
  return processGlobal("debate-live", () => new Map());
}

function live(debateId: string): Live {
  const reg = registry();
  let l = reg.get(debateId);
  if (!l) {
    l = { emitter: new EventEmitter(), running: new Map(), active: false, follows: 0 };
    // Many browsers may watch one debate.
    l.emitter.setMaxListeners(0);
    reg.set(debateId, l);
  }
  return l;
}

/**
 * The cross-process half (pg-bus.ts on PostgreSQL; none on PGlite, where one process does
 * everything). `hold`/`release` count this process's interest in a debate (running it, or
 * watching it); `send` carries an event of a debate running here; `follow` resolves once this
 * process's buffer for a debate running elsewhere holds its text so far.
 */
export type EventBus = {
  send(debateId: string, event: DebateEvent): void;
  hold(debateId: string): void;
  release(debateId: string): void;
  follow(debateId: string, opts: { expectRunner: boolean }): Promise<void>;
  /** A run here ended: this process's buffer was the truth until now, so it is in step for whatever runs next elsewhere. */
  stoppedRunning(debateId: string): void;
};

export function setEventBus(bus: EventBus | null) {
  setProcessGlobal("debate-event-bus", bus);
}
export function eventBus(): EventBus | null {
  return peekProcessGlobal("debate-event-bus") ?? null;
}

/** Updates the buffer of running turns for `event`; false when a delta does not join the text held (a gap). */
function apply(l: Live, event: DebateEvent): DebateEvent | "gap" | null {
  if (event.type === "turn-start") l.running.set(event.turn.seq, { turn: event.turn, text: "" });
  else if (event.type === "delta") {
    const t = l.running.get(event.seq);
    if (!t) return event.offset === undefined ? event : "gap";
    if (event.offset === undefined) {
      // From the runner in this process: the offset is the text held so far.
      const offset = t.text.length;
      t.text += event.text;
      t.retry = undefined;
      return { ...event, offset };
    }
    const r = spliceDelta(t.text, event.offset, event.text);
    if (r.kind === "gap") return "gap";
    if (r.kind === "duplicate") return null;
    const offset = t.text.length;
    t.text = r.text;
    t.retry = undefined;
    return { type: "delta", seq: event.seq, text: r.added, offset };
  } else if (event.type === "turn-reset") {
    const t = l.running.get(event.seq);
    if (t) {
      t.text = "";
      t.retry = { attempt: event.attempt, maxAttempts: event.maxAttempts, reason: event.reason };
    }
  } else if (event.type === "turn-end") l.running.delete(event.turn.seq);
  else if (event.type === "turn-error") l.running.delete(event.seq);
  // A run starts before any of its turns: whatever was held belongs to an earlier run (one that
  // died mid-turn and was taken over), and a page opened now must not show its half-written turn.
  else if (event.type === "status") l.running.clear();
  return event;
}

export function publish(debateId: string, event: DebateEvent) {
  const l = live(debateId);
  const out = apply(l, event);
  if (out === null || out === "gap") return;
  l.emitter.emit("event", out);
  // Only the process running the debate speaks for it on the bus.
  if (l.active) eventBus()?.send(debateId, out);
}

/**
 * An event any process may originate (a person's intervention, submitted on whichever server they
 * reached): its watchers here get it, and the bus carries it to every other server's.
 */
export function announce(debateId: string, event: DebateEvent) {
  const l = live(debateId);
  l.emitter.emit("event", event);
  eventBus()?.send(debateId, event);
}

/**
 * An event of a debate running in another process, from the bus. A debate running here has only
 * one voice (this process's); a delta that does not join the text held is reported as a gap, and
 * the bus resynchronises (see `resync`).
 */
export function receiveRemote(debateId: string, event: DebateEvent): "ok" | "gap" | "ignored" {
  const l = live(debateId);
  // An intervention may be submitted on any server, so even the running process takes it from the bus.
  if (l.active && event.type !== "intervention") return "ignored";
  const out = apply(l, event);
  if (out === "gap") return "gap";
  if (out) l.emitter.emit("event", out);
  return "ok";
}

/** The running turns of a debate running elsewhere, as its runner sent them: the buffer starts from these. */
export function receiveSync(debateId: string, turns: LiveTurn[]) {
  const l = live(debateId);
  if (l.active) return;
  l.running = new Map(
    turns.map((t) => [t.turn.seq, { turn: t.turn, text: t.text, ...(t.retry ? { retry: t.retry } : {}) }]),
  );
}

/**
 * The buffer of a debate running elsewhere can no longer be trusted (text went missing, the
 * connection to PostgreSQL was lost): it is emptied, and every watcher is told to start again from
 * a fresh snapshot (the event stream closes, and the browser reconnects).
 */
export function resync(debateId: string) {
  const l = registry().get(debateId);
  if (!l || l.active) return;
  l.running.clear();
  l.emitter.emit("resync");
}

/** Whether this process runs the debate (its events are the truth, and it answers others' requests). */
export function runsHere(debateId: string): boolean {
  return registry().get(debateId)?.active ?? false;
}

/**
 * Before a snapshot of a debate that may run in another process: makes this process listen to it
 * and waits until its buffer holds the runner's text so far. Returns the release of that interest.
 * In-process (PGlite, or the debate runs here) it returns at once.
 */
export async function follow(debateId: string, opts: { expectRunner: boolean }): Promise<() => void> {
  const bus = eventBus();
  if (!bus || runsHere(debateId)) return () => {};
  // Counted on the buffer too: it must outlive a last watcher leaving while we wait to subscribe.
  const l = live(debateId);
  l.follows++;
  bus.hold(debateId);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    l.follows--;
    bus.release(debateId);
    forget(debateId);
  };
  try {
    await bus.follow(debateId, opts);
  } catch (e) {
    release();
    throw e;
  }
  return release;
}

/** Drops a debate's buffer once nobody here runs, watches or follows it. */
function forget(debateId: string) {
  const l = registry().get(debateId);
  if (l && l.emitter.listenerCount("event") === 0 && !l.active && l.follows === 0) registry().delete(debateId);
}

/** The turns being generated right now in this process, in seq order, each with its text so far. */
export function liveTurns(debateId: string): LiveTurn[] {
  const running = registry().get(debateId)?.running;
  if (!running) return [];
  return [...running.values()]
    .sort((a, b) => a.turn.seq - b.turn.seq)
    .map((c) => ({ turn: c.turn, text: c.text, ...(c.retry ? { retry: c.retry } : {}) }));
}

/**
 * Subscribes before the caller reads the database, so nothing falls between the snapshot and the
 * live events; the caller drops events for turns the snapshot already holds.
 */
export function subscribe(
  debateId: string,
  listener: (e: DebateEvent) => void,
  opts: { onResync?: () => void } = {},
): () => void {
  const l = live(debateId);
  l.emitter.on("event", listener);
  if (opts.onResync) l.emitter.on("resync", opts.onResync);
  // Listening across processes too, so events of a run that starts elsewhere later reach us.
  const bus = eventBus();
  bus?.hold(debateId);
  return () => {
    l.emitter.off("event", listener);
    if (opts.onResync) l.emitter.off("resync", opts.onResync);
    bus?.release(debateId);
    forget(debateId);
  };
}

export function setRunning(debateId: string, running: boolean) {
  const l = live(debateId);
  if (l.active !== running) {
    // The runner listens to its debate so it hears other processes ask for the text so far.
    if (running) eventBus()?.hold(debateId);
    else {
      eventBus()?.stoppedRunning(debateId);
      eventBus()?.release(debateId);
    }
  }
  l.active = running;
  // Either way this process's buffer starts over: a run beginning here (perhaps taking over from a
  // process whose turn in progress was mirrored here) or ending.
  l.running.clear();
  if (!running) forget(debateId);
}

import type { Client } from "pg";
import { z } from "zod";
import { peekProcessGlobal, setProcessGlobal } from "@/lib/process/globals";
import { processId } from "@/lib/process/identity";
import { encodeMessage, PIECE_BYTES, Reassembler, splitByBytes, wireSchema } from "./event-wire";
import {
  liveTurns,
  receiveRemote,
  receiveSync,
  resync,
  runsHere,
  setEventBus,
  type DebateEvent,
  type EventBus,
  type LiveTurn,
} from "./events";

/**
 * Debate events across processes on PostgreSQL, with LISTEN/NOTIFY: the process running a debate
 * sends its events on the debate's channel; every process watching it listens there and replays
 * them into its own buffer (events.ts), so any app server streams any debate.
 *
 * - One dedicated connection per process (not from the pool: a pooled connection would take its
 *   LISTENs back to the pool), opened on first use, reconnected with backoff; on reconnect every
 *   channel is listened to again and every followed debate resynchronised (text may have been
 *   missed meanwhile).
 * - Deltas are batched per turn for FLUSH_MS (or until a batch is big), each NOTIFY payload under
 *   the 8000-byte limit, each delta carrying its offset in the turn's text, so receivers drop
 *   repeats and notice gaps. Other events flush the debate's pending deltas first: order holds.
 * - Exact start-up snapshots: a process that starts following a running debate asks on the channel
 *   for the text so far (`sync`); the runner answers on the same ordered stream as its deltas, so
 *   text so far + every later delta is the whole turn, with nothing missing or repeated.
 * - Sending and listening share the connection: one ordered stream per process, so a process's
 *   messages on a channel arrive in the order sent (NOTIFY keeps one session's order).
 */

const FLUSH_MS = 25;
/** A delta batch this long (UTF-16 units) is sent at once instead of waiting for the timer. */
const FLUSH_CHARS = 2000;
/** How long a new watcher waits for the runner's text so far before showing what the database has. */
const SYNC_TIMEOUT_MS = 2000;
/** NOTIFYs per statement: one round trip for a flush of many debates. */
const PER_STATEMENT = 64;

const channelOf = (debateId: string) => {
  // Only ids we checked become identifiers: LISTEN cannot take a bound parameter.
  if (!/^[0-9a-f-]{36}$/i.test(debateId)) throw new Error(`not a debate id: ${debateId}`);
  return `cp_debate_${debateId.toLowerCase().replace(/-/g, "")}`;
};

/** Signal channels are named in code, never from input; LISTEN cannot take a bound parameter. */
function checkSignal(channel: string) {
  if (!/^cp_[a-z_]{1,40}$/.test(channel)) throw new Error(`not a signal channel: ${channel}`);
}

const syncSchema = z.object({
  type: z.literal("sync"),
  turns: z.array(
    z.object({
      turn: z.object({
        seq: z.number().int(),
        round: z.number(),
        phase: z.string(),
        role: z.string(),
        kind: z.string(),
        model: z.string(),
      }),
      text: z.string(),
      retry: z.object({ attempt: z.number(), maxAttempts: z.number(), reason: z.string() }).optional(),
    }),
  ),
});
/** Events are this project's own, sent by another of its processes; their shape is checked as far as receivers rely on it. */
const eventSchema = z.union([
  z.object({ type: z.literal("delta"), seq: z.number().int(), text: z.string(), offset: z.number().int().min(0) }),
  z.looseObject({
    type: z.enum([
      "status",
      "turn-start",
      "turn-reset",
      "turn-end",
      "turn-error",
      "note",
      "evidence",
      "verdict",
      "view-extras",
      "intervention",
    ]),
  }),
]);

type Channel = {
  debateId: string;
  refs: number;
  listening?: Promise<void>;
  synced: boolean;
  syncRequested: boolean;
  waiters: Array<() => void>;
};
type Outgoing = { debateId: string; message: unknown };

export type PgBusStats = { sent: number; maxPayloadBytes: number; received: number; gaps: number };

export class PgEventBus implements EventBus {
  readonly origin = processId();
  readonly stats: PgBusStats = { sent: 0, maxPayloadBytes: 0, received: 0, gaps: 0 };
  private client: Client | null = null;
  private connecting: Promise<Client> | null = null;
  private closed = false;
  private backoffMs = 100;
  private channels = new Map<string, Channel>();
  private byName = new Map<string, string>();
  private pending = new Map<string, Map<number, { offset: number; text: string }>>();
  private outbox: Outgoing[] = [];
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> = Promise.resolve();
  private messageKey = 0;
  private reassembler = new Reassembler();
  private signals = new Map<string, Set<() => void>>();

  constructor(private readonly url: string) {}

  /** The listening connection's server process, while connected (for tests that cut it). */
  backendPid(): number | null {
    return (this.client as (Client & { processID?: number }) | null)?.processID ?? null;
  }

  // ---- sending (the process running a debate) ----

  send(debateId: string, event: DebateEvent) {
    if (event.type === "delta") {
      const turns = this.pending.get(debateId) ?? new Map<number, { offset: number; text: string }>();
      this.pending.set(debateId, turns);
      const p = turns.get(event.seq);
      if (p && p.offset + p.text.length === event.offset) p.text += event.text;
      else {
        // Not contiguous (a retry started the text again): the older batch goes first.
        if (p)
          this.outbox.push({ debateId, message: { type: "delta", seq: event.seq, offset: p.offset, text: p.text } });
        turns.set(event.seq, { offset: event.offset ?? 0, text: event.text });
      }
      if ((turns.get(event.seq)?.text.length ?? 0) >= FLUSH_CHARS) this.schedule(0);
      else this.schedule(FLUSH_MS);
      return;
    }
    this.movePending(debateId);
    this.outbox.push({ debateId, message: event });
    this.schedule(0);
  }

  /** A debate's batched deltas join the outbox, split so each payload stays under the limit. */
  private movePending(debateId: string) {
    const turns = this.pending.get(debateId);
    if (!turns) return;
    this.pending.delete(debateId);
    for (const [seq, p] of turns) {
      let offset = p.offset;
      for (const text of splitByBytes(p.text, PIECE_BYTES - 200)) {
        this.outbox.push({ debateId, message: { type: "delta", seq, offset, text } });
        offset += text.length;
      }
    }
  }

  private schedule(ms: number) {
    if (this.timer && ms > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, ms);
  }

  /** Sends everything queued; resolves when PostgreSQL has taken it. */
  flush(): Promise<void> {
    for (const id of [...this.pending.keys()]) this.movePending(id);
    const batch = this.outbox;
    this.outbox = [];
    if (batch.length === 0) return this.sending;
    const payloads: Array<[string, string]> = [];
    for (const o of batch)
      for (const p of encodeMessage(this.origin, ++this.messageKey, o.message))
        payloads.push([channelOf(o.debateId), p]);
    return this.enqueue(payloads);
  }

  /**
   * Every statement on the connection, one after another: the connection carries one ordered
   * stream (NOTIFY order is per session), and pg wants one query at a time on a client.
   */
  private serial(what: string, fn: (client: Client) => Promise<unknown>): Promise<void> {
    this.sending = this.sending.then(async () => {
      try {
        await fn(await this.connect());
      } catch (e) {
        // Lost with the connection: receivers see the gap in offsets and ask again; a reconnect listens again.
        if (!this.closed) console.error(`[debate events] could not ${what}: ${(e as Error).message}`);
      }
    });
    return this.sending;
  }

  private enqueue(payloads: Array<[string, string]>): Promise<void> {
    return this.serial(`send ${payloads.length} notifications`, async (client) => {
      for (let i = 0; i < payloads.length; i += PER_STATEMENT) {
        const part = payloads.slice(i, i + PER_STATEMENT);
        // One statement, one transaction: its notifications are delivered in the order of the
        // select list. A receiver checks offsets anyway and resynchronises on any gap.
        await client.query(
          `select ${part.map((_, j) => `pg_notify($${2 * j + 1}, $${2 * j + 2})`).join(", ")}`,
          part.flat(),
        );
        for (const [, p] of part)
          this.stats.maxPayloadBytes = Math.max(this.stats.maxPayloadBytes, Buffer.byteLength(p));
        this.stats.sent += part.length;
      }
    });
  }

  /** Answers a request for the text so far of the debate's running turns, behind its queued deltas. */
  private answerSync(debateId: string) {
    this.movePending(debateId);
    this.outbox.push({ debateId, message: { type: "sync", turns: liveTurns(debateId) } });
    this.schedule(0);
  }

  // ---- listening ----

  hold(debateId: string) {
    let ch = this.channels.get(debateId);
    if (!ch) {
      ch = { debateId, refs: 0, synced: false, syncRequested: false, waiters: [] };
      this.channels.set(debateId, ch);
      this.byName.set(channelOf(debateId), debateId);
    }
    ch.refs++;
    if (!ch.listening) ch.listening = this.listen(ch);
  }

  release(debateId: string) {
    const ch = this.channels.get(debateId);
    if (!ch || --ch.refs > 0) return;
    this.channels.delete(debateId);
    this.byName.delete(channelOf(debateId));
    for (const w of ch.waiters) w();
    if (this.client && !this.closed)
      void this.serial(`stop listening for debate ${debateId}`, (c) => c.query(`unlisten ${channelOf(debateId)}`));
  }

  private listen(ch: Channel) {
    return this.serial(`listen for debate ${ch.debateId}`, (c) => c.query(`listen ${channelOf(ch.debateId)}`));
  }

  async follow(debateId: string, opts: { expectRunner: boolean }): Promise<void> {
    const ch = this.channels.get(debateId);
    if (!ch) return;
    await ch.listening;
    if (ch.synced) return;
    if (!ch.syncRequested && !opts.expectRunner) {
      // Not running anywhere now: its next run's events arrive from its first one.
      this.markSynced(ch);
      return;
    }
    const done = new Promise<void>((resolve) => ch.waiters.push(resolve));
    this.requestSync(ch);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([done, new Promise<void>((resolve) => (timer = setTimeout(resolve, SYNC_TIMEOUT_MS)))]);
    clearTimeout(timer);
    // Nobody answered (the runner finished or died meanwhile): start from what the database shows;
    // a delta that does not join then triggers a resync.
    if (!ch.synced) this.markSynced(ch);
  }

  stoppedRunning(debateId: string) {
    const ch = this.channels.get(debateId);
    // Nothing runs now, and watchers here saw everything: a next run elsewhere arrives from its start.
    if (ch && !ch.syncRequested) this.markSynced(ch);
  }

  private requestSync(ch: Channel) {
    if (ch.syncRequested) return;
    ch.syncRequested = true;
    this.enqueue([[channelOf(ch.debateId), JSON.stringify({ o: this.origin, q: "sync" })]]);
  }

  private markSynced(ch: Channel) {
    ch.synced = true;
    ch.syncRequested = false;
    const ws = ch.waiters;
    ch.waiters = [];
    for (const w of ws) w();
  }

  private lostSync(ch: Channel) {
    ch.synced = false;
    this.stats.gaps++;
    resync(ch.debateId);
    this.requestSync(ch);
  }

  private onNotification(channel: string, payload: string | undefined) {
    if (this.onSignalNotification(channel, payload)) return;
    const debateId = this.byName.get(channel);
    const ch = debateId ? this.channels.get(debateId) : undefined;
    if (!ch || payload === undefined) return;
    let wire;
    try {
      wire = wireSchema.parse(JSON.parse(payload));
    } catch {
      console.error(`[debate events] unreadable notification on ${channel}`);
      return;
    }
    if (wire.o === this.origin) return;
    this.stats.received++;
    if ("q" in wire) {
      if (runsHere(ch.debateId)) this.answerSync(ch.debateId);
      return;
    }
    const got = this.reassembler.accept(wire);
    if (got === null) return;
    if (got === "lost") {
      if (ch.synced) this.lostSync(ch);
      return;
    }
    const sync = syncSchema.safeParse(got.message);
    if (sync.success) {
      // Another watcher's request answered: a buffer already in step has this text already.
      if (!ch.synced) {
        receiveSync(ch.debateId, sync.data.turns as LiveTurn[]);
        this.markSynced(ch);
      }
      return;
    }
    const parsed = eventSchema.safeParse(got.message);
    if (!parsed.success) {
      console.error(`[debate events] unexpected event on ${channel}: ${parsed.error.message}`);
      return;
    }
    const event = parsed.data as DebateEvent;
    if (!ch.synced) {
      // Waiting for the text so far, which supersedes anything before it; only the end of the run
      // matters now (nothing runs any more, so nothing needs syncing).
      if (event.type === "status" && event.status !== "running") {
        receiveRemote(ch.debateId, event);
        if (ch.syncRequested) this.markSynced(ch);
      }
      return;
    }
    if (receiveRemote(ch.debateId, event) === "gap") this.lostSync(ch);
  }

  // ---- signals: process-wide channels that are not a debate's (e.g. "the model settings changed") ----

  /**
   * Runs `fn` whenever another process signals `channel`, and after a reconnect (a signal may
   * have been missed while the connection was down). Returns the way to stop.
   */
  onSignal(channel: string, fn: () => void): () => void {
    checkSignal(channel);
    let fns = this.signals.get(channel);
    if (!fns) {
      fns = new Set();
      this.signals.set(channel, fns);
      void this.serial(`listen for ${channel}`, (c) => c.query(`listen ${channel}`));
    }
    fns.add(fn);
    return () => {
      fns.delete(fn);
      if (fns.size > 0 || this.signals.get(channel) !== fns) return;
      this.signals.delete(channel);
      if (this.client && !this.closed)
        void this.serial(`stop listening for ${channel}`, (c) => c.query(`unlisten ${channel}`));
    };
  }

  /** Tells every other process listening on `channel`; resolves when PostgreSQL has taken it. */
  signal(channel: string): Promise<void> {
    checkSignal(channel);
    return this.enqueue([[channel, JSON.stringify({ o: this.origin, s: 1 })]]);
  }

  private onSignalNotification(channel: string, payload: string | undefined): boolean {
    const fns = this.signals.get(channel);
    if (!fns) return false;
    let origin: unknown;
    try {
      origin = (JSON.parse(payload ?? "") as { o?: unknown }).o;
    } catch {
      origin = undefined;
    }
    if (origin !== this.origin) for (const fn of [...fns]) fn();
    return true;
  }

  // ---- the connection ----

  private connect(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    if (this.closed) return Promise.reject(new Error("the event bus is closed"));
    this.connecting ??= (async () => {
      const { default: pg } = await import("pg");
      for (;;) {
        const client = new pg.Client({ connectionString: this.url });
        try {
          await client.connect();
        } catch (e) {
          if (this.closed) throw e;
          console.error(
            `[debate events] cannot connect to PostgreSQL: ${(e as Error).message}; retrying in ${this.backoffMs} ms`,
          );
          await new Promise((r) => setTimeout(r, this.backoffMs));
          this.backoffMs = Math.min(this.backoffMs * 2, 5000);
          continue;
        }
        this.backoffMs = 100;
        client.on("notification", (m) => this.onNotification(m.channel, m.payload));
        const lost = (why: string) => {
          if (this.client !== client) return;
          this.client = null;
          client.removeAllListeners("notification");
          client.end().catch(() => undefined);
          if (this.closed) return;
          console.error(`[debate events] connection lost (${why}); reconnecting`);
          this.reconnect();
        };
        client.on("error", (e) => lost(e.message));
        client.on("end", () => lost("closed"));
        this.client = client;
        this.connecting = null;
        return client;
      }
    })();
    return this.connecting;
  }

  /** After a lost connection: listen again, and every debate followed from here starts over from a fresh snapshot. */
  private reconnect() {
    this.reassembler.clear();
    for (const [channel, fns] of this.signals) {
      void this.serial(`listen for ${channel}`, (c) => c.query(`listen ${channel}`)).then(() => {
        for (const fn of [...fns]) fn();
      });
    }
    for (const ch of this.channels.values()) {
      ch.listening = this.listen(ch);
      ch.syncRequested = false;
      if (runsHere(ch.debateId)) continue;
      if (ch.synced) {
        ch.synced = false;
        resync(ch.debateId);
      }
      void ch.listening.then(() => this.channels.get(ch.debateId) === ch && this.requestSync(ch));
    }
  }

  async close() {
    if (this.timer) clearTimeout(this.timer);
    await this.flush().catch(() => undefined);
    await this.sending;
    this.closed = true;
    for (const ch of this.channels.values()) for (const w of ch.waiters) w();
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }
}

/**
 * Carries this process's debate events through PostgreSQL at `url` (idempotent: one bus per
 * process, whichever module copy asks). The connection opens on first use.
 */
export function enableCrossProcessEvents(url: string): PgEventBus {
  const existing = peekProcessGlobal("pg-event-bus");
  if (existing) return existing;
  const bus = new PgEventBus(url);
  setProcessGlobal("pg-event-bus", bus);
  setEventBus(bus);
  return bus;
}

export async function disableCrossProcessEvents() {
  const bus = peekProcessGlobal("pg-event-bus");
  if (!bus) return;
  setProcessGlobal("pg-event-bus", undefined);
  setEventBus(null);
  await bus.close();
}

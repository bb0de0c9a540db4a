import { DEFAULT_METHOD } from "@/lib/debate/methods";
import { spawn } from "node:child_process";
import path from "node:path";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import type { Database } from "@/db/client";
import { createDebateRecord } from "@/db/queries/debates";
import { getDebateStatus } from "@/db/queries/debate-run";
import { parseModelId } from "@/lib/ai/model-id";
import type { ResolvedModel } from "@/lib/ai/registry";
import { promptsHash } from "@/lib/prompts";
import { follow, liveTurns, subscribe, type DebateEvent, type LiveTurn } from "@/lib/debate/events";
import { benchConfig, benchProtocol } from "./default-method";
import { scriptedModel } from "./scripted-model";

/**
 * Debate events between processes, as a test and a benchmark: a child process runs a scripted
 * RADAR debate whose first speech is long (the "long" model), on PostgreSQL, and records when each
 * token was published; this process watches through the cross-process bus. Measuring instrument
 * only: nothing in the app selects these models.
 */

export const LONG_MODEL = "openai:long-speech";
const ROOT = path.resolve(import.meta.dirname, "../..");

/** A model that speaks `chars` characters in tokens of about `tokenChars`, one every `perTokenMs`. */
export function longModel(opts: {
  chars: number;
  tokenChars?: number;
  perTokenMs?: number;
  firstTokenMs?: number;
}): ResolvedModel {
  const size = opts.tokenChars ?? 4;
  const words = "The medal [E1] was auctioned in 2012 — for a children's hospital, not the war of 2022 😀. ";
  let text = "";
  while (text.length < opts.chars) text += words;
  text = text.slice(0, opts.chars);
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += size) {
    // Never between the halves of a surrogate pair, as a provider's tokens never are.
    let end = Math.min(i + size, text.length);
    const c = text.charCodeAt(end - 1);
    if (c >= 0xd800 && c <= 0xdbff) end++;
    chunks.push(text.slice(i, end));
    i = end - size;
  }
  const model = new MockLanguageModelV3({
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: "stream-start" as const, warnings: [] },
          { type: "text-start" as const, id: "t" },
          ...chunks.map((delta) => ({ type: "text-delta" as const, id: "t", delta })),
          { type: "text-end" as const, id: "t" },
          {
            type: "finish" as const,
            finishReason: { unified: "stop" as const, raw: "stop" },
            usage: {
              inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
              outputTokens: { total: chunks.length, text: chunks.length, reasoning: 0 },
            },
          },
        ],
        initialDelayInMs: opts.firstTokenMs ?? 0,
        chunkDelayInMs: opts.perTokenMs ?? 0,
      }),
    }),
  });
  return {
    id: LONG_MODEL,
    ref: parseModelId(LONG_MODEL),
    provider: "openai",
    limitKey: `relay-long-${Math.random()}`,
    model,
    scoring: "none",
  };
}

/** A RADAR debate (expertise, one rebuttal round, early stopping off) whose politician uses the long model. */
export async function createRelayDebate(db: Database): Promise<string> {
  const config = benchConfig({ variant: "expertise", earlyStopping: "off" });
  const models = Object.fromEntries(
    benchProtocol()
      .roles(config)
      .map((r) => [r, r === "politician" ? LONG_MODEL : "openai:gpt-4o-mini"]),
  );
  return createDebateRecord(db, {
    claim: { text: "The boxer sold his medal to help children in the 2022 war." },
    protocol: DEFAULT_METHOD,
    variant: config.variant,
    config,
    models,
    promptsHash: promptsHash(benchProtocol().templates(config)),
    evidenceMode: "gold",
    evidence: [
      { rank: 1, text: "The boxer auctioned his Olympic medal in 2012 to fund a children's hospital.", source: "gold" },
      { rank: 2, text: "In 2022 the war displaced millions of children.", source: "gold" },
    ],
  });
}

const now = () => performance.timeOrigin + performance.now();
/** One delta as seen by a process: turn, offset, length, wall-clock ms. */
export type DeltaTime = [seq: number, offset: number, length: number, at: number];

/**
 * The child's side (scripts/event-relay-child.mjs): opens the database named by DATABASE_URL the
 * way the app does (so the bus is on), runs RELAY_DEBATE_ID, and prints one JSON line at the end
 * with the time each delta was published here.
 */
export async function runRelayChild() {
  // A process of its own: the same process-wide services as the app's and the CLI's (the bus).
  (await import("@/lib/process/services")).installProcessServices();
  const { getDb, closeDb } = await import("@/db/client");
  const { runDebate } = await import("@/lib/debate/runner");
  const id = process.env.RELAY_DEBATE_ID!;
  const { db } = await getDb();
  const published: DeltaTime[] = [];
  const unsubscribe = subscribe(id, (e) => {
    if (e.type === "delta") published.push([e.seq, e.offset ?? 0, e.text.length, now()]);
  });
  const long = longModel({
    chars: Number(process.env.RELAY_CHARS ?? 20_000),
    perTokenMs: Number(process.env.RELAY_PER_TOKEN_MS ?? 1),
    tokenChars: Number(process.env.RELAY_TOKEN_CHARS ?? 4),
  });
  const scripted = scriptedModel("openai:gpt-4o-mini", { delayMs: Number(process.env.RELAY_PER_TOKEN_MS ?? 1) });
  const outcome = await runDebate(db, id, { resolve: (m) => (m === LONG_MODEL ? long : scripted.resolved) });
  unsubscribe();
  await closeDb();
  process.stdout.write(`${JSON.stringify({ event: "done", outcome, published })}\n`);
}

export type RelayWatch = {
  /** Every event this process's subscriber received, in order. */
  events: DebateEvent[];
  received: DeltaTime[];
  /** A second watcher that joined mid-turn: its snapshot of running turns, then its events. */
  late?: { live: LiveTurn[]; events: DebateEvent[] };
  child: RelayReport;
};

/**
 * This process's side: subscribes to the debate through the bus (the debate is not running yet, so
 * everything arrives from its first event), starts the child, and, once `joinAfterChars` of the
 * first speech have arrived, joins a second watcher the way the event stream does (follow, then
 * snapshot and subscribe in one tick). Resolves when the child has finished and reported.
 */
export async function watchRelay(
  db: Database,
  url: string,
  debateId: string,
  opts: { joinAfterChars?: number; chars?: number; perTokenMs?: number; tokenChars?: number } = {},
): Promise<RelayWatch> {
  const events: DebateEvent[] = [];
  const received: DeltaTime[] = [];
  let late: RelayWatch["late"];
  let lateUnsub = () => {};
  let joining = false;
  const release = await follow(debateId, { expectRunner: false });
  const ended = new Promise<void>((resolve) => {
    const unsubscribe = subscribe(debateId, (e) => {
      events.push(e);
      if (e.type === "delta") {
        received.push([e.seq, e.offset ?? -1, e.text.length, now()]);
        const seen = received.filter((d) => d[0] === e.seq).reduce((a, d) => a + d[2], 0);
        if (opts.joinAfterChars !== undefined && !joining && seen >= opts.joinAfterChars) {
          joining = true;
          void (async () => {
            const status = await getDebateStatus(db, debateId);
            const rel = await follow(debateId, { expectRunner: status?.status === "running" });
            const lateEvents: DebateEvent[] = [];
            const un = subscribe(debateId, (x) => lateEvents.push(x));
            late = { live: liveTurns(debateId), events: lateEvents };
            lateUnsub = () => {
              un();
              rel();
            };
          })();
        }
      }
      if (e.type === "status" && e.status !== "running") {
        unsubscribe();
        resolve();
      }
    });
  });
  const report = await spawnRelayChild(url, debateId, opts).done;
  // The child flushed its last events before exiting; they may still be on the way here.
  await Promise.race([ended, new Promise((r) => setTimeout(r, 10_000))]);
  lateUnsub();
  release();
  return { events, received, late, child: report };
}

export type RelayReport = { outcome: { status: string }; published: DeltaTime[] };

/** Starts the child that runs the debate; `done` resolves with its report once it has exited. */
export function spawnRelayChild(
  url: string,
  debateId: string,
  opts: { chars?: number; perTokenMs?: number; tokenChars?: number } = {},
): { done: Promise<RelayReport>; kill: () => void } {
  const child = spawn(process.execPath, [path.join(ROOT, "scripts/event-relay-child.mjs")], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      DATABASE_URL: url,
      RELAY_DEBATE_ID: debateId,
      RELAY_CHARS: String(opts.chars ?? 20_000),
      RELAY_PER_TOKEN_MS: String(opts.perTokenMs ?? 1),
      RELAY_TOKEN_CHARS: String(opts.tokenChars ?? 4),
    } as NodeJS.ProcessEnv,
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (err += d));
  const done = new Promise<RelayReport>((resolve, reject) =>
    child.on("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith('{"event":"done"'));
      if (code !== 0 || !line) reject(new Error(`the relay child exited ${code}: ${out}\n${err}`));
      else resolve(JSON.parse(line) as RelayReport);
    }),
  );
  return { done, kill: () => child.exitCode === null && child.kill("SIGKILL") };
}

/** For each token published in the child, how long until the piece holding it arrived here (ms). */
export function relayLatencies(published: DeltaTime[], received: DeltaTime[]): number[] {
  const out: number[] = [];
  let j = 0;
  for (const [seq, offset, , at] of published) {
    // Both lists are in order per turn; search forward from the last match.
    let k = j;
    while (
      k < received.length &&
      !(received[k]![0] === seq && received[k]![1] <= offset && offset < received[k]![1] + received[k]![2])
    )
      k++;
    if (k === received.length) continue;
    j = k;
    out.push(received[k]![3] - at);
  }
  return out;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};

/**
 * `node scripts/bench-cross-process-events.mjs`: model token (published in the runner's process)
 * to event received by a subscriber in another process, over PostgreSQL at DATABASE_URL.
 */
export async function benchRelay(
  opts: { runs?: number; chars?: number; perTokenMs?: number; tokenChars?: number } = {},
) {
  (await import("@/lib/process/services")).installProcessServices();
  const { getDb, closeDb } = await import("@/db/client");
  const url = process.env.DATABASE_URL;
  if (!url)
    throw new Error("Set DATABASE_URL to a PostgreSQL database: the benchmark measures the cross-process path.");
  const { db } = await getDb();
  const all: number[] = [];
  let tokens = 0;
  for (let i = 0; i < (opts.runs ?? 3); i++) {
    const id = await createRelayDebate(db);
    const w = await watchRelay(db, url, id, {
      chars: opts.chars ?? 4000,
      perTokenMs: opts.perTokenMs ?? 2,
      tokenChars: opts.tokenChars ?? 4,
    });
    if (w.child.outcome.status !== "completed") throw new Error(`debate ${id} ended ${w.child.outcome.status}`);
    const lat = relayLatencies(w.child.published, w.received);
    tokens += w.child.published.length;
    all.push(...lat);
  }
  await closeDb();
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    runs: opts.runs ?? 3,
    tokens,
    measured: all.length,
    cross_process_token_to_subscriber_ms_p50: round(pct(all, 50)),
    cross_process_token_to_subscriber_ms_p95: round(pct(all, 95)),
    max_ms: round(Math.max(...all)),
  };
}

import type { EventEmitter } from "node:events";
import type { MiniLmEngine } from "@/lib/embeddings/minilm/engines";
import type { MiniLmEngineStatus } from "@/lib/embeddings/registry";
import type { ProviderSlots } from "@/lib/ai/concurrency";
import type { IngestProcessState } from "@/lib/corpus/jobs";
import type { AppQueue } from "@/lib/debate/queue";
import type { EventBus, Live } from "@/lib/debate/events";
import type { PgEventBus } from "@/lib/debate/pg-bus";
import type { RunnerState } from "@/lib/debate/runner";
import type { ResolverFactory } from "@/lib/eval/executor";
import type { AppWebhookWorker } from "@/lib/webhooks/queue";
import type { LimitFunction } from "p-limit";
import type { ModelOverlay } from "@/lib/config";
import type { LocalSetupProcess } from "@/lib/ai/local-model-setup";
import type { SessionLeaders } from "@/lib/live/leaders";

/**
 * Every process-wide singleton of Counterpoint, in one list. Next.js evaluates a module once per
 * bundle (route handlers, server actions, instrumentation) and again on dev reloads, so module
 * state would give one process several copies: a cancel from a server action would miss the run
 * an upload route started, and one process would get several ids. What must be one per process
 * therefore lives on globalThis, under a `Symbol.for` key, and only through this file.
 *
 * The database layer keeps its two (the open database and its hooks, db/process-global.ts) under
 * the same naming, because db/ may not import lib/.
 */
export interface ProcessGlobals {
  /** This process's identity (lib/process/identity.ts). */
  "process-id": string;
  /** Whether the composition root (lib/process/services.ts) has wired this process. */
  "process-services": true;
  /** Debate runs of this process: their abort switches and the shared heartbeat (lib/debate/runner.ts). */
  "debate-runner": RunnerState;
  /** The debates queue connection and the app's in-process worker (lib/debate/queue.ts). */
  "debate-queue": AppQueue;
  /** Live state of debates watched or run here: emitters and turns in progress (lib/debate/events.ts). */
  "debate-live": Map<string, Live>;
  /** The cross-process half of debate events, when one is set (lib/debate/events.ts). */
  "debate-event-bus": EventBus | null;
  /** The PostgreSQL bus carrying debate events between processes (lib/debate/pg-bus.ts). */
  "pg-event-bus": PgEventBus;
  /** Ingest and re-embed jobs running here, so a cancel reaches them at once (lib/corpus/jobs.ts). */
  ingest: IngestProcessState;
  /** Provider slots shared across processes through PostgreSQL, when turned on (lib/ai/concurrency.ts). */
  "provider-slots": ProviderSlots;
  /** The app server's webhook sender (lib/webhooks/queue.ts). */
  "webhook-worker": AppWebhookWorker;
  /** Live desk boards watched here: one emitter, an event per session with changed cards (lib/live/bus.ts). */
  "live-boards": EventEmitter;
  /** Live sessions whose lines this process is working on: one chain each, so a session's lines take turns (lib/live/service.ts). */
  "live-chains": Map<string, Promise<unknown>>;
  /** Live sessions' latest first cards, kept between pushes and capped (lib/live/leaders.ts). */
  "live-leaders": Map<string, SessionLeaders>;
  /** Share links revoked here, so this process's streams end at once (lib/auth/revocations.ts). */
  "share-revocations": EventEmitter;
  /** Scripted models for workers, installed only by scripts/scripted-worker.mjs (lib/eval/model-override.ts). */
  "eval.resolver-factory": ResolverFactory;
  /** The model settings saved on /admin, keys decrypted, as getConfig lays them over the environment (lib/ai/model-settings.ts). */
  "model-overlay": ModelOverlay;
  /** Which engine runs each MiniLM model once loaded (lib/embeddings/registry.ts). */
  minilm: Map<string, MiniLmEngineStatus>;
  /** MiniLM engines loading or loaded, one per model (lib/embeddings/registry.ts). */
  "minilm.loads": Map<string, Promise<MiniLmEngine>>;
  /** Parsing children running at once, so parallel uploads cannot multiply their memory caps (lib/untrusted/bounded.ts). */
  "parse-slots": LimitFunction;
  /** The local model download started from /welcome and its progress (lib/ai/local-model-setup.ts). */
  "local-model-setup": LocalSetupProcess;
}

type Key = keyof ProcessGlobals;
const slot = (key: Key) => Symbol.for(`counterpoint.${key}`);
const store = () => globalThis as unknown as Record<symbol, unknown>;

/** The process's one `key`, made by `init` on first use. */
export function processGlobal<K extends Key>(key: K, init: () => ProcessGlobals[K]): ProcessGlobals[K] {
  const g = store();
  const s = slot(key);
  if (g[s] === undefined) g[s] = init();
  return g[s] as ProcessGlobals[K];
}

/** The process's `key` if something set it; never creates it. */
export function peekProcessGlobal<K extends Key>(key: K): ProcessGlobals[K] | undefined {
  return store()[slot(key)] as ProcessGlobals[K] | undefined;
}

/** Replaces (or, with undefined, removes) the process's `key`. */
export function setProcessGlobal<K extends Key>(key: K, value: ProcessGlobals[K] | undefined): void {
  if (value === undefined) delete store()[slot(key)];
  else store()[slot(key)] = value;
}

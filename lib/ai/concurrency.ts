import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import pLimit, { type LimitFunction } from "p-limit";
import type { Database } from "@/db/client";
import { peekProcessGlobal, setProcessGlobal } from "@/lib/process/globals";
import { processId } from "@/lib/process/identity";
import { keepLease } from "@/lib/process/lease";

/**
 * One queue per provider (per server for openai-compatible), shared by every debate in the
 * process, so twenty debates against one rate-limited API don't all fire at once.
 *
 * On PostgreSQL the limit is global: every process (app servers, workers) that called
 * `useGlobalProviderSlots` takes a row of `provider_slots` for its limit key before a call and
 * gives it back after, so PROVIDER_CONCURRENCY=openai=4 means four calls at once across the whole
 * deployment, not four per process. The in-process queue stays in front of it, so a process never
 * waits on the database for more slots than the limit allows anyway. On PGlite (one process)
 * the in-process queue is the whole limit, as before.
 */
const limits = new Map<string, LimitFunction>();

export function limiterFor(key: string, concurrency: number): LimitFunction {
  let limit = limits.get(key);
  if (!limit) {
    limit = pLimit(concurrency);
    limits.set(key, limit);
  } else if (limit.concurrency !== concurrency) {
    // Changing the limit in place keeps the calls already queued.
    limit.concurrency = concurrency;
  }
  return limit;
}

/** How long a slot stays taken without renewal: a killed process's slots come free after this. */
export const SLOT_LEASE_MS = 30_000;
/** Between two tries for a slot when all are taken. Polling, not LISTEN: a model call lasts seconds, a poll costs one indexed UPDATE. */
const POLL_MS = 100;

export type ProviderSlots = { db: Database; holder: string; seq: number; seeded: Set<string>; leaseMs: number };

/**
 * Makes provider limits hold across processes through this PostgreSQL database. Called when
 * the database opens by every process on PostgreSQL (the composition root,
 * lib/process/services.ts), never on PGlite, which one process only opens.
 */
export function useGlobalProviderSlots(db: Database, opts: { leaseMs?: number } = {}) {
  setProcessGlobal("provider-slots", {
    db,
    holder: processId(),
    seq: 0,
    seeded: new Set(),
    leaseMs: opts.leaseMs ?? SLOT_LEASE_MS,
  });
}

/** Back to per-process limits (tests that turned global slots on for one database). */
export function stopUsingGlobalProviderSlots() {
  setProcessGlobal("provider-slots", undefined);
}

export function globalProviderSlotsInUse(): boolean {
  return Boolean(peekProcessGlobal("provider-slots"));
}

async function acquireSlot(
  g: ProviderSlots,
  key: string,
  concurrency: number,
): Promise<{ slot: number; holder: string }> {
  const seedKey = `${key}\u0000${concurrency}`;
  if (!g.seeded.has(seedKey)) {
    // The rows exist once per key and slot; a lowered limit leaves the higher slots unused (slot < n below).
    await g.db.execute(
      sql`insert into provider_slots (key, slot) select ${key}, g from generate_series(0, ${concurrency - 1}::int) g on conflict do nothing`,
    );
    g.seeded.add(seedKey);
  }
  const holder = `${g.holder}/${++g.seq}`;
  for (;;) {
    // SKIP LOCKED: two processes racing for the last free slot never wait on each other's row lock; one wins, the other polls again.
    const res = await g.db.execute<{ slot: number }>(sql`
      update provider_slots set holder = ${holder}, leased_until = now() + make_interval(secs => ${g.leaseMs / 1000}::float8)
      where key = ${key} and slot = (
        select slot from provider_slots
        where key = ${key} and slot < ${concurrency}::int and (holder is null or leased_until < now())
        order by slot limit 1 for update skip locked)
      returning slot`);
    const row = res.rows[0];
    if (row) return { slot: Number(row.slot), holder };
    await sleep(POLL_MS / 2 + Math.random() * POLL_MS);
  }
}

/**
 * Runs `fn` within the provider limit for `key`: the process's queue, then (on PostgreSQL) a
 * global slot held, and renewed, for as long as `fn` runs.
 */
export function runLimited<T>(key: string, concurrency: number, fn: () => Promise<T>): Promise<T> {
  const local = limiterFor(key, concurrency);
  return local(async () => {
    const g = peekProcessGlobal("provider-slots");
    if (!g) return fn();
    const { slot, holder } = await acquireSlot(g, key, concurrency);
    // A slot is a lease with its expiry stored (leased_until), not a row of work: renewed the same way.
    const stopRenewing = keepLease({
      everyMs: Math.max(1000, Math.floor(g.leaseMs / 3)),
      renew: async () => {
        await g.db.execute(
          sql`update provider_slots set leased_until = now() + make_interval(secs => ${g.leaseMs / 1000}::float8) where key = ${key} and slot = ${slot}::int and holder = ${holder}`,
        );
      },
    });
    try {
      return await fn();
    } finally {
      stopRenewing();
      await g.db
        .execute(
          sql`update provider_slots set holder = null, leased_until = null where key = ${key} and slot = ${slot}::int and holder = ${holder}`,
        )
        .catch((e) => console.error(`[providers] could not give back slot ${slot} of ${key}: ${(e as Error).message}`));
    }
  });
}

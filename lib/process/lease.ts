import { holderIsGone, heldHere, processId } from "./identity";

/*
 * Leased work, the process half (the database half, which columns hold what and the claim,
 * renew and reclaim statements, is db/queries/leases.ts). A process that holds work renews its
 * lease while the work runs and stops renewing when it ends; a process that finds work held by
 * another asks whether that holder is an orphan: silent for longer than the lease, or a process
 * on this host that no longer exists (known at once, without waiting out the lease).
 */

/**
 * Renews one lease every `everyMs` until the returned function is called (the work finished,
 * failed or was aborted). `renew` resolves false when the lease is no longer held; `onLost` is then
 * told once and the renewing stops. A failed renewal is only logged: the next one may succeed, and
 * the lease is long enough for several tries.
 */
export function keepLease(opts: {
  everyMs: number;
  renew: () => Promise<boolean | undefined | void>;
  onLost?: () => void;
  label?: string;
}): () => void {
  let stopped = false;
  const timer = setInterval(async () => {
    try {
      const held = await opts.renew();
      if (held === false && !stopped) {
        stop();
        opts.onLost?.();
      }
    } catch (e) {
      if (opts.label) console.error(`[${opts.label}] renewing the lease failed: ${(e as Error).message}`);
    }
  }, opts.everyMs);
  // A lease alone must not keep a finishing process alive.
  timer.unref();
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  return stop;
}

/**
 * Many leases of one kind renewed together: one statement per beat for all of this process's
 * holds (a worker may run many debates at once). A hold is added when its work starts and removed
 * when it ends; the timer runs only while something is held.
 */
export class LeaseKeeper {
  private readonly holds = new Map<string, { holder: string; onLost: () => void }>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly opts: {
      everyMs: () => number;
      /** Renews every hold given; resolves to the ids no longer held. */
      renew: (holds: Array<{ id: string; holder: string }>) => Promise<string[]>;
      label: string;
    },
  ) {}

  hold(id: string, holder: string, onLost: () => void): void {
    this.holds.set(id, { holder, onLost });
    if (this.timer) return;
    this.timer = setInterval(() => void this.beat(), this.opts.everyMs());
    this.timer.unref();
  }

  /** Stops renewing `id`, only if `holder` still holds it here (a later run may have its own hold). */
  drop(id: string, holder: string): void {
    if (this.holds.get(id)?.holder === holder) this.holds.delete(id);
  }

  private async beat() {
    const holds = [...this.holds.entries()].map(([id, h]) => ({ id, holder: h.holder }));
    if (holds.length === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    try {
      for (const id of await this.opts.renew(holds)) {
        const h = this.holds.get(id);
        if (!h) continue;
        this.holds.delete(id);
        h.onLost();
      }
    } catch (e) {
      console.error(`[${this.opts.label}] heartbeat failed: ${(e as Error).message}`);
    }
  }
}

/** A held row as the orphan test reads it. */
export type HeldRow = { holder: string | null; renewedAt: Date | null };

/** Whether held work has a live holder: renewed within `leaseMs`, by a process not known dead. */
export function leaseIsLive(row: HeldRow, leaseMs: number, self: string = processId()): boolean {
  const fresh = !!row.renewedAt && row.renewedAt.getTime() >= Date.now() - leaseMs;
  return fresh && !holderIsGone(row.holder, self);
}

/** Whether held work belongs to nobody alive: another process's, and that one silent or gone. */
export function isOrphan(row: HeldRow, leaseMs: number, self: string = processId()): boolean {
  return !heldHere(row.holder, self) && !leaseIsLive(row, leaseMs, self);
}

/** Of the given holders, the ones that are dead processes on this host. */
export function goneHolders(holders: string[], self: string = processId()): string[] {
  return holders.filter((h) => holderIsGone(h, self));
}

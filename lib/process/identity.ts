import { randomUUID } from "node:crypto";
import os from "node:os";
import { processGlobal } from "./globals";

/**
 * Who holds a piece of leased work: `host:pid:random`. Every lease this process takes (debates,
 * ingest jobs, evaluation items, webhook deliveries, provider slots) and its event bus carry this
 * one id, so a holder column read anywhere names a process, and the same test tells whether it
 * is alive. The random part tells this process from an earlier one that had the same pid (a
 * container restarts with the same pid). A lease holder may add `/<suffix>` to tell its own runs
 * apart (a debate's run token); the part before the slash is still the process.
 */
export function processId(): string {
  return processGlobal("process-id", () => `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`);
}

const ID = /^(.*):(\d+):([0-9a-z]+)$/i;

/** The process part of a holder id (without a run's `/<suffix>`). */
function processOf(holder: string): string {
  const slash = holder.indexOf("/");
  return slash < 0 ? holder : holder.slice(0, slash);
}

/** Whether `holder` (a process id, or one with a `/<suffix>`) is this process. */
export function heldHere(holder: string | null | undefined, self: string = processId()): boolean {
  return !!holder && processOf(holder) === self;
}

/*
 * Whether the process behind a holder id is gone. A heartbeat only ages, so judging by it alone
 * made a restart wait a whole lease before it would take back work the old process left running.
 * On the same host the answer is immediate: the pid no longer exists, or it is this very process
 * under an earlier id. Another host's process, or an id of another shape, is never judged gone
 * here: its lease decides.
 */
export function holderIsGone(holder: string | null | undefined, self: string = processId()): boolean {
  if (!holder || heldHere(holder, self)) return false;
  const m = ID.exec(processOf(holder));
  if (!m || m[1] !== os.hostname()) return false;
  const pid = Number(m[2]);
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

import os from "node:os";

/*
 * Whether the process behind a runner id (`host:pid:random`) is gone. A heartbeat only ages, so
 * judging by it alone made a restart wait a minute before it would resume a job the old process
 * left "running". On the same host the answer is immediate: the pid no longer exists, or it is
 * this very process under an earlier id (a container restarts with the same pid).
 */
export function runnerIsGone(runnerId: string | null | undefined, self: string): boolean {
  if (!runnerId || runnerId === self) return false;
  const m = /^(.*):(\d+):([0-9a-f]+)$/i.exec(runnerId);
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

/**
 * Runs `handOver` when the process is told to stop (SIGTERM, SIGINT), before the handlers already
 * registered for those signals. Next.js registers one that exits at once; an app server's debates
 * worker must first hand its debates back. The earlier handlers run once `handOver` ends (or
 * fails); with none, the process exits with the signal's code. A second signal while handing over
 * goes straight to the earlier handlers (or the default: exit at once).
 */
export function handOverBeforeExit(handOver: () => Promise<void>, log: (line: string) => void = console.log) {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    const theirs = process.listeners(signal) as Array<(s: NodeJS.Signals) => void>;
    process.removeAllListeners(signal);
    process.once(signal, () => {
      for (const l of theirs) process.once(signal, l);
      let exited = false;
      const exit = () => {
        if (exited) return;
        exited = true;
        for (const l of theirs) {
          process.off(signal, l);
          l(signal);
        }
        if (theirs.length === 0) process.exit(signal === "SIGTERM" ? 143 : 130);
      };
      log(`${signal}: handing this process's debates back to the queue first`);
      handOver().then(exit, exit);
    });
  }
}

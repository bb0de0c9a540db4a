import type { Command } from "commander";
import { getDb } from "@/db/client";
import { DEFAULT_LEASE_MS, WORKER_ID } from "@/lib/eval/executor";
import { openExecutor } from "@/lib/eval/executors";
import { installedResolverFactory } from "@/lib/eval/model-override";
import { dim, yellow } from "../output";
import { positiveInt } from "./search";

export function register(program: Command) {
  program
    .command("worker")
    .description("Run evaluation claims from the queue until stopped. On PostgreSQL, start any number, on any machines with the same DATABASE_URL; on the embedded database it works the runs in this process.")
    .option("--concurrency <k>", "claims this worker runs at once (model calls also queue per provider: PROVIDER_CONCURRENCY)", positiveInt, 4)
    .option("--lease-seconds <n>", "a claim whose worker has not been heard from for this long is taken over by another", positiveInt, DEFAULT_LEASE_MS / 1000)
    .option("--json", "log as JSON lines")
    .action(async (opts: { concurrency: number; leaseSeconds: number; json?: boolean }) => {
      const h = await getDb();
      const executor = await openExecutor(h);
      const controller = new AbortController();
      const say = (event: string, data: Record<string, unknown> = {}) =>
        process.stdout.write(opts.json ? `${JSON.stringify({ event, worker: WORKER_ID, ...data })}\n` : `${dim(`[${new Date().toISOString()}] ${event}${Object.keys(data).length ? ` ${JSON.stringify(data)}` : ""}`)}\n`);
      const stop = () => {
        process.stderr.write(yellow("Stopping: claims in hand finish, no new ones are taken. Again to quit at once (another worker takes them over).\n"));
        process.once("SIGINT", () => process.exit(130));
        process.once("SIGTERM", () => process.exit(143));
        controller.abort();
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      const leaseMs = opts.leaseSeconds * 1000;
      say("ready", { executor: executor.kind, backend: h.backend, concurrency: opts.concurrency, lease_seconds: opts.leaseSeconds });
      try {
        await executor.work({ concurrency: opts.concurrency, signal: controller.signal, leaseMs, heartbeatMs: Math.max(250, Math.floor(leaseMs / 5)), resolverFor: installedResolverFactory(), log: (l) => say("log", { message: l }) });
      } finally {
        await executor.close();
        say("stopped");
      }
    });
}

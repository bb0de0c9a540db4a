import http from "node:http";
import type { Command } from "commander";
import { getDb } from "@/db/client";
import { DEFAULT_LEASE_MS, WORKER_ID } from "@/lib/eval/executor";
import { openExecutor } from "@/lib/eval/executors";
import { installedResolverFactory } from "@/lib/eval/model-override";
import { DebateQueue } from "@/lib/debate/queue";
import { openWebhookWorker } from "@/lib/webhooks/queue";
import { getConfig } from "@/lib/config";
import { dim, yellow } from "../output";
import { positiveInt } from "./search";

export function register(program: Command) {
  program
    .command("worker")
    .description(
      "Run queued work until stopped: evaluation claims, webhook deliveries, and on PostgreSQL debates started from the form, Resume or `debate --queue`. On PostgreSQL, start any number, on any machines with the same DATABASE_URL; on the embedded database it works the evaluation runs in this process.",
    )
    .option(
      "--concurrency <k>",
      "evaluation claims this worker runs at once (model calls also queue per provider: PROVIDER_CONCURRENCY, global on PostgreSQL)",
      positiveInt,
      4,
    )
    .option(
      "--debates-concurrency <k>",
      "queued debates this worker runs at once, besides evaluation claims (PostgreSQL only; 0: none)",
      nonNegativeInt,
      4,
    )
    .option(
      "--lease-seconds <n>",
      "an evaluation claim whose worker has not been heard from for this long is taken over by another (debates: DEBATE_LEASE_SECONDS, the same in every process)",
      positiveInt,
      DEFAULT_LEASE_MS / 1000,
    )
    .option(
      "--health-port <port>",
      "answer GET /health on this port (200 while working, 503 once stopping) for a process supervisor or load balancer",
      positiveInt,
    )
    .option("--json", "log as JSON lines")
    .action(
      async (opts: {
        concurrency: number;
        debatesConcurrency: number;
        leaseSeconds: number;
        healthPort?: number;
        json?: boolean;
      }) => {
        const h = await getDb();
        const executor = await openExecutor(h);
        const controller = new AbortController();
        const say = (event: string, data: Record<string, unknown> = {}) =>
          process.stdout.write(
            opts.json
              ? `${JSON.stringify({ event, worker: WORKER_ID, ...data })}\n`
              : `${dim(`[${new Date().toISOString()}] ${event}${Object.keys(data).length ? ` ${JSON.stringify(data)}` : ""}`)}\n`,
          );
        const stop = () => {
          process.stderr.write(
            yellow(
              "Stopping: no new work is taken; debates in hand go back to the queue, evaluation claims in hand finish. Again to quit at once (another worker takes them over).\n",
            ),
          );
          process.once("SIGINT", () => process.exit(130));
          process.once("SIGTERM", () => process.exit(143));
          controller.abort();
        };
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
        const leaseMs = opts.leaseSeconds * 1000;
        const database = getConfig().database;
        // Debates need the queue, which needs PostgreSQL; on PGlite the app runs its own debates.
        const debates =
          database.backend === "postgres" && opts.debatesConcurrency > 0 ? new DebateQueue(h.db, database.url) : null;
        // Webhook deliveries go out from every worker (pg-boss on PostgreSQL, this process on PGlite).
        const webhooks = openWebhookWorker(h);

        let health: http.Server | null = null;
        if (opts.healthPort) {
          health = http.createServer((req, res) => {
            if (req.url !== "/health") return void res.writeHead(404).end();
            const stopping = controller.signal.aborted;
            res.writeHead(stopping ? 503 : 200, { "content-type": "application/json", "cache-control": "no-store" });
            res.end(
              JSON.stringify({
                status: stopping ? "stopping" : "ok",
                worker: WORKER_ID,
                backend: h.backend,
                executor: executor.kind,
                debates: debates?.status() ?? null,
                concurrency: opts.concurrency,
              }),
            );
          });
          await new Promise<void>((resolve, reject) => health!.once("error", reject).listen(opts.healthPort, resolve));
        }

        say("ready", {
          executor: executor.kind,
          backend: h.backend,
          concurrency: opts.concurrency,
          debates_concurrency: debates ? opts.debatesConcurrency : 0,
          lease_seconds: opts.leaseSeconds,
          ...(debates ? { debate_lease_seconds: getConfig().debateLeaseMs / 1000 } : {}),
          ...(opts.healthPort ? { health_port: opts.healthPort } : {}),
        });
        try {
          const resolverFor = installedResolverFactory();
          await Promise.all([
            executor.work({
              concurrency: opts.concurrency,
              signal: controller.signal,
              leaseMs,
              heartbeatMs: Math.max(250, Math.floor(leaseMs / 5)),
              resolverFor,
              log: (l) => say("log", { message: l }),
            }),
            debates?.work({
              concurrency: opts.debatesConcurrency,
              signal: controller.signal,
              // Scripted models (scripts/scripted-worker.mjs) for debates too; the registry otherwise.
              resolverFor: resolverFor
                ? (debateId) => resolverFor({ itemId: debateId, claimId: debateId, position: 0 })
                : undefined,
              log: (l) => say("log", { message: l }),
            }),
            webhooks.work({ signal: controller.signal, log: (l) => say("webhooks", { message: l }) }),
          ]);
        } finally {
          await Promise.all([executor.close(), debates?.close(), webhooks.close()]);
          health?.close();
          say("stopped");
        }
      },
    );
}

function nonNegativeInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`expected a whole number of 0 or more, got "${v}"`);
  return n;
}

import type { DbHandle } from "@/db/client";
import type { EvalExecutor } from "./executor";
import { openExecutor } from "./executors";
import { installedResolverFactory } from "./model-override";
import { createEvalRun, type CreateRunInput, type CreatedRun, type ExecutorKind } from "./run";

/**
 * The one way a run becomes workable, for the CLI and the web alike: its pending items (all, or
 * the ones given) are offered to the executor its database uses (pg-boss jobs on PostgreSQL, the
 * eval_items rows themselves on the embedded database). A path that skipped this left a web-made
 * run pending forever on PostgreSQL, with workers running and no job to take.
 */
export async function queueRun(
  h: DbHandle,
  runId: string,
  opts: { itemIds?: string[]; executor?: ExecutorKind } = {},
): Promise<{ executor: EvalExecutor; queued: number }> {
  const executor = await openExecutor(h, opts.executor);
  try {
    const queued = await executor.enqueue(runId, opts.itemIds);
    return { executor, queued };
  } catch (e) {
    await executor.close();
    throw e;
  }
}

/** Creates a run and queues it: what `npx counterpoint eval` and the /eval/new form both do. */
export async function createAndQueueRun(
  h: DbHandle,
  input: Omit<CreateRunInput, "executor"> & { executor?: ExecutorKind },
  opts: Parameters<typeof createEvalRun>[2] = {},
): Promise<{ created: CreatedRun; executor: EvalExecutor; queued: number }> {
  const executor = input.executor ?? (h.backend === "postgres" ? "pg-boss" : "in-process");
  const created = await createEvalRun(h.db, { ...input, executor }, opts);
  try {
    const { executor: open, queued } = await queueRun(h, created.runId, { executor });
    return { created, executor: open, queued };
  } catch (e) {
    // The run and its debates are stored; only the queueing failed, and it can be repeated.
    throw new Error(
      `Run ${created.runId} was created but could not be queued: ${(e as Error).message}. Queue it again with: npx counterpoint eval resume ${created.runId}`,
    );
  }
}

/**
 * For the server (actions): on PostgreSQL the queued jobs belong to `counterpoint worker`
 * processes, so the connection closes; the embedded database can be opened by this process only,
 * so this process works the run, in the background, until nothing is left.
 */
export async function hostQueuedRun(executor: EvalExecutor, runId: string): Promise<void> {
  if (executor.kind !== "in-process") return executor.close();
  void executor
    .work({ concurrency: 2, runId, untilRunDone: true, resolverFor: installedResolverFactory() })
    .catch((e) => console.error(`[eval ${runId}] ${(e as Error).message}`))
    .finally(() => executor.close());
}

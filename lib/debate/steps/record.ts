import type { RecordResult, RecordSpec } from "../types";
import { checkNotStopped, writeStep, type RunScope } from "./scope";

/**
 * The writer of computed steps (ctx.record): a value the protocol computed without a model, stored
 * as JSON so a resumed run gets it back instead of computing it again.
 */
export async function record<T>(scope: RunScope, spec: RecordSpec<T>): Promise<RecordResult<T>> {
  checkNotStopped(scope);
  const done = scope.journal.lookup(spec, "analysis");
  if (done) return { seq: done.seq, value: (done.metadata as { value: T } | null)?.value as T, replayed: true };
  const n = scope.journal.next();
  const startedAt = new Date();
  const t0 = performance.now();
  const step = { round: spec.round, phase: spec.phase, role: spec.role, kind: "analysis" as const, model: null };
  let value: T;
  try {
    value = await spec.compute();
  } catch (e) {
    await writeStep(scope, n, step, {
      status: "failed",
      content: "",
      latencyMs: performance.now() - t0,
      startedAt,
      finishedAt: new Date(),
      metadata: { ...spec.metadata },
      error: `computing ${spec.phase} failed: ${(e as Error).message}`,
    });
    throw e;
  }
  // Stored as JSON: what the protocol gets back on resume is what JSON keeps of the value.
  const content = spec.content ? spec.content(value) : JSON.stringify(value);
  await writeStep(scope, n, step, {
    status: "completed",
    content,
    latencyMs: performance.now() - t0,
    startedAt,
    finishedAt: new Date(),
    metadata: { ...spec.metadata, value: value as unknown },
    error: null,
  });
  return { seq: n, value, replayed: false };
}

import { resolveEmbedder, type Embedder } from "@/lib/embeddings/registry";
import type { EmbedResult, EmbedSpec } from "../types";
import { checkNotStopped, DebateCancelled, writeStep, type RunScope } from "./scope";

/**
 * The writer of embedding steps (ctx.embed): texts encoded with the encoder frozen into the debate
 * when it was created; the vectors are stored, so a resumed run needs no encoder at all.
 */
export async function embed(scope: RunScope, spec: EmbedSpec): Promise<EmbedResult> {
  checkNotStopped(scope);
  const done = scope.journal.lookup(spec, "analysis");
  if (done) {
    const m = done.metadata as { vectors?: number[][]; embedder?: string } | null;
    if (!m?.vectors || !m.embedder)
      throw new Error(`the stored step ${done.seq} (${spec.role}, ${spec.phase}) holds no vectors to replay`);
    return { seq: done.seq, vectors: m.vectors, embedder: m.embedder, replayed: true };
  }
  const { opts, protocol } = scope;
  const n = scope.journal.next();
  const startedAt = new Date();
  const t0 = performance.now();
  const frozen = (scope.debate.config as { embedder?: unknown }).embedder;
  const step = { round: spec.round, phase: spec.phase, role: spec.role, kind: "analysis" as const };
  let embedder: Embedder;
  let vectors: number[][];
  try {
    if (!opts.embedder && typeof frozen !== "string")
      throw new Error(
        `protocol "${protocol.name}" must declare \`embeds: true\` so an encoder is frozen into the debate when it is created`,
      );
    embedder = opts.embedder ?? resolveEmbedder(frozen as string);
    vectors = [];
    for (let i = 0; i < spec.texts.length; i += embedder.batchSize)
      vectors.push(...(await embedder.embed(spec.texts.slice(i, i + embedder.batchSize), scope.signal)));
  } catch (e) {
    if (scope.signal.aborted) throw new DebateCancelled();
    const model = opts.embedder?.id ?? (typeof frozen === "string" ? frozen : null);
    await writeStep(
      scope,
      n,
      { ...step, model },
      {
        status: "failed",
        content: "",
        latencyMs: performance.now() - t0,
        startedAt,
        finishedAt: new Date(),
        metadata: { ...spec.metadata, texts: spec.texts },
        error: `embedding failed: ${(e as Error).message}`,
      },
    );
    throw e;
  }
  const content = `Embedded ${spec.texts.length} text${spec.texts.length === 1 ? "" : "s"} with ${embedder.id}`;
  await writeStep(
    scope,
    n,
    { ...step, model: embedder.id },
    {
      status: "completed",
      content,
      latencyMs: performance.now() - t0,
      startedAt,
      finishedAt: new Date(),
      metadata: { ...spec.metadata, embedder: embedder.id, texts: spec.texts, vectors },
      error: null,
    },
  );
  return { seq: n, vectors, embedder: embedder.id, replayed: false };
}

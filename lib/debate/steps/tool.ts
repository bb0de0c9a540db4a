import { getConfig } from "@/lib/config";
import {
  callSearch,
  providerFor,
  searchToolSnapshotSchema,
  ToolCallFailed,
  toolRecordFromTurn,
  toolTurnFields,
  type SucceededToolCall,
} from "@/lib/tools";
import type { DebateEvidence, ToolResult, ToolSpec } from "../types";
import { resultAsEvidence } from "../kit";
import { addEvidence, checkNotStopped, DebateCancelled, writeStep, type RunScope } from "./scope";

/**
 * The writer of tool steps (ctx.tool): a search with the settings frozen into the debate when it
 * was created, never today's; its results are stored with the step and become evidence, so a
 * resumed run replays them and queries nothing.
 */

function searchTool(scope: RunScope, name: string) {
  const frozenTools = ((scope.debate.config as { tools?: Record<string, unknown> }).tools ?? {}) as Record<
    string,
    unknown
  >;
  const parsed = searchToolSnapshotSchema.safeParse(frozenTools[name]);
  if (!parsed.success) {
    throw new Error(
      `this debate has no tool "${name}" in its stored set-up (config.tools.${name}); protocol "${scope.protocol.name}" must declare it in \`tools\` so one is chosen when the debate is created`,
    );
  }
  const search = scope.opts.search;
  return {
    snapshot: parsed.data,
    provider: () =>
      providerFor(parsed.data, search?.config ?? getConfig().search, {
        db: scope.db,
        allow: getConfig().fetch.allow,
        ...search?.deps,
      }),
  };
}

/** A search's results as pool passages (origin `tool:<provider>`), added once per tool turn. */
async function toolEvidence(
  scope: RunScope,
  spec: ToolSpec,
  n: number,
  record: SucceededToolCall,
): Promise<DebateEvidence[]> {
  if (spec.addEvidence === false || record.results.length === 0) return [];
  const who = spec.addEvidence?.visibleTo;
  const visibleTo = who === "all" ? undefined : who && who.length ? who : [spec.role];
  return addEvidence(scope, {
    origin: `tool:${record.provider}`,
    addedSeq: n,
    visibleTo,
    items: record.results.map((r) =>
      resultAsEvidence(r, {
        provider: record.provider,
        live: record.live,
        label: record.label,
        query: record.request.query,
        resultRank: r.rank,
      }),
    ),
  });
}

export async function tool(scope: RunScope, spec: ToolSpec): Promise<ToolResult> {
  const { snapshot, provider } = searchTool(scope, spec.tool ?? "search");
  checkNotStopped(scope);
  const done = scope.journal.lookup(spec, "tool");
  if (done) {
    // Replayed from the stored results; a record for another request means history changed, and is refused.
    const record = toolRecordFromTurn(done, { provider: snapshot.provider, request: spec.request });
    if (record.status !== "ok") throw new Error(`the stored search of turn ${done.seq} failed and cannot be replayed`);
    return { seq: done.seq, record, evidence: await toolEvidence(scope, spec, done.seq, record), replayed: true };
  }
  const n = scope.journal.next();
  const step = { round: spec.round, phase: spec.phase, role: spec.role, kind: "tool" as const };
  let record: SucceededToolCall;
  try {
    record = await callSearch(provider(), spec.request, { signal: scope.signal });
  } catch (e) {
    if (scope.signal.aborted) throw new DebateCancelled();
    // Stored as a failed turn and the debate fails naming it (writeStep throws): never an empty result list.
    if (e instanceof ToolCallFailed) {
      const f = toolTurnFields(e.record);
      await writeStep(
        scope,
        n,
        { ...step, model: snapshot.provider },
        {
          status: "failed",
          content: f.content ?? "",
          latencyMs: f.latencyMs ?? 0,
          startedAt: f.startedAt!,
          finishedAt: f.finishedAt!,
          metadata: { ...spec.metadata, ...(f.metadata as Record<string, unknown>) },
          error: f.error ?? e.message,
        },
      );
    }
    // The provider could not even be built (a key gone since the debate started): a failed turn that says so.
    const now = new Date();
    await writeStep(
      scope,
      n,
      { ...step, model: snapshot.provider },
      {
        status: "failed",
        content: `Search (${snapshot.label}): "${spec.request.query}"`,
        latencyMs: 0,
        startedAt: now,
        finishedAt: now,
        metadata: { ...spec.metadata, toolRequest: spec.request },
        error: (e as Error).message,
      },
    );
    throw e;
  }
  const f = toolTurnFields(record);
  await writeStep(
    scope,
    n,
    { ...step, model: record.provider },
    {
      status: "completed",
      content: f.content ?? "",
      latencyMs: f.latencyMs ?? 0,
      startedAt: f.startedAt!,
      finishedAt: f.finishedAt!,
      metadata: { ...spec.metadata, ...(f.metadata as Record<string, unknown>) },
      error: null,
    },
  );
  return { seq: n, record, evidence: await toolEvidence(scope, spec, n, record), replayed: false };
}

import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { anyUuid } from "@/db/bulk";
import { evidenceRows } from "./debates";
import { evalItemLease, leaseLapsed, otherHolders, reclaimOrphans, renewLeases } from "./leases";
import type { Database } from "@/db/client";
import type { MatchDecision } from "../types";
import * as s from "@/db/schema";
import { notesOf } from "./debate-notes";
import { cursorAt, keysetBefore, type Cursor } from "./keyset";
import type { ClaimRecord, DebateEvidence } from "../types";

/** Everything evaluation runs read and write: runs, their items as a work queue, usage and scores. */

export type EvalItemRow = typeof s.evalItems.$inferSelect;
export type EvalRunRow = typeof s.evalRuns.$inferSelect;

/** Runs whose items may be taken by a worker. */
export const ACTIVE_RUN_STATUSES = ["queued", "running"] as const;

/**
 * A benchmark claim is stored once per dataset (the claims table is unique on dataset + id), so
 * runs over the same dataset share claim rows and can be compared claim by claim.
 */
export async function upsertClaim(db: Database, dataset: string, rec: ClaimRecord): Promise<string> {
  const native = typeof rec.metadata?.native_label === "string" ? rec.metadata.native_label : (rec.label ?? null);
  const values = {
    text: rec.claim,
    claimDate: rec.date ? new Date(rec.date.length === 10 ? `${rec.date}T00:00:00Z` : rec.date) : null,
    // A news article's address (politifact-news, gossipcop) is where the claim appeared: the debate page links it.
    appearanceUrl: typeof rec.metadata?.url === "string" && rec.metadata.url ? rec.metadata.url : null,
    dataset,
    datasetClaimId: rec.id,
    goldLabel: rec.label ?? null,
    nativeLabel: native,
    goldEvidence: rec.gold_evidence ?? null,
    metadata: {
      ...(rec.metadata ?? {}),
      ...(rec.gold_evidence_ids ? { gold_evidence_ids: rec.gold_evidence_ids } : {}),
    },
  };
  const [row] = await db
    .insert(s.claims)
    .values(values)
    .onConflictDoUpdate({ target: [s.claims.dataset, s.claims.datasetClaimId], set: values })
    .returning({ id: s.claims.id });
  return row!.id;
}

export type NewEvalDebate = {
  runId: string;
  claimId: string;
  position: number;
  protocol: string;
  variant: string | null;
  config: Record<string, unknown>;
  models: Record<string, string>;
  thresholds: Record<string, unknown> | null;
  promptsHash: string;
  evidenceMode: "retrieved" | "gold" | "supplied";
  corpusId: string | null;
  evidence: DebateEvidence[];
  /** Claim matching's outcome for this claim, when the run asked for matching. */
  matchDecision?: MatchDecision | null;
};

/** A queued debate over an existing claim, its frozen evidence and its run item, together. */
export async function insertEvalItem(db: Database, d: NewEvalDebate): Promise<{ itemId: string; debateId: string }> {
  return db.transaction(async (tx) => {
    const [debate] = await tx
      .insert(s.debates)
      .values({
        claimId: d.claimId,
        protocol: d.protocol,
        variant: d.variant,
        config: d.config,
        models: d.models,
        thresholds: d.thresholds,
        promptsHash: d.promptsHash,
        evidenceMode: d.evidenceMode,
        corpusId: d.corpusId,
        evalRunId: d.runId,
        matchDecision: d.matchDecision ?? null,
      })
      .returning({ id: s.debates.id });
    if (d.evidence.length) await tx.insert(s.debateEvidence).values(evidenceRows(debate!.id, d.evidence));
    const [item] = await tx
      .insert(s.evalItems)
      .values({ runId: d.runId, claimId: d.claimId, debateId: debate!.id, position: d.position })
      .returning({ id: s.evalItems.id });
    return { itemId: item!.id, debateId: debate!.id };
  });
}

// --- the queue -------------------------------------------------------------------------------

type RawItem = {
  id: string;
  run_id: string;
  claim_id: string;
  debate_id: string | null;
  status: string;
  attempts: number;
  worker_id: string | null;
  position: number;
};

/**
 * Takes one item for `workerId`: a pending one, or one whose worker stopped beating for longer
 * than the lease (it died). Row locks with SKIP LOCKED keep two workers from taking the same row.
 */
export async function leaseItem(
  db: Database,
  opts: { workerId: string; leaseMs: number; itemId?: string; runId?: string },
): Promise<RawItem | null> {
  const res = await db.execute<RawItem>(sql`
    update eval_items set status = 'running', worker_id = ${opts.workerId}, heartbeat_at = now(),
      started_at = coalesce(started_at, now()), attempts = attempts + 1, error = null
    where id = (
      select eval_items.id from eval_items join eval_runs r on r.id = eval_items.run_id
      where r.status in ('queued', 'running')
        and (eval_items.status = 'pending' or ${leaseLapsed(evalItemLease, opts.leaseMs)})
        ${opts.itemId ? sql`and eval_items.id = ${opts.itemId}` : sql``}
        ${opts.runId ? sql`and eval_items.run_id = ${opts.runId}` : sql``}
      order by eval_items.position
      for update of eval_items skip locked
      limit 1
    )
    returning id, run_id, claim_id, debate_id, status, attempts, worker_id, position`);
  const row = res.rows[0];
  if (!row) return null;
  await db
    .update(s.evalRuns)
    .set({ status: "running", startedAt: sql`coalesce(${s.evalRuns.startedAt}, now())` })
    .where(and(eq(s.evalRuns.id, row.run_id), eq(s.evalRuns.status, "queued")));
  return row;
}

/** Renews the worker's leases on `ids`; returns the ones it no longer holds. */
export async function heartbeatItems(db: Database, ids: string[], workerId: string): Promise<string[]> {
  return renewLeases(
    db,
    evalItemLease,
    ids.map((id) => ({ id, holder: workerId })),
  );
}

/** Only the lease holder may finish an item: a worker whose lease was taken over writes nothing. */
export async function finishItem(
  db: Database,
  itemId: string,
  workerId: string,
  status: "done" | "failed",
  error?: string | null,
): Promise<boolean> {
  const rows = await db
    .update(s.evalItems)
    .set({ status, error: error ?? null, finishedAt: new Date(), heartbeatAt: null })
    .where(and(eq(s.evalItems.id, itemId), eq(s.evalItems.workerId, workerId), eq(s.evalItems.status, "running")))
    .returning({ id: s.evalItems.id });
  return rows.length === 1;
}

/** Hands a leased item back untouched (its run was paused before it started). */
export async function releaseItem(db: Database, itemId: string, workerId: string) {
  await db
    .update(s.evalItems)
    .set({
      status: "pending",
      workerId: null,
      heartbeatAt: null,
      attempts: sql`greatest(${s.evalItems.attempts} - 1, 0)`,
    })
    .where(and(eq(s.evalItems.id, itemId), eq(s.evalItems.workerId, workerId), eq(s.evalItems.status, "running")));
}

/** Items whose worker died go back to pending, so a queue can offer them again. */
export async function releaseStaleItems(
  db: Database,
  leaseMs: number,
  goneWorkers: string[] = [],
): Promise<Array<{ id: string; run_id: string }>> {
  const ids = await reclaimOrphans(db, evalItemLease, {
    leaseMs,
    goneHolders: goneWorkers,
    where: inArray(s.evalItems.runId, activeRunIds(db)),
    set: { status: "pending", workerId: null },
  });
  if (!ids.length) return [];
  return (
    db
      .select({ id: s.evalItems.id, run_id: s.evalItems.runId })
      .from(s.evalItems)
      // A crashed worker of a big run can leave thousands: one array parameter (db/bulk.ts).
      .where(anyUuid(s.evalItems.id, ids))
  );
}

/** Workers of running items of active runs, other than `self`: the sweep asks which of them are dead. */
export async function otherItemWorkers(db: Database, self: string): Promise<string[]> {
  return otherHolders(db, evalItemLease, self, inArray(s.evalItems.runId, activeRunIds(db)));
}

const activeRunIds = (db: Database) =>
  db
    .select({ id: s.evalRuns.id })
    .from(s.evalRuns)
    .where(inArray(s.evalRuns.status, ["queued", "running"]));

/** On the embedded database this process is the only one: any running item is an orphan. */
export async function releaseAllRunning(db: Database, exceptWorker: string) {
  await reclaimOrphans(db, evalItemLease, {
    self: exceptWorker,
    everyOther: true,
    leaseMs: 0,
    set: { status: "pending", workerId: null },
  });
}

export async function pendingItemIds(db: Database, runId: string): Promise<string[]> {
  const rows = await db
    .select({ id: s.evalItems.id })
    .from(s.evalItems)
    .where(and(eq(s.evalItems.runId, runId), eq(s.evalItems.status, "pending")))
    .orderBy(asc(s.evalItems.position));
  return rows.map((r) => r.id);
}

/** Completes the run once nothing is pending or running; true for the one caller that did it. */
export async function completeRunIfDone(db: Database, runId: string): Promise<boolean> {
  const res = await db.execute<{ id: string }>(sql`
    update eval_runs set status = 'completed', finished_at = now(), status_reason = null
    where id = ${runId} and status in ('queued', 'running')
      and not exists (select 1 from eval_items where run_id = ${runId} and status in ('pending', 'running'))
    returning id`);
  return res.rows.length === 1;
}

export async function setRunStatus(
  db: Database,
  runId: string,
  status: "paused" | "running" | "cancelled" | "queued",
  reason: string | null,
  onlyFrom?: string[],
) {
  const rows = await db
    .update(s.evalRuns)
    .set({ status, statusReason: reason, finishedAt: status === "cancelled" ? new Date() : null })
    .where(and(eq(s.evalRuns.id, runId), onlyFrom ? inArray(s.evalRuns.status, onlyFrom) : undefined))
    .returning({ id: s.evalRuns.id });
  return rows.length === 1;
}

/** Failed items (all, or the ones given) back to pending; the run becomes workable again. */
export async function resetFailedItems(db: Database, runId: string, itemIds?: string[]): Promise<string[]> {
  const rows = await db
    .update(s.evalItems)
    .set({ status: "pending", error: null, workerId: null, finishedAt: null })
    .where(
      and(
        eq(s.evalItems.runId, runId),
        eq(s.evalItems.status, "failed"),
        itemIds?.length ? inArray(s.evalItems.id, itemIds) : undefined,
      ),
    )
    .returning({ id: s.evalItems.id });
  if (rows.length) await setRunStatus(db, runId, "running", null, ["completed", "paused", "queued", "running"]);
  return rows.map((r) => r.id);
}

// --- reading -------------------------------------------------------------------------------

export async function getRun(db: Database, runId: string) {
  const [row] = await db.select().from(s.evalRuns).where(eq(s.evalRuns.id, runId));
  return row ?? null;
}

/** The runs of one `eval --repeats` group (config.repeat.group), in repeat order. */
export async function repeatGroupRuns(db: Database, group: string) {
  return db
    .select()
    .from(s.evalRuns)
    .where(sql`${s.evalRuns.config}->'repeat'->>'group' = ${group}`)
    .orderBy(sql`(${s.evalRuns.config}->'repeat'->>'index')::int`);
}

export async function listRuns(db: Database, limit = 100, before?: Cursor) {
  return db
    .select({ run: s.evalRuns, at: cursorAt(s.evalRuns.createdAt) })
    .from(s.evalRuns)
    .where(keysetBefore(s.evalRuns.createdAt, s.evalRuns.id, before))
    .orderBy(desc(s.evalRuns.createdAt), desc(s.evalRuns.id))
    .limit(limit)
    .then((rows) => rows.map((r) => Object.assign(r.run, { at: r.at })));
}

/** Tokens, money and calls spent by a run's debates so far (every recorded call, retries included). */
export async function runUsage(db: Database, runId: string) {
  const res = await db.execute<{
    calls: number;
    prompt_tokens: number;
    completion_tokens: number;
    cost_usd: number | null;
    unpriced_calls: number;
  }>(sql`
    select count(*)::int as calls,
      coalesce(sum(c.prompt_tokens), 0)::int as prompt_tokens,
      coalesce(sum(c.completion_tokens), 0)::int as completion_tokens,
      sum(c.cost_usd)::float8 as cost_usd,
      (count(*) filter (where c.cost_usd is null and c.error is null))::int as unpriced_calls
    from llm_calls c join debates d on d.id = c.debate_id
    where d.eval_run_id = ${runId}`);
  const r = res.rows[0]!;
  return {
    calls: Number(r.calls),
    promptTokens: Number(r.prompt_tokens),
    completionTokens: Number(r.completion_tokens),
    costUsd: r.cost_usd === null ? null : Number(r.cost_usd),
    unpricedCalls: Number(r.unpriced_calls),
  };
}

export async function itemCounts(db: Database, runId: string) {
  const rows = await db
    .select({ status: s.evalItems.status, n: sql<number>`count(*)::int` })
    .from(s.evalItems)
    .where(eq(s.evalItems.runId, runId))
    .groupBy(s.evalItems.status);
  const out = { total: 0, pending: 0, running: 0, done: 0, failed: 0 };
  for (const r of rows) {
    out.total += Number(r.n);
    if (r.status in out) out[r.status as "pending"] += Number(r.n);
  }
  return out;
}

/** One row per item with what a report needs: claim, gold, verdict, usage and timing. */
export async function runItemRows(db: Database, runId: string) {
  const res = await db.execute<{
    item_id: string;
    position: number;
    status: string;
    error: string | null;
    attempts: number;
    claim_id: string;
    dataset_claim_id: string | null;
    claim: string;
    gold: string | null;
    native_label: string | null;
    debate_id: string | null;
    debate_status: string | null;
    debate_error: { message: string } | null;
    label: string | null;
    stopped_early: boolean | null;
    stop_after: string | null;
    rounds: number | null;
    started_at: string | null;
    finished_at: string | null;
    calls: number;
    prompt_tokens: number;
    completion_tokens: number;
    cost_usd: number | null;
    unpriced_calls: number;
  }>(sql`
    select i.id as item_id, i.position, i.status, i.error, i.attempts, c.id as claim_id, c.dataset_claim_id, c.text as claim,
      c.gold_label as gold, c.native_label, d.id as debate_id, d.status as debate_status, d.error as debate_error,
      v.label, v.stopped_early, v.stop_after, v.rounds_completed as rounds, d.started_at, d.finished_at,
      coalesce(u.calls, 0)::int as calls, coalesce(u.prompt_tokens, 0)::int as prompt_tokens,
      coalesce(u.completion_tokens, 0)::int as completion_tokens, u.cost_usd, coalesce(u.unpriced_calls, 0)::int as unpriced_calls
    from eval_items i
    join claims c on c.id = i.claim_id
    left join debates d on d.id = i.debate_id
    left join verdicts v on v.debate_id = d.id and v.is_final
    left join lateral (
      select count(*) as calls, sum(prompt_tokens) as prompt_tokens, sum(completion_tokens) as completion_tokens,
        sum(cost_usd)::float8 as cost_usd, count(*) filter (where cost_usd is null and error is null) as unpriced_calls
      from llm_calls where debate_id = d.id
    ) u on true
    where i.run_id = ${runId}
    order by i.position`);
  return res.rows.map((r) => ({
    ...r,
    position: Number(r.position),
    calls: Number(r.calls),
    prompt_tokens: Number(r.prompt_tokens),
    completion_tokens: Number(r.completion_tokens),
    cost_usd: r.cost_usd === null ? null : Number(r.cost_usd),
    unpriced_calls: Number(r.unpriced_calls),
  }));
}
export type RunItemRow = Awaited<ReturnType<typeof runItemRows>>[number];

/** The notes of one kind (RADAR's checkpoints) of every finished debate of a run, with the tokens calibration needs. */
export async function runNoteRows(db: Database, runId: string, kind: string) {
  const debates = await db
    .select({
      debateId: s.debates.id,
      config: s.debates.config,
      gold: s.claims.goldLabel,
      claimId: s.claims.datasetClaimId,
      claimUuid: s.claims.id,
      label: s.verdicts.label,
    })
    .from(s.evalItems)
    .innerJoin(s.debates, eq(s.debates.id, s.evalItems.debateId))
    .innerJoin(s.claims, eq(s.claims.id, s.evalItems.claimId))
    .leftJoin(s.verdicts, and(eq(s.verdicts.debateId, s.debates.id), eq(s.verdicts.isFinal, true)))
    .where(and(eq(s.evalItems.runId, runId), eq(s.evalItems.status, "done")))
    .orderBy(asc(s.evalItems.position));
  const ids = debates.map((d) => d.debateId);
  const [notes, turns] = ids.length
    ? await Promise.all([
        // A run holds thousands of debates: one array parameter, not one per id (db/bulk.ts).
        notesOf(db, ids, kind),
        db
          .select({
            debateId: s.turns.debateId,
            role: s.turns.role,
            phase: s.turns.phase,
            promptTokens: s.turns.promptTokens,
            completionTokens: s.turns.completionTokens,
          })
          .from(s.turns)
          .where(anyUuid(s.turns.debateId, ids)),
      ])
    : [[], []];
  return { debates, notes, turns };
}

export async function saveModelThresholds(
  db: Database,
  t: { model: string; tauS: number; tauV: number; metric: string; score: number | null; evalRunId: string | null },
) {
  const values = { ...t, createdAt: new Date() };
  await db
    .insert(s.modelThresholds)
    .values(values)
    .onConflictDoUpdate({ target: s.modelThresholds.model, set: values });
}

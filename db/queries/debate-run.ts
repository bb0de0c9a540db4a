import { and, asc, eq, inArray, isNull, lt, notInArray, or, sql } from "drizzle-orm";
import { anyUuid } from "@/db/bulk";
import { debateLease, leaseOrphaned, otherHolders, reclaimOrphans, renewLeases } from "./leases";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import type { DebateEvidence, VerdictRecord } from "../types";

/*
 * A debate's run as the database keeps it: loading what a run needs, claiming the debate and
 * holding it (the lease, db/queries/leases.ts), handing it back or requeueing it, sweeping runs
 * whose process died, and the run's end with its verdict. The steps a run writes on the way are
 * in ./debate-steps.ts; the engine reaches both through its run store (lib/debate/run-store.ts).
 */

/**
 * What a run needs to start: the debate with its claim, its evidence pool and its turns. Not its
 * checkpoints or verdict, which the runner never reads: three statements instead of loadDebate's
 * five, at the start of every run (the embedded database runs them one after another).
 */
export async function loadForRun(db: Database, id: string) {
  const p = runQueries(db);
  // All three at once: on PostgreSQL they run side by side on the pool (one round trip's wait
  // instead of two); the embedded database runs them in turn either way.
  const [[row], evidence, turns] = await Promise.all([
    p.debate.execute({ id }),
    p.evidence.execute({ id }),
    p.turns.execute({ id }),
  ]);
  if (!row) return null;
  return { ...row, evidence, turns };
}

/** loadForRun's statements (loadDebate reads with them too), built once per database handle (on PostgreSQL, prepared once per connection). */
function prepareRunQueries(db: Database) {
  const id = sql.placeholder("id");
  return {
    debate: db
      .select({ debate: s.debates, claim: s.claims })
      .from(s.debates)
      .innerJoin(s.claims, eq(s.claims.id, s.debates.claimId))
      .where(eq(s.debates.id, id))
      .prepare("counterpoint_run_debate"),
    evidence: db
      .select()
      .from(s.debateEvidence)
      .where(eq(s.debateEvidence.debateId, id))
      .orderBy(asc(s.debateEvidence.rank))
      .prepare("counterpoint_run_evidence"),
    turns: db
      .select()
      .from(s.turns)
      .where(eq(s.turns.debateId, id))
      .orderBy(asc(s.turns.seq))
      .prepare("counterpoint_run_turns"),
  };
}
const preparedRunQueries = new WeakMap<Database, ReturnType<typeof prepareRunQueries>>();
export function runQueries(db: Database) {
  let p = preparedRunQueries.get(db);
  if (!p) preparedRunQueries.set(db, (p = prepareRunQueries(db)));
  return p;
}

export function evidenceFromRows(rows: Array<typeof s.debateEvidence.$inferSelect>): DebateEvidence[] {
  return rows.map((r) => ({
    rank: r.rank,
    text: r.text,
    source: r.source as DebateEvidence["source"],
    title: r.title ?? undefined,
    url: r.url ?? undefined,
    passageId: r.passageId ?? undefined,
    externalId: r.externalId ?? undefined,
    score: r.score ?? undefined,
    denseRank: r.denseRank ?? undefined,
    lexicalRank: r.lexicalRank ?? undefined,
    publishedAt: r.publishedAt ?? undefined,
    origin: r.origin,
    addedSeq: r.addedSeq ?? undefined,
    visibleTo: r.visibleTo ?? undefined,
    metadata: r.metadata ?? undefined,
  }));
}

/**
 * How long a run's claim on a debate lasts without a heartbeat. The runner beats every few
 * seconds; a claim older than this belongs to a process that died, and may be taken over.
 */
export const CLAIM_LEASE_MS = 15_000;

/**
 * The one way a debate starts running, for every path (the form, Resume, evaluation workers, the
 * CLI): a single conditional UPDATE, so of two claimants racing for one debate exactly one wins.
 * A debate may be claimed when nobody runs it (queued, interrupted, failed, stopped) or when the
 * run holding it stopped beating. `runToken` identifies this one run, not just the process.
 */
export async function claimForRun(
  db: Database,
  id: string,
  runToken: string,
  leaseMs: number = CLAIM_LEASE_MS,
  /** Which idle states may be claimed; queue workers take only `queued` (a debate stopped while queued stays stopped). */
  from: s.DebateStatus[] = ["queued", "interrupted", "failed", "cancelled"],
  /** Runners known to be dead processes (lib/process/identity.ts): their debates are taken without waiting out the lease. */
  goneRunners: string[] = [],
): Promise<boolean> {
  const rows = await db
    .update(s.debates)
    .set({
      status: "running",
      runnerId: runToken,
      heartbeatAt: sql`now()`,
      startedAt: sql`coalesce(${s.debates.startedAt}, now())`,
      error: null,
      finishedAt: null,
    })
    .where(
      and(eq(s.debates.id, id), or(inArray(s.debates.status, from), leaseOrphaned(debateLease, leaseMs, goneRunners))),
    )
    .returning({ id: s.debates.id });
  return rows.length === 1;
}

/** A run's own end: written only while that run still holds the debate, so a run that lost its claim cannot overwrite the one that took over. */
export async function finishClaimedDebate(
  db: Database,
  id: string,
  runToken: string,
  status: "completed" | "failed" | "cancelled",
  error?: { message: string; turnSeq?: number; retryable?: boolean },
) {
  await db
    .update(s.debates)
    .set({ status, error: error ?? null, finishedAt: new Date() })
    .where(and(eq(s.debates.id, id), eq(s.debates.runnerId, runToken), eq(s.debates.status, "running")));
}

export async function finishDebate(
  db: Database,
  id: string,
  status: "completed" | "failed" | "cancelled" | "interrupted",
  error?: { message: string; turnSeq?: number; retryable?: boolean },
) {
  await db
    .update(s.debates)
    .set({ status, error: error ?? null, finishedAt: status === "interrupted" ? null : new Date() })
    .where(eq(s.debates.id, id));
}

/**
 * A run hands its debate back (a worker stopping gracefully): queued again with no runner, so the
 * next worker claims it at once instead of waiting for the lease to run out. Only while this run
 * holds it. The turn that was streaming is left as it is; the next run drops it (it is not finished).
 */
export async function releaseClaim(db: Database, id: string, runToken: string): Promise<boolean> {
  const rows = await db
    .update(s.debates)
    .set({ status: "queued", runnerId: null, heartbeatAt: null })
    .where(and(eq(s.debates.id, id), eq(s.debates.runnerId, runToken), eq(s.debates.status, "running")))
    .returning({ id: s.debates.id });
  return rows.length === 1;
}

/** Resume through the queue: an idle debate becomes `queued` for a worker; false when it is not idle (running, or finished). */
export async function requeueDebate(db: Database, id: string): Promise<boolean> {
  const rows = await db
    .update(s.debates)
    .set({ status: "queued", runnerId: null, heartbeatAt: null, error: null, finishedAt: null })
    .where(and(eq(s.debates.id, id), inArray(s.debates.status, ["interrupted", "failed", "cancelled"])))
    .returning({ id: s.debates.id });
  return rows.length === 1;
}

/**
 * Debates a queue worker should offer again: running with a lapsed lease (their process died),
 * or queued for longer than `queuedForMs` (their job was lost). Evaluation debates are left to
 * their items' own leases (lib/eval/executor.ts).
 */
export async function debatesToRequeue(
  db: Database,
  opts: { leaseMs: number; queuedForMs: number; goneRunners?: string[] },
): Promise<string[]> {
  const rows = await db
    .select({ id: s.debates.id })
    .from(s.debates)
    .where(
      and(
        isNull(s.debates.evalRunId),
        or(
          leaseOrphaned(debateLease, opts.leaseMs, opts.goneRunners),
          and(
            eq(s.debates.status, "queued"),
            lt(s.debates.createdAt, sql`now() - make_interval(secs => ${opts.queuedForMs / 1000}::float8)`),
          ),
        ),
      ),
    )
    .limit(500);
  return rows.map((r) => r.id);
}

/** Renews each run's claim; returns the debates whose claim this run no longer holds (stopped, or taken over). */
export async function heartbeat(db: Database, runs: Array<{ id: string; token: string }>): Promise<string[]> {
  return renewLeases(
    db,
    debateLease,
    runs.map((r) => ({ id: r.id, holder: r.token })),
  );
}

/** Who runs debates besides this process (`self`): the orphan sweep asks which of them are dead. */
export async function otherDebateRunners(db: Database, self: string): Promise<string[]> {
  return otherHolders(db, debateLease, self);
}

/**
 * Debates left `running` by a process that died. On the embedded database only one process can
 * be open, so every running debate is an orphan at start-up; on PostgreSQL other processes may be
 * alive, so only debates whose heartbeat stopped, or whose runner is a dead process on this host
 * (`goneRunners`), are. `exceptRunner` is this process's id: its runs' tokens start with it.
 */
export async function markOrphansInterrupted(
  db: Database,
  opts: { allRunning: boolean; staleAfterMs: number; exceptRunner: string; goneRunners?: string[]; message: string },
) {
  const ids = await reclaimOrphans(db, debateLease, {
    self: opts.exceptRunner,
    everyOther: opts.allRunning,
    leaseMs: opts.staleAfterMs,
    goneHolders: opts.goneRunners,
    set: { status: "interrupted", error: { message: opts.message } },
  });
  const rows = ids.map((id) => ({ id }));
  // Their unfinished turns are not evidence of anything; finished ones, and what stopped turns wrote, stay.
  if (rows.length)
    await db.delete(s.turns).where(
      and(
        // Every debate of a dead runner: one array parameter, however many (db/bulk.ts).
        anyUuid(
          s.turns.debateId,
          rows.map((r) => r.id),
        ),
        notInArray(s.turns.status, KEPT_TURN_STATUSES),
      ),
    );
  return rows.map((r) => r.id);
}

export async function getDebateStatus(db: Database, id: string) {
  const [row] = await db
    .select({ status: s.debates.status, runnerId: s.debates.runnerId })
    .from(s.debates)
    .where(eq(s.debates.id, id));
  return row ?? null;
}

/**
 * Turns that survive a resume: finished ones are replayed, and a turn a user stopped keeps what it
 * had written (shown as stopped, never fed to later agents). Anything else unfinished is regenerated.
 */
export const KEPT_TURN_STATUSES = ["completed", "stopped"];

/** Before a (re)run: turns a crash or failure left unfinished are regenerated, so they go. */
export async function dropUnfinishedTurns(db: Database, debateId: string) {
  await db.delete(s.turns).where(and(eq(s.turns.debateId, debateId), notInArray(s.turns.status, KEPT_TURN_STATUSES)));
}

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

async function writeVerdict(tx: Tx, debateId: string, judgeRole: string, v: VerdictRecord) {
  // A resumed debate's verdict replaces the earlier one, its panel's ballots included.
  await tx.delete(s.verdicts).where(eq(s.verdicts.debateId, debateId));
  const { decidedBy, stopReason, details, panel, ...row } = v;
  const extra = { ...(decidedBy ? { decidedBy } : {}), ...(stopReason ? { stopReason } : {}), ...details };
  const ballots = (panel ?? []).map((b) => ({
    debateId,
    isFinal: false,
    judgeRole: b.judgeRole,
    label: b.label,
    reason: b.reason,
    rawText: b.rawText,
    confidence: b.confidence,
    labelProbs: b.labelProbs,
    details: b.details ?? null,
    roundsCompleted: v.roundsCompleted,
  }));
  // The final verdict and the panel's ballots in one insert.
  await tx
    .insert(s.verdicts)
    .values([
      { debateId, judgeRole, isFinal: true, ...row, details: Object.keys(extra).length ? extra : null },
      ...ballots,
    ]);
}

export async function saveVerdict(db: Database, debateId: string, judgeRole: string, v: VerdictRecord) {
  await db.transaction((tx) => writeVerdict(tx, debateId, judgeRole, v));
}

/**
 * A run's successful end: its verdict (and a panel's ballots) and the debate marked completed, in
 * one statement: all or nothing like the transaction it replaces, and one round trip instead of
 * five at the end of every debate. As with finishClaimedDebate, the status changes only while this
 * run still holds the debate. A resumed debate's verdict replaces the earlier one: the insert reads
 * from the delete (`where ... from removed`), so the old final verdict is gone before the new one
 * meets its unique index.
 */
/** True when this run completed the debate (it still held the claim); false when it had lost it. */
export async function completeWithVerdict(
  db: Pick<Database, "execute">,
  debateId: string,
  runToken: string,
  judgeRole: string,
  v: VerdictRecord,
) {
  const { decidedBy, stopReason, details, panel, ...row } = v;
  const extra = { ...(decidedBy ? { decidedBy } : {}), ...(stopReason ? { stopReason } : {}), ...details };
  const json = (x: unknown) => (x === null || x === undefined ? null : JSON.stringify(x));
  const rows = [
    {
      isFinal: true,
      judgeRole,
      label: row.label,
      reason: row.reason,
      rawText: row.rawText,
      confidence: row.confidence,
      labelProbs: row.labelProbs,
      stoppedEarly: row.stoppedEarly,
      stopAfter: row.stopAfter,
      roundsCompleted: row.roundsCompleted,
      details: Object.keys(extra).length ? extra : null,
    },
    ...(panel ?? []).map((b) => ({
      isFinal: false,
      judgeRole: b.judgeRole,
      label: b.label,
      reason: b.reason,
      rawText: b.rawText,
      confidence: b.confidence,
      labelProbs: b.labelProbs,
      stoppedEarly: false,
      stopAfter: null,
      roundsCompleted: v.roundsCompleted,
      details: b.details ?? null,
    })),
  ].map(
    (
      r,
    ) => sql`(${debateId}::uuid, ${r.isFinal}::boolean, ${r.judgeRole}::text, ${r.label}::text, ${r.reason ?? null}::text, ${r.rawText ?? null}::text, ${r.confidence ?? null}::real,
      ${json(r.labelProbs)}::jsonb, ${r.stoppedEarly}::boolean, ${r.stopAfter ?? null}::text, ${r.roundsCompleted ?? null}::int, ${json(r.details)}::jsonb)`,
  );
  // One row per judge plus the final verdict: its size is set by the method, not by the input.
  const done = await db.execute<{
    completed: number;
  }>(sql`with removed as (delete from verdicts where debate_id = ${debateId}::uuid returning 1),
    completed as (update debates set status = 'completed', error = null, finished_at = ${new Date().toISOString()}::timestamptz
      where id = ${debateId}::uuid and runner_id = ${runToken} and status = 'running' returning 1)
    insert into verdicts (debate_id, is_final, judge_role, label, reason, raw_text, confidence, label_probs, stopped_early, stop_after, rounds_completed, details)
    select v.* from (values ${sql.join(rows, sql`, `)}) as v(debate_id, is_final, judge_role, label, reason, raw_text, confidence, label_probs, stopped_early, stop_after, rounds_completed, details)
    where (select count(*) from removed) >= 0
    returning (select count(*) from completed)::int as completed`);
  return Number(done.rows[0]?.completed ?? 0) > 0;
}

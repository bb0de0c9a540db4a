import { and, asc, desc, eq, inArray, lt, notInArray, or, sql, isNull } from "drizzle-orm";
import { anyUuid } from "@/db/bulk";
import { notesOf } from "./debate-notes";
import { debateLease, leaseOrphaned, otherHolders, reclaimOrphans, renewLeases } from "./leases";
import type { Database } from "@/db/client";
import { isPglite, queryPrepared } from "@/db/pglite-prepared";
import * as s from "@/db/schema";
import type { CallRecord, DebateEvidence, MatchDecision, VerdictRecord } from "../types";

/** Everything the runner and the pages read and write about debates. */

type DriverClient = {
  query: (
    text: string | { name: string; text: string; values: unknown[] },
    values?: unknown[],
  ) => Promise<{ rows: unknown[] }>;
};

/**
 * A statement the runner sends on every turn, handed straight to the driver: its text is fixed, so
 * building it with the query builder each time (and PGlite's per-statement copy of its type
 * parsers that drizzle asks for) is CPU spent between two model calls for nothing. It is a named
 * prepared statement, parsed and planned once per connection (on PGlite, once per handle).
 * Parameters are passed as text the statement casts (JSON already serialized, timestamps as ISO
 * strings), so both drivers send the same values.
 */
async function hot<T>(db: Database, name: string, text: string, values: unknown[]): Promise<T[]> {
  const client = (db as unknown as { $client: DriverClient }).$client;
  // PGlite: a named prepared statement too, through its protocol (db/pglite-prepared.ts).
  if (isPglite(client)) return queryPrepared<T>(client, name, text, values);
  const res = await client.query({ name, text, values });
  return res.rows as T[];
}

export type NewDebate = {
  claim: {
    text: string;
    claimDate?: Date | null;
    appearanceUrl?: string | null;
    dataset?: string;
    datasetClaimId?: string;
    goldLabel?: string;
    nativeLabel?: string;
    goldEvidence?: Array<{ id?: string; text: string }>;
    metadata?: Record<string, unknown>;
  };
  protocol: string;
  variant: string | null;
  config: Record<string, unknown>;
  models: Record<string, string>;
  thresholds?: Record<string, unknown> | null;
  promptsHash: string;
  evidenceMode: "retrieved" | "gold" | "supplied" | "none";
  corpusId?: string | null;
  evalRunId?: string | null;
  /** A claim already stored (the several debates of one comparison share it): no new claim row. */
  claimId?: string;
  comparisonId?: string | null;
  createdBy?: string | null;
  evidence: DebateEvidence[];
  /** What claim matching found before the start and what the person chose; none when matching was not asked for. */
  matchDecision?: MatchDecision | null;
};

/** A debate's frozen evidence pool as rows; debates from the form and from evaluation runs share it. */
export function evidenceRows(debateId: string, evidence: readonly DebateEvidence[]) {
  return evidence.map((e) => ({
    debateId,
    rank: e.rank,
    passageId: e.passageId ?? null,
    source: e.source,
    externalId: e.externalId ?? null,
    text: e.text,
    title: e.title ?? null,
    url: e.url ?? null,
    score: e.score ?? null,
    denseRank: e.denseRank ?? null,
    lexicalRank: e.lexicalRank ?? null,
    origin: e.origin ?? "claim",
    addedSeq: e.addedSeq ?? null,
    visibleTo: e.visibleTo ?? null,
    publishedAt: e.publishedAt ?? null,
    metadata: e.metadata ?? null,
  }));
}

/** Passages a turn found during the debate, appended to its pool (ranks already assigned by the runner). */
export async function addDebateEvidence(db: Database, debateId: string, evidence: readonly DebateEvidence[]) {
  if (evidence.length) await db.insert(s.debateEvidence).values(evidenceRows(debateId, evidence));
}

/** Claim, debate and its evidence pool in one transaction: a debate never exists half-made. */
export async function createDebateRecord(db: Database, input: NewDebate): Promise<string> {
  return db.transaction(async (tx) => {
    const [claim] = input.claimId
      ? [{ id: input.claimId }]
      : await tx
          .insert(s.claims)
          .values({
            text: input.claim.text,
            claimDate: input.claim.claimDate ?? null,
            appearanceUrl: input.claim.appearanceUrl ?? null,
            dataset: input.claim.dataset,
            datasetClaimId: input.claim.datasetClaimId,
            goldLabel: input.claim.goldLabel,
            nativeLabel: input.claim.nativeLabel,
            goldEvidence: input.claim.goldEvidence,
            metadata: input.claim.metadata,
            createdBy: input.createdBy ?? null,
          })
          .returning({ id: s.claims.id });
    const [debate] = await tx
      .insert(s.debates)
      .values({
        claimId: claim!.id,
        protocol: input.protocol,
        variant: input.variant,
        config: input.config,
        models: input.models,
        thresholds: input.thresholds ?? null,
        promptsHash: input.promptsHash,
        evidenceMode: input.evidenceMode,
        corpusId: input.corpusId ?? null,
        evalRunId: input.evalRunId ?? null,
        comparisonId: input.comparisonId ?? null,
        createdBy: input.createdBy ?? null,
        matchDecision: input.matchDecision ?? null,
      })
      .returning({ id: s.debates.id });
    if (input.evidence.length) await tx.insert(s.debateEvidence).values(evidenceRows(debate!.id, input.evidence));
    return debate!.id;
  });
}

export type DebateSnapshot = Awaited<ReturnType<typeof loadDebate>>;

export async function loadDebate(db: Database, id: string) {
  // The debate, its evidence and its turns are read as a run reads them (loadForRun's statements).
  const p = runQueries(db);
  const [row] = await p.debate.execute({ id });
  if (!row) return null;
  const [evidence, turns, notes, verdicts] = await Promise.all([
    p.evidence.execute({ id }),
    p.turns.execute({ id }),
    notesOf(db, [id]),
    db
      .select()
      .from(s.verdicts)
      .where(and(eq(s.verdicts.debateId, id), eq(s.verdicts.isFinal, true))),
  ]);
  return { ...row, evidence, turns, notes, verdict: verdicts[0] ?? null };
}

/**
 * What a run needs to start: the debate with its claim, its evidence pool and its turns. Not its
 * method notes or verdict, which the runner never reads: three statements instead of loadDebate's
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

/** loadForRun's statements, built once per database handle (on PostgreSQL, prepared once per connection). */
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
function runQueries(db: Database) {
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

/** Opens a turn row, so watchers see who is speaking. */
export async function beginTurn(
  db: Database,
  t: { debateId: string; seq: number; round: number; phase: string; role: string; kind: string; model: string },
): Promise<string> {
  const [row] = await hot<{ id: string }>(
    db,
    "counterpoint_begin_turn",
    `insert into turns (debate_id, seq, round, phase, role, kind, model, status, started_at)
      values ($1::uuid, $2::int, $3::int, $4::text, $5::text, $6::text, $7::text, 'streaming', $8::timestamptz) returning id`,
    [t.debateId, t.seq, t.round, t.phase, t.role, t.kind, t.model, new Date().toISOString()],
  );
  return row!.id;
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

function callRow(debateId: string, turnId: string | null, rec: CallRecord) {
  return {
    debateId,
    turnId,
    model: rec.model,
    purpose: rec.purpose,
    promptTokens: rec.usage.promptTokens,
    completionTokens: rec.usage.completionTokens,
    cachedPromptTokens: rec.usage.cachedPromptTokens ?? 0,
    costUsd: rec.costUsd,
    latencyMs: rec.latencyMs,
    attempts: rec.attempts,
    error: rec.error ?? null,
  };
}

/**
 * The finished turn and the model calls it made, in one statement: both or neither, and one round
 * trip instead of a transaction's four (this runs after every turn of every debate).
 */
export async function finishTurn(
  db: Database,
  turnId: string,
  debateId: string,
  t: {
    content: string;
    promptTokens: number;
    completionTokens: number;
    costUsd: number | null;
    latencyMs: number;
    citations: number[];
    scores?: Record<string, unknown> | null;
    metadata?: Record<string, unknown> | null;
  },
  calls: CallRecord[],
) {
  const values: unknown[] = [
    turnId,
    t.content,
    t.promptTokens,
    t.completionTokens,
    t.costUsd,
    Math.round(t.latencyMs),
    JSON.stringify(t.citations),
    t.scores ? JSON.stringify(t.scores) : null,
    t.metadata ? JSON.stringify(t.metadata) : null,
  ];
  const updated = `update turns set
      content = $2::text, prompt_tokens = $3::int, completion_tokens = $4::int, cost_usd = $5::float8, latency_ms = $6::int, citations = $7::jsonb,
      scores = $8::jsonb, metadata = $9::jsonb, status = 'completed', finished_at = now(), error = null
    where id = $1::uuid returning id`;
  if (calls.length === 0) {
    await hot(db, "counterpoint_finish_turn", updated, values);
    return;
  }
  const rows = calls.map((c) => {
    const r = callRow(debateId, turnId, c);
    const at = values.length;
    values.push(
      r.debateId,
      r.turnId,
      r.model,
      r.purpose,
      r.promptTokens,
      r.completionTokens,
      r.cachedPromptTokens,
      r.costUsd,
      Math.round(r.latencyMs),
      r.attempts,
      r.error,
    );
    const p = (i: number) => `$${at + i}`;
    return `(${p(1)}::uuid, ${p(2)}::uuid, ${p(3)}::text, ${p(4)}::text, ${p(5)}::int, ${p(6)}::int, ${p(7)}::int, ${p(8)}::float8, ${p(9)}::int, ${p(10)}::int, ${p(11)}::text)`;
  });
  // One text per number of calls (almost always one), so one prepared statement each.
  await hot(
    db,
    `counterpoint_finish_turn_${calls.length}`,
    `with updated as (${updated})
    insert into llm_calls (debate_id, turn_id, model, purpose, prompt_tokens, completion_tokens, cached_prompt_tokens, cost_usd, latency_ms, attempts, error)
    select v.* from (values ${rows.join(", ")}) as v(debate_id, turn_id, model, purpose, prompt_tokens, completion_tokens, cached_prompt_tokens, cost_usd, latency_ms, attempts, error)
    where exists (select 1 from updated)`,
    values,
  );
}

/**
 * A turn that did not finish, with what it had written: `failed` (regenerated on resume) or
 * `stopped` by a user (kept, marked, never fed to later agents).
 */
export async function failTurn(
  db: Database,
  turnId: string,
  debateId: string,
  error: string,
  partial: string,
  calls: CallRecord[],
  status: "failed" | "stopped" = "failed",
) {
  await db.transaction(async (tx) => {
    await tx
      .update(s.turns)
      .set({ status, error, content: partial, finishedAt: new Date() })
      .where(eq(s.turns.id, turnId));
    if (calls.length) await tx.insert(s.llmCalls).values(calls.map((c) => callRow(debateId, turnId, c)));
  });
}

/**
 * A step that calls no model (a computed `analysis` or a `tool` call), written whole in one
 * insert: it has nothing to stream, and a crash before the insert simply runs it again.
 */
export async function insertStepTurn(
  db: Database,
  t: {
    debateId: string;
    seq: number;
    round: number;
    phase: string;
    role: string;
    kind: string;
    model: string | null;
    status: "completed" | "failed";
    content: string;
    latencyMs: number;
    startedAt: Date;
    finishedAt: Date;
    metadata: Record<string, unknown>;
    error: string | null;
  },
) {
  await hot(
    db,
    "counterpoint_insert_step_turn",
    `insert into turns (debate_id, seq, round, phase, role, kind, model, status, content, latency_ms, started_at, finished_at, metadata, error, prompt_tokens, completion_tokens, cost_usd, citations)
      values ($1::uuid, $2::int, $3::int, $4::text, $5::text, $6::text, $7::text, $8::text, $9::text, $10::int, $11::timestamptz, $12::timestamptz, $13::jsonb, $14::text, 0, 0, 0, '[]'::jsonb)`,
    [
      t.debateId,
      t.seq,
      t.round,
      t.phase,
      t.role,
      t.kind,
      t.model,
      t.status,
      t.content,
      Math.round(t.latencyMs),
      t.startedAt.toISOString(),
      t.finishedAt.toISOString(),
      JSON.stringify(t.metadata),
      t.error,
    ],
  );
}

export async function recordCall(db: Database, debateId: string, turnId: string | null, rec: CallRecord) {
  await db.insert(s.llmCalls).values(callRow(debateId, turnId, rec));
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

/** Totals across every recorded model call of a debate (including repairs, retries and samples). */
export async function debateTotals(db: Database, debateId: string) {
  const [row] = await db
    .select({
      calls: sql<number>`count(*)::int`,
      promptTokens: sql<number>`coalesce(sum(${s.llmCalls.promptTokens}), 0)::int`,
      completionTokens: sql<number>`coalesce(sum(${s.llmCalls.completionTokens}), 0)::int`,
      costUsd: sql<number | null>`sum(${s.llmCalls.costUsd})`,
      unpricedCalls: sql<number>`count(*) filter (where ${s.llmCalls.costUsd} is null and ${s.llmCalls.error} is null)::int`,
    })
    .from(s.llmCalls)
    .where(eq(s.llmCalls.debateId, debateId));
  return row!;
}

export async function listDebates(db: Database, opts: { limit?: number; status?: string } = {}) {
  return db
    .select({
      id: s.debates.id,
      status: s.debates.status,
      variant: s.debates.variant,
      protocol: s.debates.protocol,
      createdAt: s.debates.createdAt,
      claim: s.claims.text,
      label: s.verdicts.label,
    })
    .from(s.debates)
    .innerJoin(s.claims, eq(s.claims.id, s.debates.claimId))
    .leftJoin(s.verdicts, and(eq(s.verdicts.debateId, s.debates.id), eq(s.verdicts.isFinal, true)))
    .where(opts.status ? eq(s.debates.status, opts.status as s.DebateStatus) : undefined)
    .orderBy(desc(s.debates.createdAt))
    .limit(opts.limit ?? 50);
}

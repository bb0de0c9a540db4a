import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { isPglite, queryPrepared } from "@/db/pglite-prepared";
import * as s from "@/db/schema";
import type { CallRecord, DebateEvidence } from "../types";
import { evidenceRows } from "./debates";

/*
 * The steps a debate's run writes as it goes: a turn opened, streamed and finished (or failed or
 * stopped) with the model calls it made, a step that calls no model, and passages found during
 * the debate. These run between two model calls, many times a debate, so the hot ones are single
 * prepared statements (`hot` below).
 */

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

/** Passages a turn found during the debate, appended to its pool (ranks already assigned by the runner). */
export async function addDebateEvidence(db: Database, debateId: string, evidence: readonly DebateEvidence[]) {
  if (evidence.length) await db.insert(s.debateEvidence).values(evidenceRows(debateId, evidence));
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

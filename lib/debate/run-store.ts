import type { Database } from "@/db/client";
import { debateRunStore } from "@/db/queries/debate-run-store";
import type { finishTurn as finishTurnRow, insertStepTurn as insertStepTurnRow } from "@/db/queries/debate-steps";
import type { DebateStatus } from "@/db/schema";
import type { claims, debateEvidence, debates, turns } from "@/db/schema";
import type { CallRecord, DebateEvidence, VerdictRecord } from "@/db/types";

/*
 * What a debate's run keeps, as the engine (runner.ts and steps/) sees it: the one door between a
 * run and the database. The engine asks for these operations and nothing else; how they are
 * stored is db/'s business (db/queries/debate-run.ts for the run's life, db/queries/debate-steps.ts
 * for its steps, put together in db/queries/debate-run-store.ts, which satisfies this type by its
 * shape: db/ imports nothing from lib/). Every operation takes the database or an open transaction
 * first, so a caller can group writes (the verdict commits with the webhook outbox).
 *
 * - the lease: claim a debate for one run, renew it (heartbeat), hand it back, end it; sweep runs
 *   whose process died;
 * - what a run loads: the debate, its claim, its evidence pool and the steps already done;
 * - the steps: a turn opened, finished or failed with its model calls, a step that calls no model,
 *   passages added to the pool;
 * - the end: the verdict (and a panel's ballots) with the debate marked completed.
 *
 * - a method's notes (RADAR's checkpoints): kept by kind and key, the same key again replacing it.
 */

type Db = Database;
type Status = { status: DebateStatus; runnerId: string | null };
type RunError = { message: string; turnSeq?: number; retryable?: boolean };

/** What a run starts from. */
export type RunSnapshot = {
  debate: typeof debates.$inferSelect;
  claim: typeof claims.$inferSelect;
  evidence: Array<typeof debateEvidence.$inferSelect>;
  turns: Array<typeof turns.$inferSelect>;
};

/** A finished model turn's stored fields: the database's own parameter, not a second copy of it. */
export type FinishedTurn = Parameters<typeof finishTurnRow>[3];

/** A step that calls no model, written whole. */
export type StepRow = Parameters<typeof insertStepTurnRow>[1];

export type RunStore = {
  // The lease.
  claimForRun(
    db: Db,
    id: string,
    runToken: string,
    leaseMs?: number,
    from?: DebateStatus[],
    goneRunners?: string[],
  ): Promise<boolean>;
  getDebateStatus(db: Db, id: string): Promise<Status | null>;
  heartbeat(db: Db, runs: Array<{ id: string; token: string }>): Promise<string[]>;
  releaseClaim(db: Db, id: string, runToken: string): Promise<boolean>;
  finishClaimedDebate(
    db: Db,
    id: string,
    runToken: string,
    status: "completed" | "failed" | "cancelled",
    error?: RunError,
  ): Promise<void>;
  finishDebate(
    db: Db,
    id: string,
    status: "completed" | "failed" | "cancelled" | "interrupted",
    error?: RunError,
  ): Promise<void>;
  otherDebateRunners(db: Db, self: string): Promise<string[]>;
  markOrphansInterrupted(
    db: Db,
    opts: { allRunning: boolean; staleAfterMs: number; exceptRunner: string; goneRunners?: string[]; message: string },
  ): Promise<string[]>;
  // What a run loads.
  loadForRun(db: Db, id: string): Promise<RunSnapshot | null>;
  evidenceFromRows(rows: RunSnapshot["evidence"]): DebateEvidence[];
  /** Statuses of the steps a resume keeps (replayed, or shown as stopped); the others are done again. */
  keptTurnStatuses: readonly string[];
  dropUnfinishedTurns(db: Db, debateId: string): Promise<void>;
  // The steps.
  beginTurn(
    db: Db,
    t: { debateId: string; seq: number; round: number; phase: string; role: string; kind: string; model: string },
  ): Promise<string>;
  finishTurn(db: Db, turnId: string, debateId: string, t: FinishedTurn, calls: CallRecord[]): Promise<void>;
  failTurn(
    db: Db,
    turnId: string,
    debateId: string,
    error: string,
    partial: string,
    calls: CallRecord[],
    status?: "failed" | "stopped",
  ): Promise<void>;
  insertStepTurn(db: Db, t: StepRow): Promise<void>;
  addDebateEvidence(db: Db, debateId: string, evidence: readonly DebateEvidence[]): Promise<void>;
  saveNote(
    db: Db,
    note: { debateId: string; kind: string; key: string; value: Record<string, unknown> },
  ): Promise<void>;
  // The end.
  completeWithVerdict(
    db: Pick<Db, "execute">,
    debateId: string,
    runToken: string,
    judgeRole: string,
    v: VerdictRecord,
  ): Promise<boolean>;
};

// Checked here, where both sides are visible: the database's store has exactly this shape.
const databaseStore: RunStore = debateRunStore;
let installed: RunStore = databaseStore;

/**
 * The composition root (lib/process/services.ts) installs the store every run uses; processes
 * without one (tests, benchmarks that open the database themselves) use the database's.
 */
export function useRunStore(store: RunStore): void {
  installed = store;
}

/** The store runs write through. */
export function runStore(): RunStore {
  return installed;
}

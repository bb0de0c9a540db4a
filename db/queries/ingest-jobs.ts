import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { PgDatabase } from "drizzle-orm/pg-core";
import type { NodePgQueryResultHKT } from "drizzle-orm/node-postgres";
import type { Database } from "@/db/client";
import * as schema from "@/db/schema";
import { ingestJobs, type IngestJobStatus } from "@/db/schema";
import type { IngestCounts } from "../types";
import { ingestJobLease, leaseOrphaned, otherHolders, reclaimOrphans, renewLeases } from "./leases";

/** The database or an open transaction: progress is written inside the batch's own transaction. */
export type Executor = PgDatabase<NodePgQueryResultHKT, typeof schema>;

export type IngestJobRow = typeof ingestJobs.$inferSelect;
export type IngestError = { line?: number; file?: string; message: string };
export type ResumeState = NonNullable<IngestJobRow["resume"]>;

/** The newest errors are the useful ones; older ones are only counted. */
export const RECENT_ERRORS_CAP = 50;

export async function createIngestJob(
  db: Executor,
  job: {
    corpusId: string;
    source: string;
    kind: string;
    options: Record<string, unknown>;
    bytesTotal?: number;
    runnerId: string;
  },
): Promise<IngestJobRow> {
  const [row] = await db
    .insert(ingestJobs)
    .values({
      ...job,
      status: "running",
      startedAt: new Date(),
      heartbeatAt: new Date(),
      resume: { recordsCommitted: 0 },
    })
    .returning();
  return row!;
}

export type JobProgressUpdate = IngestCounts & {
  bytesDone: number;
  recordsDone: number;
  recentErrors: IngestError[];
  resume: ResumeState;
};

/**
 * Records a committed batch. Only a running job of this runner is updated: zero rows means
 * someone cancelled the job (or another process took it over), and the caller rolls back.
 */
export async function recordJobProgress(
  db: Executor,
  id: string,
  runnerId: string,
  p: JobProgressUpdate,
): Promise<boolean> {
  const rows = await db
    .update(ingestJobs)
    .set({ ...p, recentErrors: p.recentErrors.slice(-RECENT_ERRORS_CAP), heartbeatAt: new Date() })
    .where(and(eq(ingestJobs.id, id), eq(ingestJobs.status, "running"), eq(ingestJobs.runnerId, runnerId)))
    .returning({ id: ingestJobs.id });
  return rows.length === 1;
}

/** Renews the job's lease; false when this runner no longer holds it (cancelled, or taken over). */
export async function heartbeatIngestJob(db: Executor, id: string, runnerId: string): Promise<boolean> {
  return (await renewLeases(db, ingestJobLease, [{ id, holder: runnerId }])).length === 0;
}

/** Ends a running job; a job already cancelled from outside stays cancelled. */
export async function finishIngestJob(
  db: Executor,
  id: string,
  runnerId: string,
  end: { status: Exclude<IngestJobStatus, "running">; error?: string; bytesTotal?: number },
): Promise<IngestJobRow | undefined> {
  const [row] = await db
    .update(ingestJobs)
    .set({
      status: end.status,
      error: end.error ?? null,
      finishedAt: new Date(),
      heartbeatAt: new Date(),
      ...(end.bytesTotal !== undefined ? { bytesTotal: end.bytesTotal } : {}),
    })
    .where(and(eq(ingestJobs.id, id), eq(ingestJobs.status, "running"), eq(ingestJobs.runnerId, runnerId)))
    .returning();
  return row ?? (await getIngestJobRow(db, id));
}

export async function requestIngestJobCancel(db: Executor, id: string): Promise<boolean> {
  const rows = await db
    .update(ingestJobs)
    .set({ status: "cancelled", finishedAt: new Date(), error: "cancelled by request" })
    .where(and(eq(ingestJobs.id, id), eq(ingestJobs.status, "running")))
    .returning({ id: ingestJobs.id });
  return rows.length === 1;
}

/**
 * Takes over a job that stopped without finishing, atomically, so two resumes of one job cannot
 * both run. A `running` job counts as stopped when its runner is known to be gone or its
 * heartbeat is older than `staleMs`.
 */
export async function claimIngestJob(
  db: Executor,
  id: string,
  runnerId: string,
  staleMs: number,
  goneRunners: string[] = [],
): Promise<IngestJobRow | undefined> {
  const [row] = await db
    .update(ingestJobs)
    .set({ status: "running", runnerId, heartbeatAt: new Date(), finishedAt: null, error: null })
    .where(
      and(
        eq(ingestJobs.id, id),
        or(
          inArray(ingestJobs.status, ["interrupted", "failed", "cancelled"]),
          leaseOrphaned(ingestJobLease, staleMs, goneRunners),
        ),
      ),
    )
    .returning();
  return row;
}

export const ORPHAN_REASON =
  "the process running this job stopped before it finished; resume it to continue from the last committed batch";

/** Runners of running jobs other than `runnerId`: the orphan sweep asks which of them are dead. */
export async function otherJobRunners(db: Executor, runnerId: string): Promise<string[]> {
  return otherHolders(db, ingestJobLease, runnerId);
}

/**
 * Running jobs of other runners that stopped beating for `staleMs`, or whose runner is one of
 * `goneRunners`, become interrupted (in one statement, so a job resumed meanwhile is left alone).
 */
export async function markOrphanJobsInterrupted(
  db: Executor,
  opts: { runnerId: string; staleMs: number; goneRunners: string[] },
): Promise<number> {
  const ids = await reclaimOrphans(db, ingestJobLease, {
    self: opts.runnerId,
    leaseMs: opts.staleMs,
    goneHolders: opts.goneRunners,
    set: { status: "interrupted", finishedAt: new Date(), error: ORPHAN_REASON },
  });
  return ids.length;
}

/**
 * Marks the given running jobs interrupted, each only if it is still running under the runner
 * it was judged by (a job resumed meanwhile is left alone).
 */
export async function markJobsInterrupted(
  db: Executor | Database,
  jobs: Array<{ id: string; runnerId: string | null }>,
): Promise<number> {
  let n = 0;
  for (const j of jobs) {
    const rows = await db
      .update(ingestJobs)
      .set({ status: "interrupted", finishedAt: new Date(), error: ORPHAN_REASON })
      .where(
        and(
          eq(ingestJobs.id, j.id),
          eq(ingestJobs.status, "running"),
          j.runnerId === null ? sql`${ingestJobs.runnerId} is null` : eq(ingestJobs.runnerId, j.runnerId),
        ),
      )
      .returning({ id: ingestJobs.id });
    n += rows.length;
  }
  return n;
}

/** Marks a finished job as one a resume cannot help (its source is the problem, or it is gone). */
export async function markJobNotResumable(db: Executor | Database, id: string): Promise<void> {
  await db
    .update(ingestJobs)
    .set({ options: sql`${ingestJobs.options} || '{"resumable": false}'::jsonb` })
    .where(eq(ingestJobs.id, id));
}

export async function getIngestJobRow(db: Executor | Database, id: string): Promise<IngestJobRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const [row] = await db.select().from(ingestJobs).where(eq(ingestJobs.id, id));
  return row;
}

export async function listIngestJobRows(
  db: Executor | Database,
  corpusId: string,
  limit = 50,
): Promise<IngestJobRow[]> {
  return db
    .select()
    .from(ingestJobs)
    .where(eq(ingestJobs.corpusId, corpusId))
    .orderBy(desc(ingestJobs.createdAt))
    .limit(limit);
}

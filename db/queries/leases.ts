import { and, eq, getTableColumns, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { NodePgQueryResultHKT } from "drizzle-orm/node-postgres";
import type { PgColumn, PgDatabase, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import * as s from "@/db/schema";

/**
 * Leased work in the database: a row is held by one process while it works on it, and the
 * holder renews its hold by writing the time; a row whose holder stopped renewing for longer than
 * the lease, or whose holder is known to be dead, may be taken back. Debates, ingest jobs and
 * evaluation items each keep their own columns (they predate this file and their names are part
 * of their tables' meaning); a `Lease` says which columns play which part, so claiming, renewing
 * and sweeping are written once. What a lib/ caller does with it: lib/process/lease.ts.
 */
/** The database or an open transaction. */
type Db = PgDatabase<NodePgQueryResultHKT, typeof s>;

export type Lease<T extends PgTable = PgTable> = {
  table: T;
  id: PgColumn;
  /** Who holds the row: a process id (lib/process/identity.ts), optionally with `/<run>`. */
  holder: PgColumn;
  /** When the holder last renewed; null counts as lapsed. */
  renewedAt: PgColumn;
  status: PgColumn;
  /** The status a held row has. */
  held: string;
};

/** The three leased tables share their id, heartbeat_at and status columns; a held row is `running`. */
type RunningLeaseTable = typeof s.debates | typeof s.ingestJobs | typeof s.evalItems;
function runningLease<T extends RunningLeaseTable>(table: T, holder: PgColumn): Lease<T> {
  return { table, id: table.id, holder, renewedAt: table.heartbeatAt, status: table.status, held: "running" };
}

export const debateLease = runningLease(s.debates, s.debates.runnerId);
export const ingestJobLease = runningLease(s.ingestJobs, s.ingestJobs.runnerId);
export const evalItemLease = runningLease(s.evalItems, s.evalItems.workerId);

/**
 * A hold with a deadline instead of renewals: taken for one short piece of work (a webhook
 * delivery's attempt) and never renewed, so the row stores when the hold ends and it lapses then.
 * `free` is the status a row waits in to be taken.
 */
export type DeadlineLease<T extends PgTable = PgTable> = Omit<Lease<T>, "renewedAt"> & {
  until: PgColumn;
  free: string;
};

export const webhookDeliveryLease: DeadlineLease<typeof s.webhookDeliveries> = {
  table: s.webhookDeliveries,
  id: s.webhookDeliveries.id,
  holder: s.webhookDeliveries.leasedBy,
  until: s.webhookDeliveries.leaseUntil,
  status: s.webhookDeliveries.status,
  held: "sending",
  free: "pending",
};

/** Waiting to be taken, or held past its deadline (its holder died mid-work). */
export function deadlineTakeable(lease: DeadlineLease): SQL {
  return or(eq(lease.status, lease.free), and(eq(lease.status, lease.held), lt(lease.until, sql`now()`)))!;
}

/** What taking the row for `ms` writes beside its held status: the holder and the deadline (SQL for a raw update's SET). */
export function deadlineHoldSet(lease: DeadlineLease, holder: string, ms: number): SQL {
  return sql`${sql.identifier(lease.holder.name)} = ${holder}, ${sql.identifier(lease.until.name)} = now() + ${`${ms} milliseconds`}::interval`;
}

/** What ending the hold writes (for `.set()`): no holder, no deadline. */
export function deadlineReleaseSet<T extends PgTable>(lease: DeadlineLease<T>): PgUpdateSetSource<T> {
  return {
    [fieldOf(lease.table, lease.holder)]: null,
    [fieldOf(lease.table, lease.until)]: null,
  } as PgUpdateSetSource<T>;
}

const ago = (ms: number) => sql`now() - make_interval(secs => ${ms / 1000}::float8)`;

/** Held, and its holder has not renewed within `leaseMs`. */
export function leaseLapsed(lease: Lease, leaseMs: number): SQL {
  return and(eq(lease.status, lease.held), or(isNull(lease.renewedAt), lt(lease.renewedAt, ago(leaseMs))))!;
}

/** Held, and either lapsed or held by one of `goneHolders` (processes known dead). */
export function leaseOrphaned(lease: Lease, leaseMs: number, goneHolders: string[] = []): SQL {
  if (!goneHolders.length) return leaseLapsed(lease, leaseMs);
  return and(
    eq(lease.status, lease.held),
    or(isNull(lease.renewedAt), lt(lease.renewedAt, ago(leaseMs)), inArray(lease.holder, goneHolders)),
  )!;
}

/** Held by exactly `holder` (a run's own token, a delivery's sender). */
export function heldBy(lease: Pick<Lease, "holder" | "status" | "held">, holder: string): SQL {
  return and(eq(lease.holder, holder), eq(lease.status, lease.held))!;
}

/** Not held by this process: no holder, or one that is neither `self` nor one of its runs (`self/...`). */
function notHeldBy(lease: Lease, self: string | undefined): SQL | undefined {
  if (self === undefined) return undefined;
  return or(isNull(lease.holder), sql`position(${self} in ${lease.holder}) <> 1`);
}

/** The table's property name for `column` (what `.set()` takes), which is not its SQL name. */
function fieldOf(table: PgTable, column: PgColumn): string {
  const entry = Object.entries(getTableColumns(table)).find(([, c]) => c === column);
  if (!entry) throw new Error(`column ${column.name} is not a column of this lease's table`);
  return entry[0];
}

/**
 * Renews each hold that is still its holder's; returns the ids it no longer holds (finished or
 * stopped from elsewhere, or taken over after a missed renewal). One statement for any number.
 */
export async function renewLeases<T extends PgTable>(
  db: Db,
  lease: Lease<T>,
  holds: Array<{ id: string; holder: string }>,
): Promise<string[]> {
  if (!holds.length) return [];
  const renewed = await db
    .update(lease.table)
    .set({ [fieldOf(lease.table, lease.renewedAt)]: sql`now()` } as PgUpdateSetSource<T>)
    .where(
      and(or(...holds.map((h) => and(eq(lease.id, h.id), eq(lease.holder, h.holder)))), eq(lease.status, lease.held)),
    )
    .returning({ id: lease.id });
  const ok = new Set(renewed.map((r) => r.id as string));
  return holds.filter((h) => !ok.has(h.id)).map((h) => h.id);
}

/**
 * The distinct holders of held rows other than this process's, so the caller can ask which of
 * them are dead (that is judged in the process, from the pid; see lib/process/identity.ts).
 */
export async function otherHolders(db: Db, lease: Lease, self: string, where?: SQL): Promise<string[]> {
  const rows = await db
    .selectDistinct({ holder: lease.holder })
    .from(lease.table)
    .where(and(eq(lease.status, lease.held), notHeldBy(lease, self), where));
  return rows.map((r) => r.holder as string | null).filter((h): h is string => h !== null);
}

/**
 * Takes back, in one statement, held rows of other processes that are orphans: lapsed, held by
 * one of `goneHolders`, or (`everyOther`, the embedded database that only one process can open)
 * any. `set` is what the table's orphans become (interrupted, pending again). Rows renewed since
 * the caller looked are left alone: the condition is checked by the update itself.
 */
export async function reclaimOrphans<T extends PgTable>(
  db: Db,
  lease: Lease<T>,
  opts: {
    /** This process: its own rows are not orphans. Without it, a lapsed row of any holder is (a stuck run of this process too). */
    self?: string;
    set: PgUpdateSetSource<T>;
    leaseMs: number;
    goneHolders?: string[];
    everyOther?: boolean;
    where?: SQL;
  },
): Promise<string[]> {
  const rows = await db
    .update(lease.table)
    .set(opts.set)
    .where(
      and(
        opts.everyOther ? eq(lease.status, lease.held) : leaseOrphaned(lease, opts.leaseMs, opts.goneHolders),
        notHeldBy(lease, opts.self),
        opts.where,
      ),
    )
    .returning({ id: lease.id });
  return rows.map((r) => r.id as string);
}

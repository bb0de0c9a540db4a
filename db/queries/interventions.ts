import { and, asc, count, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";

/**
 * A debate's interventions (`debate_interventions`): what people put into a running debate. The
 * service (lib/debate/interventions/service.ts) stores them; the engine marks each applied before
 * a stored turn, or refused. A debate holds at most a few dozen (the service's cap), so these
 * reads of one debate's rows are bounded by that cap.
 */

export type InterventionRow = typeof s.debateInterventions.$inferSelect;
export type NewIntervention = Pick<
  typeof s.debateInterventions.$inferInsert,
  "debateId" | "kind" | "payload" | "summary" | "createdBy" | "byName"
>;

type Reader = Pick<Database, "select">;

/**
 * Stores an intervention only while its debate can still take one, checked under a share lock on
 * the debate's row. The run that writes the verdict updates that row in the transaction that closes
 * what is still waiting (`closeWaitingInterventions`), so the two take turns: either this commits
 * first and the verdict's transaction closes it, or this waits, sees the verdict, and stores nothing.
 * Without the lock, one filed while the verdict was being written stayed "waiting" for ever.
 */
export async function insertInterventionWhileOpen(
  db: Database,
  row: NewIntervention,
  perDebate: number,
): Promise<{ ok: true; row: InterventionRow } | { ok: false; why: "not_found" | "finished" | "limit" }> {
  return db.transaction(async (tx) => {
    const [d] = await tx
      .select({ status: s.debates.status })
      .from(s.debates)
      .where(eq(s.debates.id, row.debateId))
      .for("share");
    if (!d) return { ok: false as const, why: "not_found" as const };
    if (d.status === "completed" || (await hasFinalVerdict(tx, row.debateId)))
      return { ok: false as const, why: "finished" as const };
    if ((await countInterventions(tx, row.debateId)) >= perDebate) return { ok: false as const, why: "limit" as const };
    const [stored] = await tx.insert(s.debateInterventions).values(row).returning();
    return { ok: true as const, row: stored! };
  });
}

/**
 * Closes every intervention still waiting, each with the refusal its kind gets, inside the
 * transaction that writes the verdict, after the debate's row is updated: an intervention filed from
 * then on waits for that transaction and is refused (`insertInterventionWhileOpen`), so nothing can
 * slip in behind the sweep. Returns the rows closed, for the page to be told.
 */
export async function closeWaitingInterventions(
  tx: Pick<Database, "selectDistinct" | "update">,
  debateId: string,
  refusalOf: (kind: string) => string,
): Promise<InterventionRow[]> {
  const t = s.debateInterventions;
  const waiting = and(eq(t.debateId, debateId), eq(t.status, "waiting"));
  const kinds = await tx.selectDistinct({ kind: t.kind }).from(t).where(waiting);
  const closed: InterventionRow[] = [];
  for (const { kind } of kinds)
    closed.push(
      ...(await tx
        .update(t)
        .set({ status: "refused", refusal: refusalOf(kind), beforeSeq: null, beforeStep: null, appliedAt: new Date() })
        .where(and(waiting, eq(t.kind, kind)))
        .returning()),
    );
  return closed;
}

/** Interventions as another instance stored them (the JSONL import): status, turn and times kept. */
export type StoredIntervention = Omit<typeof s.debateInterventions.$inferInsert, "id" | "createdBy">;

export async function insertInterventions(db: Pick<Database, "insert">, rows: readonly StoredIntervention[]) {
  if (rows.length) await db.insert(s.debateInterventions).values([...rows]);
}

export async function countInterventions(db: Reader, debateId: string): Promise<number> {
  const [r] = await db
    .select({ n: count() })
    .from(s.debateInterventions)
    .where(eq(s.debateInterventions.debateId, debateId));
  return Number(r?.n ?? 0);
}

/** Every intervention of one debate, oldest first (at most the per-debate cap). */
export async function listInterventions(db: Database, debateId: string): Promise<InterventionRow[]> {
  return db
    .select()
    .from(s.debateInterventions)
    .where(eq(s.debateInterventions.debateId, debateId))
    .orderBy(asc(s.debateInterventions.createdAt), asc(s.debateInterventions.id));
}

/** Records that the engine applied it before stored turn `beforeSeq` (only while still waiting: never twice). */
export async function markInterventionApplied(
  db: Database,
  id: string,
  at: { beforeSeq: number; beforeStep?: string | null; answeredBySeq?: number | null; evidenceRank?: number | null },
): Promise<boolean> {
  const rows = await db
    .update(s.debateInterventions)
    .set({
      status: "applied",
      beforeSeq: at.beforeSeq,
      beforeStep: at.beforeStep ?? null,
      answeredBySeq: at.answeredBySeq ?? null,
      evidenceRank: at.evidenceRank ?? null,
      appliedAt: new Date(),
    })
    .where(and(eq(s.debateInterventions.id, id), eq(s.debateInterventions.status, "waiting")))
    .returning({ id: s.debateInterventions.id });
  return rows.length > 0;
}

/**
 * An intervention applied to a turn that was cut before it finished goes with that step when it runs
 * again under a new number (only from the number it had: never moved twice by two runs).
 */
export async function moveInterventionTo(
  db: Database,
  id: string,
  fromSeq: number,
  toSeq: number,
  isQuestion: boolean,
) {
  const rows = await db
    .update(s.debateInterventions)
    .set({ beforeSeq: toSeq, ...(isQuestion ? { answeredBySeq: toSeq } : {}) })
    .where(and(eq(s.debateInterventions.id, id), eq(s.debateInterventions.beforeSeq, fromSeq)))
    .returning({ id: s.debateInterventions.id });
  return rows.length > 0;
}

/** The method refused it (a court's admissibility): kept on the record with why. */
export async function markInterventionRefused(
  db: Database,
  id: string,
  at: { beforeSeq: number | null; beforeStep?: string | null },
  refusal: string,
): Promise<boolean> {
  const rows = await db
    .update(s.debateInterventions)
    .set({
      status: "refused",
      refusal,
      beforeSeq: at.beforeSeq,
      beforeStep: at.beforeStep ?? null,
      appliedAt: new Date(),
    })
    .where(and(eq(s.debateInterventions.id, id), eq(s.debateInterventions.status, "waiting")))
    .returning({ id: s.debateInterventions.id });
  return rows.length > 0;
}

/** Whether the debate's final verdict is written (no intervention after it). */
export async function hasFinalVerdict(db: Reader, debateId: string): Promise<boolean> {
  const rows = await db
    .select({ id: s.verdicts.id })
    .from(s.verdicts)
    .where(and(eq(s.verdicts.debateId, debateId), eq(s.verdicts.isFinal, true)))
    .limit(1);
  return rows.length > 0;
}

/** What the service checks an intervention against: the debate's method and status, whether any step is stored. */
export async function interventionTarget(db: Database, debateId: string) {
  const [d] = await db
    .select({ protocol: s.debates.protocol, status: s.debates.status })
    .from(s.debates)
    .where(eq(s.debates.id, debateId));
  if (!d) return null;
  const [t] = await db.select({ seq: s.turns.seq }).from(s.turns).where(eq(s.turns.debateId, debateId)).limit(1);
  return { ...d, started: Boolean(t) };
}

/** One passage of the debate's evidence by rank (a strike names it). */
export async function evidenceAtRank(db: Database, debateId: string, rank: number) {
  const [e] = await db
    .select({ rank: s.debateEvidence.rank, title: s.debateEvidence.title, url: s.debateEvidence.url })
    .from(s.debateEvidence)
    .where(and(eq(s.debateEvidence.debateId, debateId), eq(s.debateEvidence.rank, rank)));
  return e ?? null;
}

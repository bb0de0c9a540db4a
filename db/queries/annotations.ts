import { and, asc, desc, eq, notExists, sql, type SQL } from "drizzle-orm";
import { anyUuid } from "@/db/bulk";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { getSetting } from "./settings";
import type { Actor } from "../types";

export const GOLD_LABELS = ["TRUE", "HALF-TRUE", "FALSE"] as const;
export const TURN_FLAGS = ["unsupported", "misread-evidence", "missed-context"] as const;

export type QueueFilters = { corpus?: string; verdict?: string; variant?: string; run?: string };

export type AnnotationInput = {
  goldLabel: string;
  nativeLabel?: string | null;
  judgeCorrect?: boolean | null;
  rationale?: string | null;
  turnFlags?: Array<{ turnId: string; flag: string; note?: string }>;
  evidenceFlags?: Array<{ rank: number; relevant: boolean }>;
  durationSeconds?: number | null;
};

/** `field` names the part of the labelling form the refusal is about (`goldLabel`, `rationale`), so the form shows it there. */
export class AnnotationError extends Error {
  constructor(
    message: string,
    readonly field?: "goldLabel" | "rationale",
  ) {
    super(message);
  }
}

/** An assignment nobody has touched for this long stops holding an overlap slot. */
const STALE_ASSIGNMENT_MS = 2 * 3600_000;

/** Finished debates with a final verdict, narrowed by the queue's filters. */
function eligible(f: QueueFilters): SQL {
  const conds: SQL[] = [
    eq(s.debates.status, "completed"),
    sql`exists (select 1 from ${s.verdicts} v where v.debate_id = ${s.debates.id} and v.is_final)`,
  ];
  if (f.corpus) conds.push(sql`${s.debates.corpusId} = (select id from ${s.corpora} where name = ${f.corpus})`);
  if (f.variant) conds.push(eq(s.debates.variant, f.variant));
  if (f.run) conds.push(sql`${s.debates.evalRunId}::text = ${f.run}`);
  if (f.verdict)
    conds.push(
      sql`exists (select 1 from ${s.verdicts} v where v.debate_id = ${s.debates.id} and v.is_final and v.label = ${f.verdict})`,
    );
  return and(...conds)!;
}

/** Annotators holding a slot: submitted, or assigned recently enough to be still working. */
const slotsTaken = (now: Date) => sql<number>`(select count(*)::int from ${s.annotationAssignments} a
  where a.debate_id = ${s.debates.id} and (a.status = 'submitted' or (a.status = 'assigned' and a.created_at > ${new Date(now.getTime() - STALE_ASSIGNMENT_MS)})))`;

/**
 * The next debate for this annotator, without claiming it: never one they were already given
 * (assigned, submitted or skipped), never one whose overlap target is met, and debates that already
 * have some annotators first, so targets are reached before new debates are started.
 */
export async function peekNextTask(
  db: Database,
  annotatorId: string,
  f: QueueFilters = {},
  now = new Date(),
): Promise<string | null> {
  const overlap = await getSetting(db, "annotation_overlap");
  const taken = slotsTaken(now);
  const [row] = await db
    .select({ id: s.debates.id })
    .from(s.debates)
    .where(
      and(
        eligible(f),
        notExists(
          db
            .select({ x: sql`1` })
            .from(s.annotationAssignments)
            .where(
              and(
                eq(s.annotationAssignments.debateId, s.debates.id),
                eq(s.annotationAssignments.annotatorId, annotatorId),
              ),
            ),
        ),
        sql`${taken} < ${overlap}`,
      ),
    )
    .orderBy(desc(taken), asc(s.debates.finishedAt), asc(s.debates.id))
    .limit(1);
  return row?.id ?? null;
}

/** The annotator's open task (assigned, not submitted) if any, else a new one, claimed. */
export async function claimNextTask(
  db: Database,
  annotatorId: string,
  f: QueueFilters = {},
  now = new Date(),
): Promise<string | null> {
  const [open] = await db
    .select({ id: s.annotationAssignments.debateId })
    .from(s.annotationAssignments)
    .innerJoin(s.debates, eq(s.debates.id, s.annotationAssignments.debateId))
    .where(
      and(
        eq(s.annotationAssignments.annotatorId, annotatorId),
        eq(s.annotationAssignments.status, "assigned"),
        eligible(f),
      ),
    )
    .orderBy(asc(s.annotationAssignments.assignedAt))
    .limit(1);
  if (open) return open.id;
  for (let attempt = 0; attempt < 5; attempt++) {
    const id = await peekNextTask(db, annotatorId, f, now);
    if (!id) return null;
    // The primary key makes a second claim of the same pair a no-op, so two tabs cannot double it.
    const inserted = await db
      .insert(s.annotationAssignments)
      .values({ debateId: id, annotatorId })
      .onConflictDoNothing()
      .returning();
    if (inserted.length) return id;
  }
  return null;
}

export async function assignmentOf(db: Database, debateId: string, annotatorId: string) {
  const [a] = await db
    .select()
    .from(s.annotationAssignments)
    .where(and(eq(s.annotationAssignments.debateId, debateId), eq(s.annotationAssignments.annotatorId, annotatorId)));
  return a ?? null;
}

/**
 * Skips the caller's own open task. Assignments are made only by the queue (claimNextTask,
 * claimTask), so a debate the caller was never given is left alone: skipping cannot create a row
 * that would later pass for permission to label. Returns whether anything was skipped.
 */
export async function skipTask(db: Database, debateId: string, annotatorId: string): Promise<boolean> {
  const rows = await db
    .update(s.annotationAssignments)
    .set({ status: "skipped", finishedAt: new Date() })
    .where(
      and(
        eq(s.annotationAssignments.debateId, debateId),
        eq(s.annotationAssignments.annotatorId, annotatorId),
        eq(s.annotationAssignments.status, "assigned"),
      ),
    )
    .returning();
  return rows.length > 0;
}

/** Annotators other than `annotatorId` holding a slot on the debate (submitted, or assigned and fresh). */
async function othersHoldingSlots(
  db: Pick<Database, "select">,
  debateId: string,
  annotatorId: string,
  now = new Date(),
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(s.annotationAssignments)
    .where(
      and(
        eq(s.annotationAssignments.debateId, debateId),
        sql`${s.annotationAssignments.annotatorId} <> ${annotatorId}`,
        sql`(${s.annotationAssignments.status} = 'submitted' or (${s.annotationAssignments.status} = 'assigned' and ${s.annotationAssignments.assignedAt} > ${new Date(now.getTime() - STALE_ASSIGNMENT_MS)}))`,
      ),
    );
  return row!.n;
}

/**
 * Takes back the caller's own skip, as the queue would hand the debate out: only while its overlap
 * target is not met by others. Returns whether the task is the caller's again.
 */
export async function undoSkip(
  db: Database,
  debateId: string,
  annotatorId: string,
  now = new Date(),
): Promise<boolean> {
  const overlap = await getSetting(db, "annotation_overlap");
  return db.transaction(async (tx) => {
    // One undo or first save per debate at a time, so two cannot both see a free slot.
    await tx.execute(sql`select id from ${s.debates} where id = ${debateId} for update`);
    const [mine] = await tx
      .select()
      .from(s.annotationAssignments)
      .where(and(eq(s.annotationAssignments.debateId, debateId), eq(s.annotationAssignments.annotatorId, annotatorId)));
    if (mine?.status !== "skipped") return false;
    if ((await othersHoldingSlots(tx, debateId, annotatorId, now)) >= overlap) return false;
    await tx
      .update(s.annotationAssignments)
      .set({ status: "assigned", finishedAt: null, assignedAt: now })
      .where(and(eq(s.annotationAssignments.debateId, debateId), eq(s.annotationAssignments.annotatorId, annotatorId)));
    return true;
  });
}

function validate(input: AnnotationInput) {
  if (!(GOLD_LABELS as readonly string[]).includes(input.goldLabel))
    throw new AnnotationError(`The gold label must be one of ${GOLD_LABELS.join(", ")}.`, "goldLabel");
  for (const f of input.turnFlags ?? [])
    if (!(TURN_FLAGS as readonly string[]).includes(f.flag))
      throw new AnnotationError(`Unknown turn flag "${f.flag}".`);
  if ((input.rationale ?? "").length > 20_000)
    throw new AnnotationError(
      `The rationale is ${(input.rationale ?? "").length.toLocaleString("en-US")} characters; the limit is 20,000. Keep the reasons that decided your label.`,
      "rationale",
    );
}

const snapshot = (a: typeof s.annotations.$inferSelect) => ({
  version: a.version,
  goldLabel: a.goldLabel,
  nativeLabel: a.nativeLabel,
  judgeCorrect: a.judgeCorrect,
  rationale: a.rationale,
  turnFlags: a.turnFlags,
  evidenceFlags: a.evidenceFlags,
  durationSeconds: a.durationSeconds,
});

export async function latestOwnAnnotation(db: Database, debateId: string, annotatorId: string) {
  const [a] = await db
    .select()
    .from(s.annotations)
    .where(and(eq(s.annotations.debateId, debateId), eq(s.annotations.annotatorId, annotatorId)))
    .orderBy(desc(s.annotations.version))
    .limit(1);
  return a ?? null;
}

/**
 * Records the annotator's label as a new version (never an update) with an audit row holding the
 * value before and after. The annotator is always the caller: there is no way to write a version
 * for someone else. A first annotation needs the debate to be theirs (claimed) or still open.
 */
export async function saveAnnotation(
  db: Database,
  annotator: Actor,
  debateId: string,
  input: AnnotationInput,
  opts: { action?: "create" | "edit" | "import"; createdAt?: Date } = {},
) {
  if (!annotator.roles.includes("annotator")) throw new AnnotationError("Only annotators can label debates.");
  validate(input);
  const [debate] = await db
    .select({ id: s.debates.id, status: s.debates.status })
    .from(s.debates)
    .where(eq(s.debates.id, debateId));
  if (!debate) throw new AnnotationError("There is no such debate.");
  if (debate.status !== "completed") throw new AnnotationError("Only finished debates can be labelled.");
  const overlap = await getSetting(db, "annotation_overlap");
  return db.transaction(async (tx) => {
    // Serialises first labels on one debate, so two saves cannot both take the last slot.
    await tx.execute(sql`select id from ${s.debates} where id = ${debateId} for update`);
    const [prev] = await tx
      .select()
      .from(s.annotations)
      .where(and(eq(s.annotations.debateId, debateId), eq(s.annotations.annotatorId, annotator.id)))
      .orderBy(desc(s.annotations.version))
      .limit(1);
    if (!prev) {
      // The overlap rule is checked here, where a label is written, not only where tasks are handed out.
      const [mine] = await tx
        .select({ status: s.annotationAssignments.status })
        .from(s.annotationAssignments)
        .where(
          and(eq(s.annotationAssignments.debateId, debateId), eq(s.annotationAssignments.annotatorId, annotator.id)),
        );
      if (mine?.status === "skipped") throw new AnnotationError("You skipped this debate; undo the skip to label it.");
      if ((await othersHoldingSlots(tx, debateId, annotator.id)) >= overlap)
        throw new AnnotationError(
          `This debate already has ${overlap} annotators, the most it takes; take the next one from the queue.`,
        );
    }
    const [row] = await tx
      .insert(s.annotations)
      .values({
        debateId,
        annotatorId: annotator.id,
        version: (prev?.version ?? 0) + 1,
        supersedesId: prev?.id ?? null,
        goldLabel: input.goldLabel,
        nativeLabel: input.nativeLabel || null,
        judgeCorrect: input.judgeCorrect ?? null,
        rationale: input.rationale?.trim() || null,
        turnFlags: input.turnFlags ?? [],
        evidenceFlags: input.evidenceFlags ?? [],
        durationSeconds: input.durationSeconds ?? null,
        ...(opts.createdAt ? { createdAt: opts.createdAt } : {}),
      })
      .returning();
    await tx.insert(s.annotationAudit).values({
      annotationId: row!.id,
      debateId,
      actorId: annotator.id,
      action: opts.action ?? (prev ? "edit" : "create"),
      oldValue: prev ? snapshot(prev) : null,
      newValue: snapshot(row!),
    });
    await tx
      .insert(s.annotationAssignments)
      .values({ debateId, annotatorId: annotator.id, status: "submitted", finishedAt: new Date() })
      .onConflictDoUpdate({
        target: [s.annotationAssignments.debateId, s.annotationAssignments.annotatorId],
        set: { status: "submitted", finishedAt: new Date() },
      });
    return row!;
  });
}

/** Latest version per (debate, annotator), for the given debates or for all. */
export async function currentAnnotations(db: Database, debateIds?: string[]) {
  // One array parameter whatever the number of debates (db/bulk.ts).
  const where = debateIds ? anyUuid(s.annotations.debateId, debateIds) : undefined;
  const rows = await db
    .selectDistinctOn([s.annotations.debateId, s.annotations.annotatorId], {
      a: s.annotations,
      email: s.users.email,
    })
    .from(s.annotations)
    .innerJoin(s.users, eq(s.users.id, s.annotations.annotatorId))
    .where(where)
    .orderBy(s.annotations.debateId, s.annotations.annotatorId, desc(s.annotations.version));
  return rows.map((r) => ({ ...r.a, annotatorEmail: r.email }));
}

export async function auditTrail(db: Database, debateId: string, annotatorId?: string) {
  return db
    .select({ audit: s.annotationAudit, email: s.users.email })
    .from(s.annotationAudit)
    .innerJoin(s.annotations, eq(s.annotations.id, s.annotationAudit.annotationId))
    .leftJoin(s.users, eq(s.users.id, s.annotationAudit.actorId))
    .where(
      and(
        eq(s.annotationAudit.debateId, debateId),
        annotatorId ? eq(s.annotations.annotatorId, annotatorId) : undefined,
      ),
    )
    .orderBy(asc(s.annotationAudit.id));
}

/**
 * Queue counts for the annotator's start page. `open` counts debates with fewer labels in than the
 * overlap asks for; `forMe` those this annotator can still be given (their open task included), which is
 * what decides whether "nothing left to label" is shown, so the two never contradict each other.
 */
export async function queueSummary(db: Database, annotatorId: string, f: QueueFilters = {}, now = new Date()) {
  const overlap = await getSetting(db, "annotation_overlap");
  const taken = slotsTaken(now);
  const mine = sql`(select a.status from ${s.annotationAssignments} a where a.debate_id = ${s.debates.id} and a.annotator_id = ${annotatorId})`;
  const submitted = sql`(select count(*) from ${s.annotationAssignments} a where a.debate_id = ${s.debates.id} and a.status = 'submitted')`;
  const [row] = await db
    .select({
      eligible: sql<number>`count(*)::int`,
      // Labels actually in, not slots held: a debate someone is working on still needs its label.
      open: sql<number>`count(*) filter (where ${submitted} < ${overlap})::int`,
      complete: sql<number>`count(*) filter (where ${submitted} >= ${overlap})::int`,
      forMe: sql<number>`count(*) filter (where ${mine} = 'assigned' or (${mine} is null and ${taken} < ${overlap}))::int`,
      skippedByMe: sql<number>`count(*) filter (where ${mine} = 'skipped')::int`,
    })
    .from(s.debates)
    .where(eligible(f));
  const [byMe] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(s.annotationAssignments)
    .where(and(eq(s.annotationAssignments.annotatorId, annotatorId), eq(s.annotationAssignments.status, "submitted")));
  return { ...row!, overlap, submittedByMe: byMe!.n };
}

/**
 * Opens one named debate for this annotator: theirs already (assigned, submitted or skipped, so
 * an earlier label can be edited), or claimed now when it is eligible and its overlap target is not
 * met. A URL must not let anyone jump past the overlap rule or take a debate the queue would not give.
 */
export async function claimTask(
  db: Database,
  annotatorId: string,
  debateId: string,
  f: QueueFilters = {},
  now = new Date(),
): Promise<boolean> {
  if (await assignmentOf(db, debateId, annotatorId)) return true;
  const overlap = await getSetting(db, "annotation_overlap");
  const [open] = await db
    .select({ id: s.debates.id })
    .from(s.debates)
    .where(and(eq(s.debates.id, debateId), eligible(f), sql`${slotsTaken(now)} < ${overlap}`));
  if (!open) return false;
  await db.insert(s.annotationAssignments).values({ debateId, annotatorId }).onConflictDoNothing();
  return true;
}

/**
 * What the labeling form needs beyond the debate view: the dataset a claim came from and the
 * labels that dataset uses (so the annotator picks from its vocabulary; the claim's own native
 * label is the answer and is never sent), and the stored id of every turn by its position.
 */
export async function taskContext(db: Database, debateId: string) {
  const [row] = await db
    .select({ dataset: s.claims.dataset })
    .from(s.debates)
    .innerJoin(s.claims, eq(s.claims.id, s.debates.claimId))
    .where(eq(s.debates.id, debateId));
  if (!row) return null;
  const nativeLabels = row.dataset
    ? (
        await db
          .selectDistinct({ l: s.claims.nativeLabel })
          .from(s.claims)
          .where(and(eq(s.claims.dataset, row.dataset), sql`${s.claims.nativeLabel} is not null`))
          .orderBy(s.claims.nativeLabel)
          .limit(50)
      ).map((r) => r.l!)
    : [];
  const turns = await db
    .select({ id: s.turns.id, seq: s.turns.seq })
    .from(s.turns)
    .where(eq(s.turns.debateId, debateId))
    .orderBy(asc(s.turns.seq));
  return {
    dataset: row.dataset,
    nativeLabels,
    turnIds: Object.fromEntries(turns.map((t) => [t.seq, t.id])) as Record<number, string>,
  };
}

/** The annotator's own latest labels, newest first, for the queue page's "done" list. */
export async function myRecentAnnotations(db: Database, annotatorId: string, limit = 20) {
  const latest = await db
    .selectDistinctOn([s.annotations.debateId], { a: s.annotations, claim: s.claims.text })
    .from(s.annotations)
    .innerJoin(s.debates, eq(s.debates.id, s.annotations.debateId))
    .innerJoin(s.claims, eq(s.claims.id, s.debates.claimId))
    .where(eq(s.annotations.annotatorId, annotatorId))
    .orderBy(s.annotations.debateId, desc(s.annotations.version));
  return latest
    .map((r) => ({
      debateId: r.a.debateId,
      version: r.a.version,
      goldLabel: r.a.goldLabel,
      createdAt: r.a.createdAt,
      claim: r.claim,
    }))
    .sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime())
    .slice(0, limit);
}

/** Values the queue and agreement filters offer. */
export async function annotationFilterOptions(db: Database) {
  const [corpora, variants, runs] = await Promise.all([
    db.selectDistinct({ name: s.corpora.name }).from(s.corpora).orderBy(s.corpora.name),
    db
      .selectDistinct({ v: s.debates.variant })
      .from(s.debates)
      .where(eq(s.debates.status, "completed"))
      .orderBy(s.debates.variant),
    db
      .select({ id: s.evalRuns.id, name: s.evalRuns.name })
      .from(s.evalRuns)
      .orderBy(desc(s.evalRuns.createdAt))
      .limit(100),
  ]);
  return {
    corpora: corpora.map((c) => c.name),
    variants: variants.map((v) => v.v).filter((v): v is string => !!v),
    runs,
  };
}

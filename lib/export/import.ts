import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { findUserByEmail, createUser } from "@/db/queries/users";
import { insertNotes, type StoredNote } from "@/db/queries/debate-notes";
import { insertInterventions, type StoredIntervention } from "@/db/queries/interventions";
import { INTERVENTION_STATUSES } from "@/db/schema";
import { INTERVENTION_KINDS, INTERVENTION_LIMITS } from "@/lib/debate/interventions/contract";
import { matchDecisionSchema } from "@/lib/matching/decision";
import type { ExportedDebate } from "./debates";
import { parseJsonBounded } from "@/lib/untrusted/limits";

export type ImportSummary = {
  debates: number;
  debatesAdded: number;
  annotationVersionsAdded: number;
  annotatorsCreated: number;
  lines: number;
};

const date = (x: string | null) => (x ? new Date(x) : null);

/**
 * A debate's method notes as stored. Exports made before the notes table carry RADAR's checkpoints
 * as `checkpoints` (the table they came from); they become the notes the migration made of that
 * table (kind "checkpoint", keyed by the phase they follow), so an old file loses nothing.
 */
function importedNotes(d: ExportedDebate & { checkpoints?: Array<Record<string, unknown>> }): StoredNote[] {
  const notes = (d.notes ?? []).map((n) => ({ debateId: d.id, kind: n.kind, key: n.key, value: n.value }));
  const legacy = (d.checkpoints ?? []).map((c) => ({
    debateId: d.id,
    kind: "checkpoint",
    key: String(c.after),
    value: c,
  }));
  return [...notes, ...legacy];
}

const seq = z.number().int().min(0).nullable();
/** One exported intervention, checked as untrusted input (the view reads kind and status as the contract's). */
const exportedIntervention = z.object({
  kind: z.enum(INTERVENTION_KINDS),
  summary: z.string().max(2_000),
  by: z.string().max(300),
  at: z.iso.datetime({ offset: true }),
  status: z.enum(INTERVENTION_STATUSES),
  refusal: z.string().max(2_000).nullable(),
  beforeSeq: seq,
  beforeStep: z.string().max(300).nullable().optional(),
  answeredBySeq: seq,
  evidenceRank: seq,
  appliedAt: z.iso.datetime({ offset: true }).nullable().optional(),
  payload: z.record(z.string(), z.unknown()),
});

/**
 * What people put into the debate, as stored: the person is kept by the name they had (no account
 * is made for them; `createdBy` stays empty). A file from before interventions were exported brings
 * none. One that is malformed, or more than a running debate takes, refuses the debate's line with
 * what is wrong and where; the lines before it stay imported.
 */
function importedInterventions(d: ExportedDebate, line: number): StoredIntervention[] {
  const all: unknown[] = d.interventions ?? [];
  // The same cap as a running debate's (the service refuses the next one): a file cannot put more in.
  if (all.length > INTERVENTION_LIMITS.perDebate)
    throw new Error(
      `Line ${line}: debate ${d.id} has ${all.length} interventions; one debate takes at most ${INTERVENTION_LIMITS.perDebate}. Nothing of this debate was imported; the lines before it were.`,
    );
  return all.map((raw, k) => {
    const parsed = exportedIntervention.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(
        `Line ${line}: interventions[${k}].${issue.path.join(".")}: ${issue.message}. Nothing of this debate was imported; the lines before it were.`,
      );
    }
    const i = parsed.data;
    return {
      debateId: d.id,
      kind: i.kind,
      payload: i.payload,
      summary: i.summary,
      byName: i.by,
      createdAt: new Date(i.at),
      status: i.status,
      refusal: i.refusal,
      beforeSeq: i.beforeSeq,
      beforeStep: i.beforeStep ?? null,
      answeredBySeq: i.answeredBySeq,
      evidenceRank: i.evidenceRank,
      appliedAt: date(i.appliedAt ?? null),
    };
  });
}

/**
 * Reads the JSONL export back. Debates are matched by id and created when missing (with their
 * claim, evidence, turns, method notes, interventions and verdict, ids and times kept), so a whole export moves to
 * an empty database; annotation versions are added when missing, never overwritten, each with an
 * `import` audit row. Annotators are matched by email; unknown ones get an account without a
 * password (an admin invites them to set one).
 */
export async function importJsonl(
  db: Database,
  lines: AsyncIterable<string>,
  opts: { actorId?: string | null } = {},
): Promise<ImportSummary> {
  const summary: ImportSummary = {
    debates: 0,
    debatesAdded: 0,
    annotationVersionsAdded: 0,
    annotatorsCreated: 0,
    lines: 0,
  };
  const users = new Map<string, string>();
  for await (const raw of lines) {
    summary.lines++;
    const line = raw.trim();
    if (!line) continue;
    let d: ExportedDebate;
    try {
      d = parseJsonBounded(line) as ExportedDebate;
    } catch (e) {
      throw new Error(`Line ${summary.lines} is not JSON: ${(e as Error).message}`);
    }
    if (typeof d.id !== "string" || !d.claim)
      throw new Error(`Line ${summary.lines} is not a Counterpoint debate export (no id or claim).`);
    summary.debates++;
    await db.transaction(async (tx) => {
      const [exists] = await tx.select({ id: s.debates.id }).from(s.debates).where(eq(s.debates.id, d.id));
      if (!exists) {
        summary.debatesAdded++;
        let corpusId: string | null = null;
        if (d.corpus) {
          await tx.insert(s.corpora).values({ name: d.corpus }).onConflictDoNothing();
          corpusId = (await tx.select({ id: s.corpora.id }).from(s.corpora).where(eq(s.corpora.name, d.corpus)))[0]!.id;
        }
        if (d.evalRun) {
          // A stand-in for a run from another instance: enough to group its debates again.
          await tx
            .insert(s.evalRuns)
            .values({
              id: d.evalRun.id,
              name: d.evalRun.name,
              protocol: d.protocol,
              variant: d.variant,
              config: { imported: true },
              status: "completed",
            })
            .onConflictDoNothing();
        }
        const c = d.claim;
        await tx
          .insert(s.claims)
          .values({
            id: c.id,
            text: c.text,
            claimDate: date(c.date),
            speaker: c.speaker,
            appearanceUrl: c.appearanceUrl,
            dataset: c.dataset,
            datasetClaimId: c.datasetClaimId,
            nativeLabel: c.nativeLabel,
            goldLabel: c.goldLabel,
          })
          .onConflictDoNothing();
        await tx.insert(s.debates).values({
          id: d.id,
          claimId: c.id,
          protocol: d.protocol,
          variant: d.variant,
          status: d.status as s.DebateStatus,
          config: { imported: true },
          models: d.models,
          evidenceMode: d.evidenceMode,
          corpusId,
          evalRunId: d.evalRun?.id ?? null,
          createdAt: new Date(d.createdAt),
          startedAt: date(d.startedAt),
          finishedAt: date(d.finishedAt),
          // Exports made before the decision was exported have none; one that does not fit the contract is left out.
          matchDecision: matchDecisionSchema.safeParse(d.matchDecision).data ?? null,
        });
        if (d.evidence.length) {
          await tx.insert(s.debateEvidence).values(
            d.evidence.map((e) => ({
              debateId: d.id,
              rank: e.rank,
              source: e.source,
              externalId: e.id,
              title: e.title,
              url: e.url,
              text: e.text,
              origin: e.origin ?? "claim",
              addedSeq: e.addedSeq ?? null,
              visibleTo: e.visibleTo ?? null,
              publishedAt: e.publishedAt ?? null,
              metadata: e.metadata ?? null,
            })),
          );
        }
        if (d.turns.length)
          await tx.insert(s.turns).values(
            d.turns.map(({ contentRaw, ...t }) => ({
              ...t,
              // The raw text is what was stored; `content` is its readable rendering (an export from
              // before `contentRaw` has only the raw text, under `content`).
              content: contentRaw ?? t.content,
              debateId: d.id,
            })),
          );
        await insertNotes(tx, importedNotes(d));
        await insertInterventions(tx, importedInterventions(d, summary.lines));
        if (d.verdict) {
          const v = d.verdict;
          await tx.insert(s.verdicts).values({
            debateId: d.id,
            label: v.label,
            reason: v.reason,
            confidence: v.confidence,
            stoppedEarly: v.stoppedEarly,
            roundsCompleted: v.roundsCompleted,
            details: v.details ?? null,
            createdAt: new Date(v.createdAt),
          });
          for (const b of v.panel ?? []) {
            await tx.insert(s.verdicts).values({
              debateId: d.id,
              isFinal: false,
              judgeRole: b.judgeRole,
              label: b.label,
              reason: b.reason,
              confidence: b.confidence,
              details: b.details,
              roundsCompleted: v.roundsCompleted,
              createdAt: new Date(v.createdAt),
            });
          }
        }
      }
      const previous = new Map<string, string>();
      for (const a of d.annotations ?? []) {
        let userId = users.get(a.annotator);
        if (!userId) {
          const found = await findUserByEmail(tx as unknown as Database, a.annotator);
          if (found) userId = found.id;
          else {
            userId = (await createUser(db, { email: a.annotator, passwordHash: null, roles: ["annotator"] }, tx)).id;
            summary.annotatorsCreated++;
          }
          users.set(a.annotator, userId);
        }
        const [have] = await tx
          .select({ id: s.annotations.id })
          .from(s.annotations)
          .where(
            and(
              eq(s.annotations.debateId, d.id),
              eq(s.annotations.annotatorId, userId),
              eq(s.annotations.version, a.version),
            ),
          );
        if (have) {
          previous.set(a.annotator, have.id);
          continue;
        }
        const values = {
          goldLabel: a.goldLabel,
          nativeLabel: a.nativeLabel,
          judgeCorrect: a.judgeCorrect,
          rationale: a.rationale,
          turnFlags: a.turnFlags,
          evidenceFlags: a.evidenceFlags,
          durationSeconds: a.durationSeconds,
        };
        const [row] = await tx
          .insert(s.annotations)
          .values({
            debateId: d.id,
            annotatorId: userId,
            version: a.version,
            supersedesId: previous.get(a.annotator) ?? null,
            createdAt: new Date(a.createdAt),
            ...values,
          })
          .returning({ id: s.annotations.id });
        await tx.insert(s.annotationAudit).values({
          annotationId: row!.id,
          debateId: d.id,
          actorId: opts.actorId ?? null,
          action: "import",
          oldValue: null,
          newValue: { version: a.version, annotator: a.annotator, ...values },
        });
        await tx
          .insert(s.annotationAssignments)
          .values({ debateId: d.id, annotatorId: userId, status: "submitted", finishedAt: new Date(a.createdAt) })
          .onConflictDoNothing();
        previous.set(a.annotator, row!.id);
        summary.annotationVersionsAdded++;
      }
    });
  }
  return summary;
}

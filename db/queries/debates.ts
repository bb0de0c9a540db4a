import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import type { DebateEvidence, MatchDecision } from "../types";
import { notesOf } from "./debate-notes";
import { runQueries } from "./debate-run";

/*
 * A debate as it is made and read: its creation with its claim and evidence pool, the whole
 * debate for its pages, its totals. A run's own writes are in ./debate-run.ts and
 * ./debate-steps.ts; lists of debates in ./debate-list.ts.
 */

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

import { and, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { productLabel } from "@/lib/debate/protocols";
import { findMethod, peopleVerdict } from "@/lib/debate/methods";
import { ensembleVote } from "@/lib/compare/ensemble";
import { agreementOf } from "@/lib/compare/agreement";
import { methodTitle } from "@/lib/compare/titles";
import type { ComparisonMember, ComparisonView, EnsembleMethod } from "@/lib/compare/types";

/** Comparisons: one claim, several methods' debates, read and written for the pages, the CLI and exports. */

export type ComparisonMethod = { protocol: string; preset: string | null; debateId?: string };

/** The claim (stored once for every method) and the comparison, in one transaction. */
export async function insertComparison(
  db: Database,
  input: {
    claim: { text: string; claimDate?: Date | null; appearanceUrl?: string | null; metadata?: Record<string, unknown> };
    corpusId: string | null;
    methods: ComparisonMethod[];
    ensemble: EnsembleMethod | null;
    createdBy: string | null;
  },
): Promise<{ id: string; claimId: string }> {
  return db.transaction(async (tx) => {
    const [claim] = await tx
      .insert(s.claims)
      .values({ text: input.claim.text, claimDate: input.claim.claimDate ?? null, appearanceUrl: input.claim.appearanceUrl ?? null, metadata: input.claim.metadata, createdBy: input.createdBy })
      .returning({ id: s.claims.id });
    const [row] = await tx
      .insert(s.comparisons)
      .values({ claimId: claim!.id, corpusId: input.corpusId, methods: input.methods, ensemble: input.ensemble, createdBy: input.createdBy })
      .returning({ id: s.comparisons.id });
    return { id: row!.id, claimId: claim!.id };
  });
}

/** Records which debate answers which requested method (the page lists them in the order asked). */
export async function setComparisonMethods(db: Database, id: string, methods: ComparisonMethod[]) {
  await db.update(s.comparisons).set({ methods }).where(eq(s.comparisons.id, id));
}

/**
 * Takes back a comparison whose debates could not all be created: deleting its claim removes the
 * comparison and any debate already made (both cascade), so nothing is left half-made.
 */
export async function discardComparison(db: Database, id: string) {
  const [row] = await db.select({ claimId: s.comparisons.claimId }).from(s.comparisons).where(eq(s.comparisons.id, id));
  if (row) await db.delete(s.claims).where(eq(s.claims.id, row.claimId));
}

export async function getComparison(db: Database, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db.select().from(s.comparisons).where(eq(s.comparisons.id, id));
  return row ?? null;
}

/** Calls, tokens and money per debate from every recorded model call, as the debate page's totals count them. */
async function usageByDebate(db: Database, debateIds: string[]) {
  if (!debateIds.length) return new Map<string, { calls: number; promptTokens: number; completionTokens: number; costUsd: number | null }>();
  const rows = await db
    .select({
      debateId: s.llmCalls.debateId,
      calls: sql<number>`count(*)::int`,
      promptTokens: sql<number>`coalesce(sum(${s.llmCalls.promptTokens}), 0)::int`,
      completionTokens: sql<number>`coalesce(sum(${s.llmCalls.completionTokens}), 0)::int`,
      costUsd: sql<number | null>`sum(${s.llmCalls.costUsd})`,
    })
    .from(s.llmCalls)
    .where(inArray(s.llmCalls.debateId, debateIds))
    .groupBy(s.llmCalls.debateId);
  return new Map(rows.map((r) => [r.debateId!, { calls: r.calls, promptTokens: r.promptTokens, completionTokens: r.completionTokens, costUsd: r.costUsd === null ? null : Number(r.costUsd) }]));
}

function durationOf(d: { status: s.DebateStatus; startedAt: Date | null; finishedAt: Date | null; heartbeatAt: Date | null }, now: number): number | null {
  if (!d.startedAt) return null;
  const end = d.status === "running" ? now : (d.finishedAt?.getTime() ?? d.heartbeatAt?.getTime() ?? null);
  return end === null ? null : Math.max(0, end - d.startedAt.getTime());
}

function verdictOf(protocol: string, v: { label: string; reason: string | null; confidence: number | null }, decidedBy: string | null, turns: Array<{ role: string; kind: string; phase: string; content: string; status: string }>): NonNullable<ComparisonMember["verdict"]> {
  const people = peopleVerdict(protocol, v, turns);
  const fromTurns = !v.reason?.trim() && people.reasonNote ? (findMethod(protocol)?.reasonFromTurns?.(v, turns)?.text ?? null) : null;
  return { label: v.label, productLabel: productLabel(protocol, v.label), confidence: v.confidence, reason: v.reason?.trim() ? v.reason : fromTurns, reasonNote: people.reasonNote, decidedBy };
}

/** Everything the comparison page shows, computed from the debates as they are now (live while they run). */
export async function getComparisonView(db: Database, id: string): Promise<ComparisonView | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [head] = await db
    .select({ comparison: s.comparisons, claim: { id: s.claims.id, text: s.claims.text }, corpus: { id: s.corpora.id, name: s.corpora.name } })
    .from(s.comparisons)
    .innerJoin(s.claims, eq(s.claims.id, s.comparisons.claimId))
    .leftJoin(s.corpora, eq(s.corpora.id, s.comparisons.corpusId))
    .where(eq(s.comparisons.id, id));
  if (!head) return null;
  const { comparison } = head;
  const rows = await db
    .select({ debate: s.debates, verdict: s.verdicts })
    .from(s.debates)
    .leftJoin(s.verdicts, and(eq(s.verdicts.debateId, s.debates.id), eq(s.verdicts.isFinal, true)))
    .where(eq(s.debates.comparisonId, id))
    .orderBy(s.debates.createdAt);
  const usage = await usageByDebate(db, rows.map((r) => r.debate.id));
  // A method whose verdict carries no reason (ZoFia's judge answers with a label) gives it from its
  // turns: read only for those finished debates, only their spoken turns.
  const needTurns = rows.filter((r) => r.verdict && !r.verdict.reason?.trim() && findMethod(r.debate.protocol)?.reasonFromTurns).map((r) => r.debate.id);
  const spoken = needTurns.length
    ? await db
        .select({ debateId: s.turns.debateId, role: s.turns.role, kind: s.turns.kind, phase: s.turns.phase, content: s.turns.content, status: s.turns.status })
        .from(s.turns)
        .where(and(inArray(s.turns.debateId, needTurns), eq(s.turns.kind, "speech")))
        .orderBy(s.turns.seq)
    : [];
  // The order the methods were asked for; a debate the request does not name (none expected) comes last.
  const position = new Map(comparison.methods.map((m, i) => [m.debateId, i] as const));
  rows.sort((a, b) => (position.get(a.debate.id) ?? 1e9) - (position.get(b.debate.id) ?? 1e9));
  const now = Date.now();
  const members: ComparisonMember[] = rows.map(({ debate: d, verdict: v }) => {
    const preset = comparison.methods.find((m) => m.debateId === d.id)?.preset ?? null;
    const u = usage.get(d.id) ?? { calls: 0, promptTokens: 0, completionTokens: 0, costUsd: null };
    const decidedBy = v?.details && typeof v.details.decidedBy === "string" ? v.details.decidedBy : null;
    return {
      debateId: d.id,
      protocol: d.protocol,
      preset,
      title: methodTitle(d.protocol, preset),
      status: d.status,
      verdict: v ? verdictOf(d.protocol, v, decidedBy, spoken.filter((t) => t.debateId === d.id)) : null,
      tokens: { prompt: u.promptTokens, completion: u.completionTokens },
      calls: u.calls,
      costUsd: u.costUsd,
      durationMs: durationOf(d, now),
      error: d.error?.message ?? null,
    };
  });
  const labelled = members.map((m) => ({ protocol: m.protocol, productLabel: m.status === "completed" ? (m.verdict?.productLabel ?? null) : null }));
  const ensemble = comparison.ensemble
    ? ensembleVote(
        comparison.ensemble,
        members.map((m, i) => ({ debateId: m.debateId, protocol: m.protocol, productLabel: labelled[i]!.productLabel, confidence: m.verdict?.confidence ?? null, pending: m.status === "queued" || m.status === "running" })),
      )
    : null;
  return {
    id: comparison.id,
    createdAt: comparison.createdAt,
    createdBy: comparison.createdBy,
    claim: head.claim,
    corpus: head.corpus?.id ? { id: head.corpus.id, name: head.corpus.name } : null,
    ensemble,
    agreement: agreementOf(labelled),
    members,
  };
}

export type ComparisonListRow = {
  id: string;
  createdAt: Date;
  claim: string;
  ensemble: EnsembleMethod | null;
  methods: Array<{ debateId: string; protocol: string; preset: string | null; status: s.DebateStatus; label: string | null; productLabel: string | null; confidence: number | null }>;
};

/** Newest first; `before` (a created-at and id) pages on without skipping rows created at the same instant. */
export async function listComparisons(db: Database, opts: { limit?: number; before?: { createdAt: Date; id: string } } = {}): Promise<ComparisonListRow[]> {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  const b = opts.before;
  const heads = await db
    .select({ id: s.comparisons.id, createdAt: s.comparisons.createdAt, ensemble: s.comparisons.ensemble, methods: s.comparisons.methods, claim: s.claims.text })
    .from(s.comparisons)
    .innerJoin(s.claims, eq(s.claims.id, s.comparisons.claimId))
    .where(b ? or(lt(s.comparisons.createdAt, b.createdAt), and(eq(s.comparisons.createdAt, b.createdAt), lt(s.comparisons.id, b.id))) : undefined)
    .orderBy(desc(s.comparisons.createdAt), desc(s.comparisons.id))
    .limit(limit);
  if (!heads.length) return [];
  const debates = await db
    .select({ id: s.debates.id, comparisonId: s.debates.comparisonId, protocol: s.debates.protocol, status: s.debates.status, label: s.verdicts.label, confidence: s.verdicts.confidence })
    .from(s.debates)
    .leftJoin(s.verdicts, and(eq(s.verdicts.debateId, s.debates.id), eq(s.verdicts.isFinal, true)))
    .where(inArray(s.debates.comparisonId, heads.map((h) => h.id)));
  return heads.map((h) => ({
    id: h.id,
    createdAt: h.createdAt,
    claim: h.claim,
    ensemble: h.ensemble ?? null,
    methods: h.methods.flatMap((m) => {
      const d = debates.find((x) => x.id === m.debateId);
      if (!d) return [];
      return [{ debateId: d.id, protocol: d.protocol, preset: m.preset, status: d.status, label: d.label, productLabel: d.label ? productLabel(d.protocol, d.label) : null, confidence: d.confidence }];
    }),
  }));
}

export { comparisonForShare, createComparisonShare, debateInSharedComparison, listComparisonShares, revokeComparisonShare } from "./comparison-shares";

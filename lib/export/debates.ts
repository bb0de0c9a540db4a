import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { MAX_ROWS_PER_STATEMENT } from "@/db/bulk";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { cursorAt, keysetAfter, keysetPages, type Cursor } from "@/db/queries/keyset";
import { notesOf } from "@/db/queries/debate-notes";
import { decisionWithoutVerdicts, matchDecisionSchema } from "@/lib/matching/decision";
import type { MatchDecision } from "@/lib/matching/types";
import { EVERYTHING, type LabelScope } from "./scope";
import { findMethod } from "@/lib/debate/methods";
import { plainStep, type MethodDefinition } from "@/lib/debate/definition";
import { plainWords } from "@/lib/debate/plain-words";

/*
 * Debates for export, read in pages by keyset (created_at, id), so the 50,000th page costs what the
 * first does and memory holds one page at a time, whatever the size of the database. The cursor is
 * exact (see db/queries/keyset.ts): a millisecond Date cursor repeated the last page forever.
 */

export type ExportFilters = {
  corpus?: string;
  run?: string;
  status?: string;
  /** One comparison's debates (lib/compare/export.ts), whatever their status unless `status` is given. */
  comparison?: string;
  /** Who the export is for, under blind annotation (./scope.ts); everything when absent. */
  scope?: LabelScope;
};

export type ExportedDebate = {
  id: string;
  protocol: string;
  variant: string | null;
  status: string;
  evidenceMode: string;
  models: Record<string, string>;
  corpus: string | null;
  evalRun: { id: string; name: string } | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  claim: {
    id: string;
    text: string;
    date: string | null;
    speaker: string | null;
    appearanceUrl: string | null;
    dataset: string | null;
    datasetClaimId: string | null;
    nativeLabel: string | null;
    goldLabel: string | null;
  };
  /**
   * Claim matching before the start (lib/matching/types.ts): the earlier checks the claim matched
   * and what the person chose, or `{ choice: "no-match" }`; null when matching was not asked for.
   * Without the matches' ratings when the export hides gold labels (blind annotation).
   */
  matchDecision: MatchDecision | null;
  /** The starting pool (origin `claim`) and what tools added during the debate (origin `tool:<provider>`, the turn that added it, who could read it). */
  evidence: Array<{
    rank: number;
    id: string | null;
    source: string;
    title: string | null;
    url: string | null;
    text: string;
    origin?: string;
    addedSeq?: number | null;
    visibleTo?: string[] | null;
    publishedAt?: string | null;
    metadata?: Record<string, unknown> | null;
  }>;
  turns: Array<{
    id: string;
    seq: number;
    round: number;
    phase: string;
    role: string;
    kind: string;
    status: string;
    /** The step as people read it: answer markers ("DECISION:", "[REASON]") and JSON turned into words. */
    content: string;
    /** The text exactly as the model or step wrote it, markers included (what `import` stores back). */
    contentRaw: string;
    model: string | null;
    promptTokens: number | null;
    completionTokens: number | null;
    costUsd: number | null;
    latencyMs: number | null;
    citations: number[];
    /** The protocol's signals (queries, labels, scores, tool calls); sentence vectors are left out (recomputable, and large). */
    metadata?: Record<string, unknown> | null;
  }>;
  /** The method's own records beside its turns (ctx.note), by kind and key; `value` is in the method's shape (RADAR's checkpoints: after, round, pStop ...). */
  notes: Array<{ kind: string; key: string; value: Record<string, unknown> }>;
  /**
   * What people put into the debate while it ran (lib/debate/interventions), oldest first, with
   * the turn each entered before: a debate with any applied is not the agents' work alone.
   */
  interventions: Array<{
    kind: string;
    summary: string;
    by: string;
    at: string;
    status: string;
    refusal: string | null;
    beforeSeq: number | null;
    /** The identity of the turn it entered before (round, phase, role, kind), so a resumed run gives it to the same step; absent in files from before it was exported. */
    beforeStep?: string | null;
    answeredBySeq: number | null;
    evidenceRank: number | null;
    appliedAt?: string | null;
    payload: Record<string, unknown>;
  }>;
  verdict: {
    label: string;
    reason: string | null;
    confidence: number | null;
    stoppedEarly: boolean;
    roundsCompleted: number | null;
    createdAt: string;
    /** How it was reached (decidedBy, stopReason) and the protocol's parts. */
    details?: Record<string, unknown> | null;
    /** A panel's individual ballots. */
    panel?: Array<{
      judgeRole: string;
      label: string;
      reason: string | null;
      confidence: number | null;
      details: Record<string, unknown> | null;
    }>;
  } | null;
  totals: { tokens: number; costUsd: number | null; seconds: number | null };
  /** Every version of every annotator's label, oldest first: the export loses no history. */
  annotations: Array<{
    annotator: string;
    version: number;
    createdAt: string;
    goldLabel: string | null;
    nativeLabel: string | null;
    judgeCorrect: boolean | null;
    rationale: string | null;
    turnFlags: Array<{ turnId: string; flag: string; note?: string }>;
    evidenceFlags: Array<{ rank: number; relevant: boolean }>;
    durationSeconds: number | null;
  }>;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/*
 * Benchmark importers keep who made a claim and where in the claim's metadata (AVeriTeC's
 * `speaker`, for instance) rather than in the columns: the export reads both, columns first.
 */
function metaText(meta: Record<string, unknown> | null, ...keys: string[]): string | null {
  for (const k of keys) {
    const v = meta?.[k];
    if (typeof v === "string" && v.trim()) return v.trim();
  }
  return null;
}

function metaUrl(meta: Record<string, unknown> | null, ...keys: string[]): string | null {
  const v = metaText(meta, ...keys);
  return v && /^https?:\/\/\S+$/i.test(v) ? v : null;
}

function where(f: ExportFilters, after: Cursor | null): SQL | undefined {
  const conds: SQL[] = f.comparison && !f.status ? [] : [sql`${s.debates.status} = ${f.status ?? "completed"}`];
  if (f.comparison) conds.push(sql`${s.debates.comparisonId} = ${f.comparison}`);
  if (f.corpus) conds.push(sql`${s.debates.corpusId} = (select id from ${s.corpora} where name = ${f.corpus})`);
  if (f.run)
    conds.push(
      sql`${s.debates.evalRunId} in (select id from ${s.evalRuns} where id::text = ${f.run} or name = ${f.run})`,
    );
  const scope = f.scope ?? EVERYTHING;
  if (scope.blind) {
    conds.push(sql`(exists (select 1 from ${s.annotations} a where a.debate_id = ${s.debates.id} and a.annotator_id = ${scope.annotatorId})
      or (select count(distinct a.annotator_id) from ${s.annotations} a where a.debate_id = ${s.debates.id}) >= ${scope.overlap})`);
  }
  const next = keysetAfter(s.debates.createdAt, s.debates.id, after);
  if (next) conds.push(next);
  return and(...conds);
}

type PageRow = {
  d: typeof s.debates.$inferSelect;
  c: typeof s.claims.$inferSelect;
  corpus: string | null;
  run: { id: string; name: string } | null;
  cursorAt: string;
};

/**
 * The stored decision when it fits the contract (as the pages read it); what does not is left out.
 * `hideVerdicts` (gold labels hidden): an earlier check's rating may be the very fact-check a
 * dataset's gold label comes from, so it is left out with them.
 */
function exportedDecision(stored: unknown, hideVerdicts: boolean): MatchDecision | null {
  const parsed = matchDecisionSchema.safeParse(stored);
  if (!parsed.success) return null;
  return hideVerdicts ? decisionWithoutVerdicts(parsed.data) : parsed.data;
}

/**
 * A turn's text as the debate page reads it (the method's plain step), so the JSONL's `content` has
 * no machine markers; an internal step the page does not show (sentence vectors) keeps its text
 * with markers turned into words. The raw text travels beside it as `contentRaw`.
 */
function readableTurn(def: MethodDefinition | undefined, t: typeof s.turns.$inferSelect): string {
  return (
    plainStep(def, { ...t, metadata: t.metadata as Record<string, unknown> | null })?.text ?? plainWords(t.content)
  );
}

function withoutVectors(m: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!m || !("vectors" in m)) return m;
  const { vectors: _dropped, ...rest } = m;
  return rest;
}

export async function* exportDebates(
  db: Database,
  f: ExportFilters = {},
  // A page's ids go into six `in (...)` lists: the statement bound (db/bulk.ts) keeps each one a
  // size PGlite takes, and one page of debates with their turns is what an export holds in memory.
  pageSize = MAX_ROWS_PER_STATEMENT,
): AsyncGenerator<ExportedDebate> {
  const size = Math.min(pageSize, MAX_ROWS_PER_STATEMENT);
  const scope = f.scope ?? EVERYTHING;
  const hideGold = scope.blind && scope.hideGold;
  const anonymous = !scope.blind && !!scope.anonymous;
  const pages = keysetPages<PageRow>(
    (after) =>
      db
        .select({
          d: s.debates,
          c: s.claims,
          corpus: s.corpora.name,
          run: { id: s.evalRuns.id, name: s.evalRuns.name },
          cursorAt: cursorAt(s.debates.createdAt),
        })
        .from(s.debates)
        .innerJoin(s.claims, eq(s.claims.id, s.debates.claimId))
        .leftJoin(s.corpora, eq(s.corpora.id, s.debates.corpusId))
        .leftJoin(s.evalRuns, eq(s.evalRuns.id, s.debates.evalRunId))
        .where(where(f, after))
        .orderBy(asc(s.debates.createdAt), asc(s.debates.id))
        .limit(size),
    (r) => ({ at: r.cursorAt, id: r.d.id }),
  );
  for await (const page of pages) {
    const ids = page.map((r) => r.d.id);
    const [evidence, turns, notes, verdicts, annotations, interventions] = await Promise.all([
      db
        .select()
        .from(s.debateEvidence)
        .where(inArray(s.debateEvidence.debateId, ids))
        .orderBy(asc(s.debateEvidence.debateId), asc(s.debateEvidence.rank)),
      db.select().from(s.turns).where(inArray(s.turns.debateId, ids)).orderBy(asc(s.turns.debateId), asc(s.turns.seq)),
      notesOf(db, ids),
      db.select().from(s.verdicts).where(inArray(s.verdicts.debateId, ids)).orderBy(asc(s.verdicts.judgeRole)),
      db
        .select({ a: s.annotations, email: s.users.email })
        .from(s.annotations)
        .innerJoin(s.users, eq(s.users.id, s.annotations.annotatorId))
        .where(inArray(s.annotations.debateId, ids))
        .orderBy(asc(s.annotations.debateId), asc(s.users.email), asc(s.annotations.version)),
      // One page of debates, at most the per-debate cap of interventions each.
      db
        .select()
        .from(s.debateInterventions)
        .where(inArray(s.debateInterventions.debateId, ids))
        .orderBy(asc(s.debateInterventions.createdAt), asc(s.debateInterventions.id)),
    ]);
    const group = <T extends { debateId: string }>(rows: T[]) => {
      const m = new Map<string, T[]>();
      for (const r of rows) m.set(r.debateId, [...(m.get(r.debateId) ?? []), r]);
      return m;
    };
    const ev = group(evidence);
    const tu = group(turns);
    const no = group(notes);
    const iv = group(interventions);
    const ve = new Map(verdicts.filter((v) => v.isFinal).map((v) => [v.debateId, v]));
    const ballots = group(verdicts.filter((v) => !v.isFinal));
    const an = group(annotations.map((r) => ({ ...r.a, email: r.email })));
    for (const { d, c, corpus, run } of page) {
      const ts = tu.get(d.id) ?? [];
      const def = findMethod(d.protocol);
      const v = ve.get(d.id);
      const priced = ts.filter((t) => t.costUsd != null);
      yield {
        id: d.id,
        protocol: d.protocol,
        variant: d.variant,
        status: d.status,
        evidenceMode: d.evidenceMode,
        models: d.models,
        corpus: corpus ?? null,
        evalRun: run?.id ? { id: run.id, name: run.name } : null,
        createdAt: d.createdAt.toISOString(),
        startedAt: iso(d.startedAt),
        finishedAt: iso(d.finishedAt),
        claim: {
          id: c.id,
          text: c.text,
          date: iso(c.claimDate),
          speaker: c.speaker ?? metaText(c.metadata, "speaker", "claimant"),
          appearanceUrl: c.appearanceUrl ?? metaUrl(c.metadata, "appearance_url", "original_claim_url", "claim_url"),
          dataset: c.dataset,
          datasetClaimId: c.datasetClaimId,
          nativeLabel: hideGold ? null : c.nativeLabel,
          goldLabel: hideGold ? null : c.goldLabel,
        },
        matchDecision: exportedDecision(d.matchDecision, hideGold),
        evidence: (ev.get(d.id) ?? []).map((e) => ({
          rank: e.rank,
          id: e.externalId,
          source: e.source,
          title: e.title,
          url: e.url,
          text: e.text,
          origin: e.origin,
          addedSeq: e.addedSeq,
          visibleTo: e.visibleTo,
          publishedAt: e.publishedAt,
          metadata: e.metadata,
        })),
        turns: ts.map((t) => ({
          id: t.id,
          seq: t.seq,
          round: t.round,
          phase: t.phase,
          role: t.role,
          kind: t.kind,
          status: t.status,
          content: readableTurn(def, t),
          contentRaw: t.content,
          model: t.model,
          promptTokens: t.promptTokens,
          completionTokens: t.completionTokens,
          costUsd: t.costUsd,
          latencyMs: t.latencyMs,
          citations: t.citations ?? [],
          metadata: withoutVectors(t.metadata),
        })),
        notes: (no.get(d.id) ?? []).map((n) => ({ kind: n.kind, key: n.key, value: n.value })),
        interventions: (iv.get(d.id) ?? []).map((r) => ({
          kind: r.kind,
          summary: r.summary,
          by: r.byName,
          at: r.createdAt.toISOString(),
          status: r.status,
          refusal: r.refusal,
          beforeSeq: r.beforeSeq,
          beforeStep: r.beforeStep,
          answeredBySeq: r.answeredBySeq,
          evidenceRank: r.evidenceRank,
          appliedAt: r.appliedAt?.toISOString() ?? null,
          payload: r.payload,
        })),
        verdict: v
          ? {
              label: v.label,
              reason: v.reason,
              confidence: v.confidence,
              stoppedEarly: v.stoppedEarly,
              roundsCompleted: v.roundsCompleted,
              createdAt: v.createdAt.toISOString(),
              details: v.details,
              panel: (ballots.get(d.id) ?? []).map((b) => ({
                judgeRole: b.judgeRole,
                label: b.label,
                reason: b.reason,
                confidence: b.confidence,
                details: b.details,
              })),
            }
          : null,
        totals: {
          tokens: ts.reduce((a, t) => a + (t.promptTokens ?? 0) + (t.completionTokens ?? 0), 0),
          // Unknown when any turn's price is unknown: a partial sum would understate the cost.
          costUsd: priced.length === ts.length ? priced.reduce((a, t) => a + t.costUsd!, 0) : null,
          seconds: d.startedAt && d.finishedAt ? (d.finishedAt.getTime() - d.startedAt.getTime()) / 1000 : null,
        },
        // Signed out (a public newsroom's comparison download): nobody's labels, so nobody's address.
        annotations: (anonymous ? [] : (an.get(d.id) ?? [])).map((a) => ({
          annotator: a.email,
          version: a.version,
          createdAt: a.createdAt.toISOString(),
          goldLabel: a.goldLabel,
          nativeLabel: a.nativeLabel,
          judgeCorrect: a.judgeCorrect,
          rationale: a.rationale,
          turnFlags: a.turnFlags ?? [],
          evidenceFlags: a.evidenceFlags ?? [],
          durationSeconds: a.durationSeconds,
        })),
      };
    }
  }
}

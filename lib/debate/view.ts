import type { Database } from "@/db/client";
import { debateTotals, loadDebate } from "@/db/queries/debates";
import type { MethodViewExtras, StepTurn } from "./definition";
import type { ViewNote } from "./view-notes";
import { matchDecisionSchema } from "@/lib/matching/decision";
import { findMethod } from "./methods";
import { listInterventions } from "@/db/queries/interventions";
import { interventionView } from "./interventions/view";

/**
 * The debate as a watcher sees it: the plain-JSON shape the page renders and the event stream's
 * snapshot carries. Dates become ISO strings so it crosses to the browser unchanged.
 */
export type DebateView = NonNullable<Awaited<ReturnType<typeof debateView>>>;

/** What the method's definition reads from its own steps for the page (its `view.extras`); only the method reads it. */
export function viewExtras(protocol: string, turns: ReadonlyArray<StepTurn>): MethodViewExtras {
  return findMethod(protocol)?.view?.extras?.(turns) ?? {};
}

export async function debateView(db: Database, id: string) {
  const d = await loadDebate(db, id);
  if (!d) return null;
  const totals = await debateTotals(db, id);
  const interventions = (await listInterventions(db, id)).map(interventionView);
  const iso = (x: Date | null) => (x ? x.toISOString() : null);

  return {
    id: d.debate.id,
    status: d.debate.status,
    protocol: d.debate.protocol,
    variant: d.debate.variant,
    config: d.debate.config,
    models: d.debate.models,
    evidenceMode: d.debate.evidenceMode,
    /** Method data read from its own steps (RADAR: the field its expert speaks for); only its views read it. */
    extras: viewExtras(d.debate.protocol, d.turns),
    error: d.debate.error?.message ?? null,
    createdAt: iso(d.debate.createdAt),
    startedAt: iso(d.debate.startedAt),
    finishedAt: iso(d.debate.finishedAt),
    /** Claim matching before the start: what matched and what the person chose; null when matching was not asked for. */
    matchDecision: d.debate.matchDecision ? (matchDecisionSchema.safeParse(d.debate.matchDecision).data ?? null) : null,
    claim: {
      text: d.claim.text,
      date: iso(d.claim.claimDate),
      title: typeof d.claim.metadata?.title === "string" ? d.claim.metadata.title : null,
      url: d.claim.appearanceUrl ?? null,
    },
    evidence: d.evidence.map((e) => ({
      rank: e.rank,
      text: e.text,
      title: e.title,
      url: e.url,
      source: e.source,
      score: e.score,
      denseRank: e.denseRank,
      lexicalRank: e.lexicalRank,
      publishedAt: e.publishedAt,
      origin: e.origin,
      addedSeq: e.addedSeq,
      visibleTo: e.visibleTo,
      metadata: e.metadata,
    })),
    turns: d.turns.map((t) => ({
      seq: t.seq,
      round: t.round,
      phase: t.phase,
      role: t.role,
      kind: t.kind,
      status: t.status,
      model: t.model,
      content: t.content,
      promptTokens: t.promptTokens,
      completionTokens: t.completionTokens,
      costUsd: t.costUsd,
      latencyMs: t.latencyMs,
      citations: t.citations ?? [],
      scores: t.scores,
      metadata: t.metadata,
      error: t.error,
    })),
    /** What people put into the debate while it ran (lib/debate/interventions), oldest first. */
    interventions,
    /** The method's own records (ctx.note; RADAR's checkpoints), read by its views with its schemas. */
    notes: d.notes.map((n): ViewNote => ({ kind: n.kind, key: n.key, value: n.value })),
    verdict: d.verdict
      ? {
          label: d.verdict.label,
          reason: d.verdict.reason,
          confidence: d.verdict.confidence,
          labelProbs: d.verdict.labelProbs,
          stoppedEarly: d.verdict.stoppedEarly,
          stopAfter: d.verdict.stopAfter,
          roundsCompleted: d.verdict.roundsCompleted,
          details: d.verdict.details,
        }
      : null,
    totals,
  };
}

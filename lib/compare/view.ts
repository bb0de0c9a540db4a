import type { Database } from "@/db/client";
import { listComparisonRows, readComparison, spokenTurns } from "@/db/queries/comparisons";
import type { DebateStatus } from "@/db/schema";
import { productLabel } from "@/lib/debate/protocols";
import { findMethod, peopleVerdict } from "@/lib/debate/methods";
import { agreementOf } from "./agreement";
import { ensembleVote } from "./ensemble";
import { methodTitle } from "./titles";
import type { ComparisonMember, ComparisonView, EnsembleMethod } from "./types";

/** What the comparison pages, the CLI and exports show: the stored rows read through db/, the comparison's own logic applied here. */

function durationOf(
  d: { status: DebateStatus; startedAt: Date | null; finishedAt: Date | null; heartbeatAt: Date | null },
  now: number,
): number | null {
  if (!d.startedAt) return null;
  const end = d.status === "running" ? now : (d.finishedAt?.getTime() ?? d.heartbeatAt?.getTime() ?? null);
  return end === null ? null : Math.max(0, end - d.startedAt.getTime());
}

function verdictOf(
  protocol: string,
  v: { label: string; reason: string | null; confidence: number | null },
  decidedBy: string | null,
  turns: Array<{ role: string; kind: string; phase: string; content: string; status: string }>,
): NonNullable<ComparisonMember["verdict"]> {
  const people = peopleVerdict(protocol, v, turns);
  const fromTurns =
    !v.reason?.trim() && people.reasonNote ? (findMethod(protocol)?.reasonFromTurns?.(v, turns)?.text ?? null) : null;
  return {
    label: v.label,
    productLabel: productLabel(protocol, v.label),
    confidence: v.confidence,
    reason: v.reason?.trim() ? v.reason : fromTurns,
    reasonNote: people.reasonNote,
    decidedBy,
  };
}

/** Everything the comparison page shows, computed from the debates as they are now (live while they run). */
export async function getComparisonView(db: Database, id: string): Promise<ComparisonView | null> {
  const read = await readComparison(db, id);
  if (!read) return null;
  const { comparison, rows, usage } = read;
  // A method whose verdict carries no reason (ZoFia's judge answers with a label) gives it from its
  // turns: read only for those finished debates, only their spoken turns.
  const needTurns = rows
    .filter((r) => r.verdict && !r.verdict.reason?.trim() && findMethod(r.debate.protocol)?.reasonFromTurns)
    .map((r) => r.debate.id);
  const spoken = await spokenTurns(db, needTurns);
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
      verdict: v
        ? verdictOf(
            d.protocol,
            v,
            decidedBy,
            spoken.filter((t) => t.debateId === d.id),
          )
        : null,
      tokens: { prompt: u.promptTokens, completion: u.completionTokens },
      calls: u.calls,
      costUsd: u.costUsd,
      durationMs: durationOf(d, now),
      error: d.error?.message ?? null,
    };
  });
  const labelled = members.map((m) => ({
    protocol: m.protocol,
    productLabel: m.status === "completed" ? (m.verdict?.productLabel ?? null) : null,
  }));
  const ensemble = comparison.ensemble
    ? ensembleVote(
        comparison.ensemble,
        members.map((m, i) => ({
          debateId: m.debateId,
          protocol: m.protocol,
          productLabel: labelled[i]!.productLabel,
          confidence: m.verdict?.confidence ?? null,
          pending: m.status === "queued" || m.status === "running",
        })),
      )
    : null;
  return {
    id: comparison.id,
    createdAt: comparison.createdAt,
    claim: read.claim,
    corpus: read.corpus?.id ? { id: read.corpus.id, name: read.corpus.name } : null,
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
  /** Where this row sits for a keyset cursor (db/queries/keyset.ts). */
  at: string;
  methods: Array<{
    debateId: string;
    protocol: string;
    preset: string | null;
    status: DebateStatus;
    label: string | null;
    productLabel: string | null;
    confidence: number | null;
  }>;
};

/** Newest first; `before` (a created-at and id) pages on without skipping rows created at the same instant. */
export async function listComparisons(
  db: Database,
  opts: { limit?: number; before?: { createdAt: Date; id: string }; cursor?: { at: string; id: string } } = {},
): Promise<ComparisonListRow[]> {
  const { heads, debates } = await listComparisonRows(db, opts);
  return heads.map((h) => ({
    id: h.id,
    createdAt: h.createdAt,
    claim: h.claim,
    ensemble: h.ensemble,
    at: h.at,
    methods: h.methods.flatMap((m) => {
      const d = debates.find((x) => x.id === m.debateId);
      if (!d) return [];
      return [
        {
          debateId: d.id,
          protocol: d.protocol,
          preset: m.preset,
          status: d.status,
          label: d.label,
          productLabel: d.label ? productLabel(d.protocol, d.label) : null,
          confidence: d.confidence,
        },
      ];
    }),
  }));
}

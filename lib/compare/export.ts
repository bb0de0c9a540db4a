import { withoutMarkers } from "@/lib/debate/plain-words";
import type { Database } from "@/db/client";
import { getComparisonView } from "./view";
import { exportDebates, type ExportedDebate } from "@/lib/export/debates";
import { csvCell } from "@/lib/export/formats";
import { decisionWords } from "@/lib/matching/decision";
import type { LabelScope } from "@/lib/export/scope";
import type { ComparisonView } from "./types";

/**
 * A comparison as a download: JSONL (the comparison first, with its ensemble and agreement, then
 * each debate exactly as /api/export writes it) or CSV (one line per method with verdict,
 * confidence, tokens, cost and time, then the ensemble on a line of its own, marked `ensemble`).
 */

export const COMPARISON_CSV_COLUMNS = [
  "row",
  "comparison_id",
  "claim",
  "debate_id",
  "protocol",
  "preset",
  "method",
  "status",
  "label",
  "product_label",
  "confidence",
  "reason",
  "llm_calls",
  "prompt_tokens",
  "completion_tokens",
  "cost_usd",
  "seconds",
  "ensemble_method",
  "explanation",
  // The claim-matching decision in words, as in the debates' CSV (lib/export/formats.ts).
  "claim_match",
  // Who made the claim (the claim's speaker), as in the debates' CSV.
  "claimant",
] as const;
type CsvRow = Record<(typeof COMPARISON_CSV_COLUMNS)[number], string | number | null>;

export type ComparisonExport = { comparison: ComparisonView; debates: ExportedDebate[]; csvRows: CsvRow[] };

export function comparisonCsvRows(view: ComparisonView, debates: readonly ExportedDebate[] = []): CsvRow[] {
  // Every method debated the one claim: any of its debates says who made it.
  const base = { comparison_id: view.id, claim: view.claim.text, claimant: debates[0]?.claim.speaker ?? null };
  const decisions = new Map(debates.map((d) => [d.id, decisionWords(d.matchDecision)]));
  const rows: CsvRow[] = view.members.map((m) => ({
    ...base,
    row: "method",
    debate_id: m.debateId,
    protocol: m.protocol,
    preset: m.preset,
    method: m.title,
    status: m.status,
    label: m.verdict?.label ?? null,
    product_label: m.verdict?.productLabel ?? null,
    confidence: m.verdict?.confidence ?? null,
    reason: m.verdict?.reason ? withoutMarkers(m.verdict.reason) : null,
    llm_calls: m.calls,
    prompt_tokens: m.tokens.prompt,
    completion_tokens: m.tokens.completion,
    cost_usd: m.costUsd,
    seconds: m.durationMs === null ? null : Math.round(m.durationMs / 100) / 10,
    ensemble_method: null,
    explanation: null,
    claim_match: (m.debateId && decisions.get(m.debateId)) || null,
  }));
  if (view.ensemble) {
    const e = view.ensemble;
    const sum = (f: (m: ComparisonView["members"][number]) => number) => view.members.reduce((a, m) => a + f(m), 0);
    const costs = view.members.map((m) => m.costUsd);
    rows.push({
      ...base,
      row: "ensemble",
      debate_id: null,
      protocol: null,
      preset: null,
      method: `Ensemble (${e.method})`,
      status: e.pending ? "provisional" : "final",
      label: e.label ?? (e.tie ? "TIE" : e.noMajority ? "NO MAJORITY" : null),
      product_label: e.label,
      confidence: null,
      reason: null,
      // The ensemble calls no model: its cost is the sum of the methods it votes over.
      llm_calls: sum((m) => m.calls),
      prompt_tokens: sum((m) => m.tokens.prompt),
      completion_tokens: sum((m) => m.tokens.completion),
      cost_usd: costs.some((c) => c === null) ? null : costs.reduce((a, c) => a! + c!, 0),
      seconds: null,
      ensemble_method: e.method,
      explanation: e.explanation,
      claim_match: null,
    });
  }
  return rows;
}

/** `forViewer`: the comparison as the person downloading may see it (lib/compare/visible.ts); the CLI exports it whole. */
export async function comparisonExportRows(
  db: Database,
  id: string,
  scope?: LabelScope,
  forViewer?: (view: ComparisonView) => Promise<ComparisonView>,
): Promise<ComparisonExport | null> {
  const full = await getComparisonView(db, id);
  if (!full) return null;
  const comparison = forViewer ? await forViewer(full) : full;
  const debates: ExportedDebate[] = [];
  for await (const d of exportDebates(db, { comparison: id, scope })) debates.push(d);
  return { comparison, debates, csvRows: comparisonCsvRows(comparison, debates) };
}

export function comparisonCsv(rows: CsvRow[]): string {
  const lines = [
    COMPARISON_CSV_COLUMNS.join(","),
    ...rows.map((r) => COMPARISON_CSV_COLUMNS.map((c) => csvCell(r[c])).join(",")),
  ];
  return lines.join("\r\n") + "\r\n";
}

export function comparisonJsonl(e: ComparisonExport): string {
  const head = { type: "comparison", ...e.comparison, createdAt: e.comparison.createdAt.toISOString() };
  return (
    [
      JSON.stringify(head),
      ...e.debates.map((d) => JSON.stringify({ type: "debate", comparisonId: e.comparison.id, ...d })),
    ].join("\n") + "\n"
  );
}

import Link from "next/link";
import type { ComparisonMember, EnsembleResult } from "@/lib/compare/types";
import { LABEL_STYLE } from "@/components/debate/verdict-card";
import { verdictInWords } from "@/lib/debate/methods";
import { ensembleLabelWords } from "./outcome-panel";
import {
  confidenceWords,
  costWords,
  durationWords,
  isActive,
  labelWords,
  memberName,
  noLabelWords,
  statusWords,
  tokensWords,
} from "./words";

/*
 * One row per method. On a wide screen a table (a grid of rows, so every cell lines up); on a phone
 * each row becomes a card with its labels shown, so nothing scrolls sideways.
 */

const GRID =
  "md:grid md:grid-cols-[minmax(0,1.6fr)_minmax(0,1.3fr)_repeat(6,minmax(0,0.8fr))] md:items-baseline md:gap-3";
const HEADINGS = ["Method", "Verdict", "Confidence", "Tokens", "Model calls", "Cost", "Time", "Status"];

/** On a phone the cells sit two to a line (the verdict and the method on their own), so a card stays short. */
function Cell({
  label,
  children,
  testId,
  wide = false,
}: {
  label: string;
  children: React.ReactNode;
  testId?: string;
  wide?: boolean;
}) {
  return (
    <div
      className={`flex min-w-0 justify-between gap-2 py-0.5 md:block md:py-0 ${wide ? "col-span-2 md:col-span-1" : ""}`}
      data-testid={testId}
    >
      <span className="text-black/60 md:sr-only">{label}</span>
      <span className="min-w-0 text-right break-words md:text-left">{children}</span>
    </div>
  );
}

export function VerdictBadge({ m }: { m: ComparisonMember }) {
  const v = m.verdict;
  if (isActive(m) || !v) return <span className="text-black/60">{noLabelWords(m)}</span>;
  return (
    <span className="inline-flex flex-wrap items-baseline justify-end gap-1 md:justify-start">
      {v.productLabel ? (
        <span className={`rounded px-1.5 py-0.5 text-sm font-semibold ${LABEL_STYLE[v.productLabel]}`}>
          {labelWords(v.productLabel)}
        </span>
      ) : (
        <span className="text-black/70">{noLabelWords(m)}</span>
      )}
      {v.productLabel && verdictInWords(m.protocol, v.label).own ? (
        <span className="text-xs text-black/60">({verdictInWords(m.protocol, v.label).own})</span>
      ) : null}
    </span>
  );
}

export function MembersTable({
  members,
  ensemble,
  hrefFor,
}: {
  members: ComparisonMember[];
  ensemble: EnsembleResult | null;
  hrefFor: (debateId: string) => string | null;
}) {
  return (
    <section aria-label="Each method's result" className="space-y-2">
      <div
        aria-hidden
        className={`hidden border-b border-black/10 pb-1 text-xs font-semibold uppercase tracking-wide text-black/60 ${GRID}`}
      >
        {HEADINGS.map((h) => (
          <div key={h}>{h}</div>
        ))}
      </div>
      {members.map((m) => (
        <div
          key={m.debateId}
          data-testid="compare-row"
          data-protocol={m.protocol}
          data-status={m.status}
          data-product={m.status === "completed" ? (m.verdict?.productLabel ?? "") : ""}
          className={`grid grid-cols-2 gap-x-4 rounded-lg border border-black/10 bg-white p-3 text-sm md:rounded-none md:border-0 md:border-b md:bg-transparent md:px-0 md:py-2 ${GRID}`}
        >
          <div className="col-span-2 mb-1 font-semibold md:col-span-1 md:mb-0">
            {hrefFor(m.debateId) ? (
              <Link
                href={hrefFor(m.debateId)!}
                className="underline decoration-black/30 underline-offset-2 hover:decoration-black"
              >
                {memberName(m, members)}
              </Link>
            ) : (
              memberName(m, members)
            )}
            {m.preset ? <span className="block text-xs font-normal text-black/60">{m.title}</span> : null}
          </div>
          <Cell label="Verdict" testId="compare-verdict" wide>
            <VerdictBadge m={m} />
          </Cell>
          <Cell label="Confidence">{confidenceWords(m.verdict?.confidence)}</Cell>
          <Cell label="Tokens" testId="compare-tokens">
            {tokensWords(m.tokens)}
            {isActive(m) ? <span className="text-black/60"> so far</span> : null}
          </Cell>
          <Cell label="Model calls">{m.calls}</Cell>
          <Cell label="Cost" testId="compare-cost">
            {costWords(m.costUsd)}
          </Cell>
          <Cell label="Time">{durationWords(m.durationMs)}</Cell>
          <Cell label="Status" wide>
            <span className={m.status === "failed" ? "text-red-800" : ""}>{statusWords(m.status)}</span>
            {m.error ? <span className="block text-xs text-red-800">{m.error}</span> : null}
          </Cell>
        </div>
      ))}
      {ensemble ? (
        <div
          data-testid="compare-ensemble-row"
          className={`grid grid-cols-2 gap-x-4 rounded-lg border border-dashed border-black/30 bg-stone-50 p-3 text-sm md:rounded-md md:px-2 md:py-2 ${GRID}`}
        >
          <div className="col-span-2 mb-1 font-semibold md:col-span-1 md:mb-0">
            Ensemble
            <span className="block text-xs font-normal text-black/60">
              {ensemble.method === "majority" ? "majority vote" : "confidence-weighted vote"} of {ensemble.votes.length}{" "}
              methods, not a method of its own
            </span>
          </div>
          <Cell label="Verdict" testId="compare-verdict" wide>
            <span
              className={`rounded px-1.5 py-0.5 text-sm font-semibold ${ensemble.label && !ensemble.tie ? LABEL_STYLE[ensemble.label] : "bg-stone-200 text-black"}`}
            >
              {ensembleLabelWords(ensemble)}
            </span>
          </Cell>
          <Cell label="Confidence">—</Cell>
          <Cell label="Tokens">none of its own</Cell>
          <Cell label="Model calls">0</Cell>
          <Cell label="Cost">$0</Cell>
          <Cell label="Time">—</Cell>
          <Cell label="Status">{ensemble.pending > 0 ? `provisional (${ensemble.pending} running)` : "final"}</Cell>
          <p className="col-span-full mt-1 text-xs text-black/70 md:mt-0">{ensemble.explanation}</p>
        </div>
      ) : null}
    </section>
  );
}

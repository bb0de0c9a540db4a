"use client";

import { STATUS_WORDS, type EvidenceRow } from "./read";

const STATUS_STYLE: Record<string, string> = {
  admitted: "bg-emerald-100 text-emerald-900",
  accepted: "bg-emerald-100 text-emerald-900",
  disputed: "bg-amber-100 text-amber-900",
  discarded: "bg-red-100 text-red-900",
  unparsed: "bg-red-100 text-red-900",
  rejected: "bg-stone-200 text-stone-800",
};
const f2 = (x: number | null) => (x === null ? "–" : x.toFixed(2));

/**
 * The court's weighing of each passage, as rows that wrap (no table to scroll sideways on a phone):
 * relevance r, credibility c, weight w = r × c, the status and the arbiter's reason.
 */
export function EvidenceTable({
  rows,
  selected,
  onSelect,
}: {
  rows: EvidenceRow[];
  selected: number | null;
  onSelect: (rank: number) => void;
}) {
  if (!rows.length) return <p className="text-sm text-black/60">Nothing weighed yet.</p>;
  return (
    <ol className="min-w-0 space-y-2" data-testid="proclaim-evidence">
      {rows.map((e) => (
        <li
          key={e.rank}
          id={`evidence-E${e.rank}`}
          data-testid="proclaim-evidence-row"
          data-status={e.status}
          className={`min-w-0 rounded-md border p-3 text-sm ${selected === e.rank ? "border-accent ring-2 ring-accent/40" : "border-black/10"} bg-white`}
        >
          <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
            <button
              type="button"
              className="font-mono text-xs text-black/60 underline decoration-dotted"
              onClick={() => onSelect(e.rank)}
            >
              E{e.rank}
            </button>
            <span className="min-w-0 break-words font-medium">{e.title}</span>
            <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_STYLE[e.status] ?? "bg-stone-100"}`}>
              {STATUS_WORDS[e.status] ?? e.status}
            </span>
          </div>
          <p className="mt-1 text-xs text-black/70">
            {e.eta !== null ? (
              <>
                novelty η {f2(e.eta)}
                {e.side ? ` · found for the side ${e.side} the claim` : ""}
              </>
            ) : (
              <>
                relevance {f2(e.r)} × credibility {f2(e.c)} = weight <strong>{f2(e.w)}</strong>
              </>
            )}
          </p>
          {e.reason ? <p className="mt-1 break-words text-xs text-black/60">Why: {e.reason}</p> : null}
          {selected === e.rank ? <p className="mt-2 whitespace-pre-wrap break-words text-xs">{e.text}</p> : null}
        </li>
      ))}
    </ol>
  );
}

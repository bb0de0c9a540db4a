"use client";

import { useEffect, useRef } from "react";
import type { EvidenceMark } from "./interventions/read";

type Evidence = {
  rank: number;
  text: string;
  title: string | null;
  url: string | null;
  source: string;
  score: number | null;
  denseRank: number | null;
  lexicalRank: number | null;
  /** `tool:<provider>` for passages a search added during the debate. */
  origin?: string | null;
  metadata?: Record<string, unknown> | null;
};

/** A passage a search found during the debate: which search and where, with the stand-in said in words. */
function foundBy(e: Evidence): string | null {
  if (!e.origin?.startsWith("tool:")) return null;
  const m = e.metadata ?? {};
  const label = typeof m.label === "string" ? m.label : e.origin.slice(5);
  // A query of quoted phrases (ZoFia's keywords) already shows its own quotes.
  const query = typeof m.query === "string" ? (m.query.includes('"') ? ` for ${m.query}` : ` for “${m.query}”`) : "";
  return `found by a search${query} · ${label}`;
}

export function EvidencePanel({
  evidence,
  selected,
  onSelect,
  citedBy,
  marks,
}: {
  evidence: Evidence[];
  selected: number | null;
  onSelect: (rank: number | null) => void;
  citedBy: Map<number, number[]>;
  /** What people did to a passage (added it, struck it): said on the passage itself. */
  marks?: Map<number, EvidenceMark>;
}) {
  const refs = useRef(new Map<number, HTMLLIElement>());
  useEffect(() => {
    if (selected !== null) refs.current.get(selected)?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [selected]);
  return (
    <aside aria-label="Evidence" className="min-w-0 lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:overflow-y-auto">
      <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-black/60">Evidence ({evidence.length})</h2>
      <ol className="space-y-2">
        {evidence.map((e) => {
          const turns = citedBy.get(e.rank) ?? [];
          const mark = marks?.get(e.rank);
          return (
            <li
              key={e.rank}
              ref={(el) => {
                if (el) refs.current.set(e.rank, el);
              }}
              data-testid="evidence"
              data-rank={e.rank}
              data-selected={selected === e.rank}
              data-struck={mark?.struck ? "true" : undefined}
              className={`rounded-md border p-3 text-sm transition-colors ${selected === e.rank ? "border-accent bg-orange-50" : "border-black/10 bg-white"}`}
            >
              <button
                type="button"
                className="mb-1 text-left font-semibold"
                onClick={() => onSelect(selected === e.rank ? null : e.rank)}
                aria-pressed={selected === e.rank}
              >
                E{e.rank}
                {e.title ? <span className="font-normal text-black/60"> · {e.title}</span> : null}
              </button>
              {mark?.struck ? (
                <p className="mb-1 rounded bg-red-50 px-2 py-1 text-xs font-medium text-red-900" data-testid="struck">
                  Struck by {mark.struck.by}; later turns no longer see it.
                  <span className="block font-normal">{mark.struck.summary}</span>
                </p>
              ) : null}
              <p className={`whitespace-pre-wrap break-words ${mark?.struck ? "text-black/50 line-through" : ""}`}>
                {e.text}
              </p>
              <p className="mt-1 text-xs text-black/60">
                {mark?.addedBy
                  ? `added by ${mark.addedBy}`
                  : (foundBy(e) ?? (e.source === "earlier-check" ? "earlier fact-check" : e.source))}
                {e.denseRank != null || e.lexicalRank != null
                  ? ` · dense #${e.denseRank ?? "–"}, lexical #${e.lexicalRank ?? "–"}`
                  : ""}
                {turns.length ? ` · cited by turn${turns.length > 1 ? "s" : ""} ${turns.join(", ")}` : " · not cited"}
                {e.url && (/^https?:\/\//i.test(e.url) || (e.source === "earlier-check" && /^\/(?!\/)/.test(e.url))) ? (
                  <>
                    {" · "}
                    <a className="underline" href={e.url} rel="noopener noreferrer nofollow" target="_blank">
                      source
                    </a>
                  </>
                ) : null}
              </p>
            </li>
          );
        })}
      </ol>
    </aside>
  );
}

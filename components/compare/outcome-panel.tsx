import type { ComparisonMember, EnsembleResult } from "@/lib/compare/types";
import { LABEL_STYLE } from "@/components/debate/verdict-card";
import { labelWords, outcome } from "./words";

const ENSEMBLE_METHOD_WORDS = {
  majority: "majority vote",
  "confidence-weighted": "vote weighted by each method's confidence",
} as const;

/** The ensemble's label as it reads: a tie or no votes yet are said, never shown as a label. */
export function ensembleLabelWords(e: EnsembleResult): string {
  if (e.tie) return "a tie";
  if (e.noMajority) return "no majority";
  return e.label ? labelWords(e.label) : "no verdict yet";
}

/**
 * What the methods concluded, before any number: the agreement sentence, the ensemble (when one
 * was asked for) named for what it is, and a plain warning while any method is still arguing.
 */
export function OutcomePanel({ members, ensemble }: { members: ComparisonMember[]; ensemble: EnsembleResult | null }) {
  const o = outcome({ members });
  const n = ensemble?.votes.length ?? members.length;
  return (
    <section
      aria-label="What the methods concluded"
      data-testid="compare-outcome"
      data-provisional={o.provisional ? "true" : "false"}
      className="space-y-3 rounded-lg border border-black/10 bg-white p-4 shadow-sm"
    >
      {o.provisional ? (
        <p className="text-sm font-medium text-amber-800" data-testid="compare-provisional">
          Provisional: {o.running} of {members.length} methods {o.running === 1 ? "is" : "are"} still arguing, so this
          may change.
        </p>
      ) : null}
      <p className="text-xl font-semibold leading-snug" data-testid="compare-agreement">
        {o.sentence}
      </p>
      {ensemble ? (
        <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="compare-ensemble-summary">
          <span className="text-black/70">
            Ensemble ({ENSEMBLE_METHOD_WORDS[ensemble.method]} of {n} methods, not a method of its own):
          </span>
          <span
            className={`rounded px-2 py-0.5 font-semibold ${ensemble.label && !ensemble.tie ? LABEL_STYLE[ensemble.label] : "bg-stone-200 text-black"}`}
          >
            {ensembleLabelWords(ensemble)}
          </span>
          {ensemble.pending > 0 ? (
            <span className="text-amber-800">provisional, {ensemble.pending} still running</span>
          ) : null}
        </p>
      ) : null}
    </section>
  );
}

"use client";

import { CitedText } from "./cited-text";

export const LABEL_STYLE: Record<string, string> = {
  TRUE: "bg-emerald-700 text-white",
  "HALF-TRUE": "bg-amber-500 text-black",
  FALSE: "bg-red-700 text-white",
  UNPARSED: "bg-stone-300 text-black",
};

type Verdict = {
  label: string;
  reason: string | null;
  confidence: number | null;
  labelProbs: Record<string, number> | null;
  stoppedEarly: boolean;
  stopAfter: string | null;
  roundsCompleted: number | null;
};

export function VerdictCard({ verdict, onCite }: { verdict: Verdict; onCite: (rank: number) => void }) {
  return (
    <section id="verdict" tabIndex={-1} aria-label="Verdict" data-testid="verdict" className="scroll-mt-4 rounded-lg border-2 border-black/80 bg-white p-5">
      <div className="flex flex-wrap items-center gap-3">
        <span className={`rounded px-3 py-1 text-lg font-bold tracking-wide ${LABEL_STYLE[verdict.label] ?? LABEL_STYLE.UNPARSED}`}>{verdict.label}</span>
        {verdict.confidence !== null ? <span className="text-sm text-black/70">confidence {(verdict.confidence * 100).toFixed(0)}%</span> : null}
        <span className="text-sm text-black/60">
          {verdict.stoppedEarly ? `stopped early after the ${verdict.stopAfter?.replace(/-/g, " ")}` : `after ${verdict.roundsCompleted ?? "?"} rounds`}
        </span>
      </div>
      {verdict.label === "UNPARSED" ? <p className="mt-3 text-sm">The judge did not give a verdict in the required format, even when asked again. No label was guessed.</p> : null}
      {verdict.reason ? (
        <div className="mt-3">
          <CitedText text={verdict.reason} onCite={onCite} />
        </div>
      ) : null}
      {verdict.labelProbs ? (
        <p className="mt-3 text-xs text-black/50">
          {Object.entries(verdict.labelProbs)
            .map(([l, p]) => `${l} ${(p * 100).toFixed(0)}%`)
            .join(" · ")}
        </p>
      ) : null}
    </section>
  );
}

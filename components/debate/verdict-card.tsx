"use client";

import { CitedText } from "./cited-text";
import { decidedByWords, productLabelOf, schemeName, stopReasonWords } from "./tool-mad/words";

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
  details?: Record<string, unknown> | null;
};

/**
 * A protocol's own label (FEVER's SUPPORTS) read on the product's scale first, its own words
 * beside it: reports and annotators compare on TRUE / HALF-TRUE / FALSE, the agents spoke the scheme.
 */
export function ProductAndScheme({ label, scheme }: { label: string; scheme: string }) {
  const product = productLabelOf(label);
  return (
    <span className="inline-flex flex-wrap items-center gap-2" data-testid="verdict-label">
      <span className={`rounded px-3 py-1 text-lg font-bold tracking-wide ${product ? LABEL_STYLE[product] : LABEL_STYLE.UNPARSED}`}>{product ?? label}</span>
      {product && product === label ? null : (
        <span className="text-sm text-black/70">
          {product ? (
            <>
              the agents&apos; {schemeName(scheme)} label: <strong>{label}</strong>
            </>
          ) : label === "UNPARSED" ? (
            "no readable label"
          ) : (
            <>({schemeName(scheme)} label; no rating on the TRUE / HALF-TRUE / FALSE scale)</>
          )}
        </span>
      )}
    </span>
  );
}

/** Who decided and why the debate stopped where it did, in words; nothing for a protocol that does not say. */
export function DecidedBy({ details }: { details?: Record<string, unknown> | null }) {
  const by = decidedByWords(typeof details?.decidedBy === "string" ? details.decidedBy : null);
  const why = stopReasonWords(typeof details?.stopReason === "string" ? details.stopReason : null);
  if (!by && !why) return null;
  return (
    <p className="mt-2 text-sm" data-testid="decided-by">
      {by ? <strong>{by}</strong> : null}
      {by && why ? " · " : null}
      {why ? <span className="text-black/70">stopped because {why}</span> : null}
    </p>
  );
}

type Means = Record<string, { F?: number | null; AR?: number | null; CS?: number | null }>;

/** The stability scores the judge was given (Tool-MAD): each agent's mean faithfulness and relevance. */
function JudgeScores({ details }: { details?: Record<string, unknown> | null }) {
  const means = details?.means as Means | undefined;
  if (!means || typeof means !== "object" || Object.keys(means).length === 0) return null;
  const fmt = (x: number | null | undefined) => (x == null ? "n/a" : x.toFixed(2));
  return (
    <div className="mt-3 text-xs text-black/70">
      <p className="font-medium">{details?.decidedBy === "judge" ? "Scores the judge weighed (mean over rounds)" : "Mean scores over rounds"}</p>
      <ul>
        {Object.entries(means).map(([agent, m]) => (
          <li key={agent}>
            {agent.replace(/-/g, " ")}: {m.CS !== undefined ? `consistency ${fmt(m.CS)}` : `faithfulness ${fmt(m.F)}, relevance ${fmt(m.AR)}`}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function VerdictCard({ verdict, onCite }: { verdict: Verdict; onCite: (rank: number) => void }) {
  const scheme = typeof verdict.details?.labelScheme === "string" ? verdict.details.labelScheme : null;
  const stopReason = typeof verdict.details?.stopReason === "string" ? verdict.details.stopReason : null;
  return (
    <section id="verdict" tabIndex={-1} aria-label="Verdict" data-testid="verdict" className="scroll-mt-4 rounded-lg border-2 border-black/80 bg-white p-5">
      <div className="flex flex-wrap items-center gap-3">
        {scheme ? <ProductAndScheme label={verdict.label} scheme={scheme} /> : <span className={`rounded px-3 py-1 text-lg font-bold tracking-wide ${LABEL_STYLE[verdict.label] ?? LABEL_STYLE.UNPARSED}`}>{verdict.label}</span>}
        {verdict.confidence !== null ? <span className="text-sm text-black/70">confidence {(verdict.confidence * 100).toFixed(0)}%</span> : null}
        <span className="text-sm text-black/60">
          {verdict.stoppedEarly && !stopReason ? `stopped early after the ${verdict.stopAfter?.replace(/-/g, " ")}` : `after ${verdict.roundsCompleted ?? "?"} ${verdict.roundsCompleted === 1 ? "round" : "rounds"}`}
        </span>
      </div>
      <DecidedBy details={verdict.details} />
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
      <JudgeScores details={verdict.details} />
    </section>
  );
}

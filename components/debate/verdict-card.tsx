"use client";

import { CitedText } from "./cited-text";
import { decidedByWords, stopReasonWords } from "./stop-words";
import type { ReactNode } from "react";
import type { StepTurn } from "@/lib/debate/definition";
import {
  findMethod,
  labelWords,
  methodDefinitions,
  methodTitle,
  productLabelOf,
  PRODUCT_WORDS,
  peopleVerdict,
  verdictInWords,
} from "@/lib/debate/methods";
import { withoutMarkers } from "@/lib/debate/plain-words";

/** The product-scale label first, the method's own label in its words beside it, and whose label it is. */
export function MethodLabel({ method, label }: { method: string; label: string }) {
  const w = verdictInWords(method, label);
  const product = w.product;
  return (
    <span className="inline-flex flex-wrap items-center gap-2" data-testid="verdict-label" data-product={product ?? ""}>
      <span
        className={`rounded px-3 py-1 text-lg font-bold tracking-wide ${product ? LABEL_STYLE[product] : LABEL_STYLE.UNPARSED}`}
      >
        {w.head}
      </span>
      {product && w.own === null ? null : (
        <span className="text-sm text-black/70">
          {product ? (
            <>
              {methodTitle(method)} said <strong>{w.own}</strong>
            </>
          ) : label === "UNPARSED" ? (
            "no readable label"
          ) : (
            <>{methodTitle(method)}&apos;s label; no rating on the true / half-true / false scale</>
          )}
        </span>
      )}
    </span>
  );
}

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
export function ProductAndScheme({ label, scheme, method }: { label: string; scheme: string; method?: string }) {
  // Without the method named, the definition that declares the scheme reads the label.
  const def = method ? findMethod(method) : methodDefinitions().find((d) => d.labels.schemes?.[scheme]);
  const product = def ? productLabelOf(def.name, label) : null;
  const schemeName = def?.labels.schemes?.[scheme] ?? scheme;
  // The label in the method's words (its definition holds every scheme's), never the code.
  const own = labelWords(def?.name ?? "", label);
  return (
    <span className="inline-flex flex-wrap items-center gap-2" data-testid="verdict-label">
      <span
        className={`rounded px-3 py-1 text-lg font-bold tracking-wide ${product ? LABEL_STYLE[product] : LABEL_STYLE.UNPARSED}`}
      >
        {product ? PRODUCT_WORDS[product] : own}
      </span>
      {product && product === label ? null : (
        <span className="text-sm text-black/70">
          {product ? (
            <>
              the agents&apos; {schemeName} label: <strong>{own}</strong>
            </>
          ) : label === "UNPARSED" ? (
            "no readable label"
          ) : (
            <>({schemeName} label; no rating on the true / half-true / false scale)</>
          )}
        </span>
      )}
    </span>
  );
}

/** Who decided and why the debate stopped where it did, in one sentence; nothing for a protocol that does not say. */
export function DecidedBy({ details }: { details?: Record<string, unknown> | null }) {
  const decidedBy = typeof details?.decidedBy === "string" ? details.decidedBy : null;
  const stopReason = typeof details?.stopReason === "string" ? details.stopReason : null;
  if (!decidedBy && !stopReason) return null;
  const by = decidedByWords(decidedBy);
  // Consensus is its own reason; anything else says why the debate ended where it did.
  const why =
    stopReason && !(decidedBy === "consensus" && stopReason === "consensus") ? stopReasonWords(stopReason) : null;
  return (
    <p className="mt-2 text-sm" data-testid="decided-by">
      {by ? <strong>{by}</strong> : null}
      {by && why ? ": " : null}
      {why ? <span className="text-black/70">{why}</span> : null}
    </p>
  );
}

/**
 * `method` given: the label is read through the method's definition (product scale first, its own
 * label beside it), and a method whose verdict has no reason of its own takes it from `turns`,
 * saying where it came from.
 */
export function VerdictCard({
  verdict,
  onCite,
  method,
  turns,
  extra,
}: {
  verdict: Verdict;
  onCite: (rank: number) => void;
  method?: string;
  turns?: readonly StepTurn[];
  /** What the method adds under its verdict (its views' `VerdictExtra`; Tool-MAD: the scores its judge weighed). */
  extra?: ReactNode;
}) {
  const scheme = typeof verdict.details?.labelScheme === "string" ? verdict.details.labelScheme : null;
  const people = method ? peopleVerdict(method, verdict, turns ?? []) : null;
  const reasonNote = !verdict.reason && people?.reasonNote ? people.reasonNote : null;
  const reasonText = verdict.reason
    ? withoutMarkers(verdict.reason)
    : reasonNote && method
      ? (findMethod(method)?.reasonFromTurns?.(verdict, turns ?? [])?.text ?? null)
      : null;
  const stopReason = typeof verdict.details?.stopReason === "string" ? verdict.details.stopReason : null;
  return (
    <section
      id="verdict"
      tabIndex={-1}
      aria-label="Verdict"
      data-testid="verdict"
      className="scroll-mt-4 rounded-lg border-2 border-black/80 bg-white p-5"
    >
      <div className="flex flex-wrap items-center gap-3">
        {scheme ? (
          <ProductAndScheme label={verdict.label} scheme={scheme} method={method} />
        ) : method ? (
          <MethodLabel method={method} label={verdict.label} />
        ) : (
          <span
            className={`rounded px-3 py-1 text-lg font-bold tracking-wide ${LABEL_STYLE[verdict.label] ?? LABEL_STYLE.UNPARSED}`}
          >
            {verdictInWords("", verdict.label).head}
          </span>
        )}
        {verdict.confidence !== null ? (
          <span className="text-sm text-black/70">confidence {(verdict.confidence * 100).toFixed(0)}%</span>
        ) : null}
        <span className="text-sm text-black/60">
          {verdict.stoppedEarly && !stopReason
            ? `stopped early after the ${verdict.stopAfter?.replace(/-/g, " ")}`
            : `after ${verdict.roundsCompleted ?? "?"} ${verdict.roundsCompleted === 1 ? "round" : "rounds"}`}
        </span>
      </div>
      <DecidedBy details={verdict.details} />
      {verdict.label === "UNPARSED" ? (
        <p className="mt-3 text-sm">
          The judge did not give a verdict in the required format, even when asked again. No label was guessed.
        </p>
      ) : null}
      {reasonText ? (
        <div className="mt-3">
          {reasonNote ? (
            <p className="mb-1 text-xs text-black/60" data-testid="reason-note">
              {reasonNote}
            </p>
          ) : null}
          <CitedText text={reasonText} onCite={onCite} />
        </div>
      ) : null}
      {verdict.labelProbs ? (
        <p className="mt-3 text-xs text-black/60">
          {Object.entries(verdict.labelProbs)
            .map(([l, p]) => `${verdictInWords(method ?? "", l).head} ${(p * 100).toFixed(0)}%`)
            .join(" · ")}
        </p>
      ) : null}
      {extra}
    </section>
  );
}

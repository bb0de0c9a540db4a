"use client";

import type { StepTurn } from "@/lib/debate/definition";
import type { InterventionView } from "@/lib/debate/interventions/contract";
import { CitedText } from "./cited-text";
import { PeopleVerdictHead } from "./people-verdict";
import { verdictInWords } from "@/lib/debate/methods";
import { LABEL_STYLE, DecidedBy, ProductAndScheme } from "./verdict-card";

type Verdict = {
  label: string;
  reason: string | null;
  confidence: number | null;
  stoppedEarly: boolean;
  stopAfter: string | null;
  roundsCompleted: number | null;
  /** decidedBy, stopReason and the protocol's own parts (lib/debate/types.ts VerdictRecord). */
  details?: Record<string, unknown> | null;
};

/** The reason's first sentence: the one line a reader needs before deciding to read on. */
export function firstSentence(text: string, max = 220) {
  const flat = text.replace(/\s+/g, " ").trim();
  const m = /^(.+?[.!?])(\s|$)/.exec(flat);
  const s = m ? m[1]! : flat;
  return s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s;
}

/**
 * What a journalist reads first once a debate is decided: the label, how sure the judge is, why
 * in one line, how long it took and what it cost, and a link down to the judge's full card.
 */
export function VerdictSummary({
  verdict,
  turns,
  cost,
  onCite,
  turnsUnit = "turn",
  scheme = null,
  method,
  steps = [],
  evidence = [],
  interventions = [],
}: {
  verdict: Verdict;
  turns: number;
  cost: string;
  onCite: (rank: number) => void;
  turnsUnit?: string;
  /** A protocol with its own label scheme (Tool-MAD's FEVER...): its label is shown beside the product's. */
  scheme?: string | null;
  /** Given: the head is the one verdict shape every method shares (./people-verdict.tsx), read through the method's definition. */
  method?: string;
  steps?: readonly StepTurn[];
  evidence?: ReadonlyArray<{ rank: number; title?: string | null; url?: string | null }>;
  /** What people put into the debate (the head says so when any entered it). */
  interventions?: readonly InterventionView[];
}) {
  const rounds = verdict.roundsCompleted ?? 0;
  return (
    <section
      aria-label="Verdict summary"
      data-testid="verdict-summary"
      className="rounded-lg border-2 border-black/80 bg-white p-4"
    >
      {method ? (
        <>
          <PeopleVerdictHead
            method={method}
            verdict={verdict}
            turns={steps}
            evidence={evidence}
            onCite={onCite}
            confidenceWords="judge's confidence"
            interventions={interventions}
          />
          <DecidedBy details={verdict.details} />
          {verdict.label === "UNPARSED" ? <Unparsed /> : null}
        </>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="text-sm font-medium text-black/60">Verdict</span>
            {scheme ? (
              <ProductAndScheme label={verdict.label} scheme={scheme} />
            ) : (
              <span
                className={`rounded px-3 py-1 text-lg font-bold tracking-wide ${LABEL_STYLE[verdict.label] ?? LABEL_STYLE.UNPARSED}`}
              >
                {verdictInWords("", verdict.label).head}
              </span>
            )}
            {verdict.confidence !== null ? (
              <span className="text-sm text-black/80">
                judge&apos;s confidence {(verdict.confidence * 100).toFixed(0)}%
              </span>
            ) : null}
          </div>
          <DecidedBy details={verdict.details} />
          {verdict.reason ? (
            <div className="mt-2">
              <CitedText text={firstSentence(verdict.reason)} onCite={onCite} />
            </div>
          ) : verdict.label === "UNPARSED" ? (
            <Unparsed />
          ) : null}
        </>
      )}
      <p className="mt-2 text-sm text-black/60">
        {rounds} {rounds === 1 ? "round" : "rounds"}
        {verdict.stoppedEarly && !verdict.details?.stopReason
          ? ` (stopped early after the ${verdict.stopAfter?.replace(/-/g, " ")})`
          : ""}{" "}
        · {turns} {turns === 1 ? turnsUnit : `${turnsUnit}s`} · {cost}
      </p>
      <a href="#verdict" className="mt-2 inline-block text-sm font-medium text-accent underline underline-offset-2">
        {verdict.details?.decidedBy === "consensus" ? "See how the agents agreed ↓" : "Read the judge's reasoning ↓"}
      </a>
    </section>
  );
}

/** Said instead of a verdict when the judge's answer could not be read. */
function Unparsed() {
  return <p className="mt-2 text-sm">The judge did not give a verdict in the required format; no label was guessed.</p>;
}

"use client";

import type { StepTurn } from "@/lib/debate/definition";
import { peopleVerdict } from "@/lib/debate/methods";
import type { InterventionView } from "@/lib/debate/interventions/contract";
import { interventionNote } from "./interventions/read";
import { LABEL_STYLE } from "./verdict-card";

type EvidenceRef = { rank: number; title?: string | null; url?: string | null };

/**
 * The one verdict shape every method's page opens with (lib/debate/methods.ts `peopleVerdict`):
 * the product-scale label, the method's own label in its words, the method's name, the confidence
 * where the method has one, and one plain sentence of reason with the evidence it rests on, its
 * citation markers resolved to titles and links. A method's page adds its own detail below it.
 */
export function PeopleVerdictHead({
  method,
  verdict,
  turns = [],
  evidence = [],
  onCite,
  confidenceWords = "confidence",
  ownLabelTestId,
  confidenceTestId = "verdict-confidence",
  interventions = [],
}: {
  method: string;
  verdict: { label: string; reason: string | null; confidence: number | null };
  turns?: readonly StepTurn[];
  evidence?: readonly EvidenceRef[];
  onCite?: (rank: number) => void;
  /** Whose confidence it is, in the method's words ("the court's confidence"). */
  confidenceWords?: string;
  /** A test id for the method's own label (kept where a page's tests already look for it). */
  ownLabelTestId?: string;
  confidenceTestId?: string;
  /** What people put into the debate: a verdict they took part in says so under its reason. */
  interventions?: readonly InterventionView[];
}) {
  const v = peopleVerdict(method, verdict, turns, evidence);
  const tookPart = interventionNote(interventions);
  return (
    <div data-testid="people-verdict" data-product={v.product ?? ""}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="text-sm font-medium text-black/60">Verdict</span>
        <span
          data-testid="verdict-label"
          className={`rounded px-3 py-1 text-lg font-bold tracking-wide ${v.product ? LABEL_STYLE[v.product] : LABEL_STYLE.UNPARSED}`}
        >
          {v.words.head}
        </span>
        <span className="text-sm text-black/70">
          {v.words.own === null ? (
            <>
              by <strong data-testid={ownLabelTestId}>{v.methodTitle}</strong>
              {v.product || v.label === "UNPARSED" ? "" : "; no rating on the true / half-true / false scale"}
            </>
          ) : (
            <>
              {v.methodTitle} said <strong data-testid={ownLabelTestId}>{v.words.own}</strong>
            </>
          )}
        </span>
        {v.confidence !== null ? (
          <span className="text-sm font-medium" data-testid={confidenceTestId}>
            {confidenceWords} {Math.round(v.confidence * 100)}%
          </span>
        ) : null}
      </div>
      {v.reason ? (
        <div className="mt-2 text-sm" data-testid="verdict-reason">
          {v.reasonNote ? <p className="text-xs text-black/60">{v.reasonNote}</p> : null}
          <p className="break-words">{v.reason}</p>
          {v.evidence.length ? (
            <p className="mt-1 text-xs text-black/70" data-testid="verdict-evidence">
              Rests on:{" "}
              {v.evidence.map((e, i) => (
                <span key={e.rank}>
                  {i ? "; " : ""}
                  {e.url ? (
                    <a href={e.url} rel="noopener noreferrer" target="_blank" className="underline break-all">
                      {e.title}
                    </a>
                  ) : onCite ? (
                    <button type="button" className="underline" onClick={() => onCite(e.rank)}>
                      {e.title}
                    </button>
                  ) : (
                    e.title
                  )}
                </span>
              ))}
            </p>
          ) : null}
        </div>
      ) : null}
      {tookPart ? (
        <p className="mt-2 text-sm text-black/80" data-testid="verdict-interventions">
          {tookPart.text}{" "}
          <a href={`#intervention-${tookPart.firstId}`} className="underline underline-offset-2">
            See what they did
          </a>
        </p>
      ) : null}
    </div>
  );
}

"use client";

import { CitedText } from "@/components/debate/cited-text";
import { partialBallot, verdictWords, type Ballot } from "./read";

function StreamingBallot({ text }: { text: string }) {
  const p = partialBallot(text);
  return (
    <div className="text-black/70" data-testid="ballot-streaming">
      <p>
        {p.verdict ? (
          <>
            Leaning: <strong>{verdictWords(p.verdict).word}</strong>
          </>
        ) : (
          "Reading the trial and marking the evidence…"
        )}
      </p>
      {p.reasoning ? <p className="mt-1 break-words">{p.reasoning}</p> : null}
      <p className="mt-1 text-xs text-black/60">{p.chars.toLocaleString("en-US")} characters written</p>
    </div>
  );
}

const mark = (x: number | null) => (x === null ? "–" : `${x}/10`);

/**
 * The panel's ballots side by side (stacked on a phone). The judges write at the same time, so
 * each card streams its own answer; once read, the card shows the vote, the three marks and why.
 */
export function PanelBallots({ ballots, onCite }: { ballots: Ballot[]; onCite: (rank: number) => void }) {
  return (
    <div className={`grid min-w-0 gap-3 ${ballots.length > 1 ? "md:grid-cols-3" : ""}`} data-testid="proclaim-panel">
      {ballots.map((b) => {
        const streaming = b.status === "streaming";
        const w = b.label ? verdictWords(b.label) : null;
        return (
          <article
            key={b.role}
            data-testid="turn"
            data-seq={b.seq ?? undefined}
            data-role={b.role}
            data-kind="judge"
            data-status={b.status}
            aria-busy={streaming}
            className="min-w-0 rounded-lg border border-black/10 border-l-4 border-l-stone-700 bg-stone-50 p-3 text-sm"
          >
            <header className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
              <h3 className="font-semibold">Judge {b.role.replace(/\D/g, "") || b.role}</h3>
              {streaming ? (
                <span className="text-xs text-black/60" aria-live="polite">
                  writing…
                </span>
              ) : b.status === "waiting" ? (
                <span className="text-xs text-black/60">waiting for the trial</span>
              ) : null}
            </header>
            {w && !streaming ? (
              <>
                <p data-testid="ballot-label">
                  Votes <span className={`rounded px-2 py-0.5 font-semibold ${w.style}`}>{w.word}</span>
                </p>
                {b.scores ? (
                  <dl className="mt-2 grid grid-cols-3 gap-1 text-xs">
                    <div>
                      <dt className="text-black/60">Evidence</dt>
                      <dd className="font-medium">{mark(b.scores.evidence)}</dd>
                    </div>
                    <div>
                      <dt className="text-black/60">Arguments</dt>
                      <dd className="font-medium">{mark(b.scores.validity)}</dd>
                    </div>
                    <div>
                      <dt className="text-black/60">Reliability</dt>
                      <dd className="font-medium">{mark(b.scores.reliability)}</dd>
                    </div>
                  </dl>
                ) : (
                  <p className="mt-2 text-xs text-black/60">
                    This ballot could not be read even after one repair: the judge abstains, nothing is guessed.
                  </p>
                )}
                {b.reasoning ? (
                  <div className="mt-2">
                    <CitedText text={b.reasoning} onCite={onCite} />
                  </div>
                ) : null}
              </>
            ) : streaming ? (
              <StreamingBallot text={b.text} />
            ) : null}
          </article>
        );
      })}
    </div>
  );
}

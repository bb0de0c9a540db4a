"use client";

import { TurnCard } from "@/components/debate/turn-card";
import { asObj, stopWords, type RoundRow, type TrialView } from "./read";

const f2 = (x: number | null | undefined) => (x === null || x === undefined ? "–" : x.toFixed(2));
const SIDE = (role: string, trial: "primary" | "switched") => {
  const forSide = trial === "primary" ? role === "plaintiff" : role === "defense";
  return forSide ? "for the claim" : "against the claim";
};
const counsel = (role: string) =>
  role === "plaintiff" ? "Counsel A (plaintiff)" : role === "defense" ? "Counsel B (defense)" : role;

function Reflections({ rows }: { rows: RoundRow[] }) {
  if (!rows.length) return null;
  const s = (x: RoundRow["for"]) =>
    x ? `${f2(x.sRef)} (logic ${f2(x.logic)}, new points ${f2(x.novelty)}, rebuttal ${f2(x.rebuttal)})` : "–";
  return (
    <div className="min-w-0" data-testid="proclaim-reflections">
      <h4 className="text-sm font-semibold">How each side rated itself, round by round</h4>
      <p className="text-xs text-black/60">
        Self-scores 0–1 (s_ref). When the combined score stops moving, the searches stop finding anything new, the
        critic calls it resolved, or the court closes, the trial ends.
      </p>
      <ul className="mt-1 space-y-1 text-xs">
        {rows.map((r) => (
          <li key={r.round} className="break-words rounded bg-stone-50 p-2">
            <strong>Round {r.round}</strong> · for: {s(r.for)} · against: {s(r.against)} · combined S {f2(r.S)}
            {r.deltaS !== null ? `, change ${f2(r.deltaS)}` : ""}
            {r.meanEta !== null ? ` · novelty of new passages ${f2(r.meanEta)}` : ""}
            {r.close
              ? ` · court: ${r.close.decision === "CLOSE" ? "close the trial" : r.close.decision === "CONTINUE" ? "continue" : "unread"}${r.close.pClose !== null ? ` (p ${f2(r.close.pClose)})` : ""}`
              : ""}
            {r.stopReason ? <span className="font-medium"> → stop: {stopWords(r.stopReason)}</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** One trial (the primary, or the one with sides switched): per round the searches, arguments, experts; then reflections and the critic. */
export function TrialSection({ trial, onCite }: { trial: TrialView; onCite: (rank: number) => void }) {
  if (!trial.rounds.length && !trial.prag.length)
    return (
      <p className="text-sm text-black/60">
        {trial.trial === "switched" ? "Starts when the first trial ends." : "Starts once the evidence is admitted."}
      </p>
    );
  const rounds = [...new Set([...trial.rounds, ...trial.prag.map((p) => p.round)])].sort((a, b) => a - b);
  return (
    <div className="min-w-0 space-y-5" data-testid={`proclaim-trial-${trial.trial}`}>
      {trial.prag.length ? (
        <p className="text-xs text-black/60">
          In each search, η says how new a passage is compared with what the court already holds (0 = a repeat, 1 =
          entirely new); a passage joins the evidence only at η ≥ {f2(trial.prag[0]!.etaMin ?? 0.2)}.
        </p>
      ) : null}
      {rounds.map((round) => (
        <div key={round} className="min-w-0 space-y-3" data-testid="proclaim-round" data-round={round}>
          <h4 className="text-sm font-semibold">Round {round}</h4>
          {trial.prag
            .filter((p) => p.round === round)
            .map((p) => (
              <div
                key={p.seq}
                className="min-w-0 rounded-md border border-dashed border-black/20 p-2 text-xs"
                data-testid="proclaim-search"
              >
                <p className="break-words">
                  <span className="font-medium">Counsel {p.side} the claim searched the corpus:</span> “
                  {p.refined ?? p.query ?? "?"}”
                  {p.query && p.refined && p.query !== p.refined ? (
                    <span className="text-black/60"> (first worded “{p.query}”, sharpened by the court)</span>
                  ) : null}
                  {p.need ? <span className="text-black/60"> (needed: {p.need})</span> : null}
                </p>
                <ul className="mt-1 flex flex-wrap gap-1">
                  {p.results.length === 0 ? <li className="text-black/60">nothing found</li> : null}
                  {p.results.map((r) => (
                    <li key={r.rank}>
                      <button
                        type="button"
                        onClick={() => onCite(r.rank)}
                        className={`rounded px-1.5 py-0.5 ${r.accepted ? "bg-emerald-100 text-emerald-900" : "bg-stone-200 text-stone-700 line-through"}`}
                        title={r.title ?? undefined}
                      >
                        E{r.rank} η {r.eta.toFixed(2)} {r.accepted ? "new" : "repeat"}
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          {trial.speeches
            .filter((t) => t.round === round && t.role !== "expert")
            .map((t) => (
              <div key={t.seq} className="min-w-0">
                <p className="mb-1 text-xs text-black/60">
                  {counsel(t.role)} argues {SIDE(t.role, trial.trial)}
                </p>
                <TurnCard
                  turn={{ ...t, phase: `round ${t.round}`, citations: t.citations ?? [], model: t.model ?? null }}
                  onCite={onCite}
                />
              </div>
            ))}
          {trial.experts
            .filter((e) => e.round === round)
            .map((e, i) => (
              <p key={i} className="break-words rounded bg-violet-50 p-2 text-xs" data-testid="proclaim-expert">
                Counsel {e.side} the claim asked for an expert: <strong>{e.request ?? "?"}</strong>
                {e.reasoning ? ` (${e.reasoning})` : ""} · ruling:{" "}
                {e.ruling === "GRANTED" ? "granted" : e.ruling === "DENIED" ? "denied" : (e.ruling ?? "pending")}
                {e.expert ? ` · testimony by ${e.expert}` : ""}
              </p>
            ))}
          {trial.speeches
            .filter((t) => t.round === round && t.role === "expert")
            .map((t) => (
              <TurnCard
                key={t.seq}
                turn={{ ...t, phase: "testimony", citations: t.citations ?? [], model: t.model ?? null }}
                onCite={onCite}
                compact
              />
            ))}
          {trial.critic
            .filter((c) => c.round === round)
            .map((c) => {
              const n = asObj(c.notes);
              const side = (k: string) => asObj(n[k]);
              return (
                <div key={c.seq} className="min-w-0 rounded-md bg-rose-50 p-2 text-xs" data-testid="proclaim-critic">
                  <p className="font-medium">The critic after round {c.round}</p>
                  {c.notes ? (
                    <>
                      <p className="break-words">
                        For the claim: logic {String(side("plaintiff").logic ?? "–")}/10, evidence{" "}
                        {String(side("plaintiff").evidence ?? "–")}/10, rebuttal{" "}
                        {String(side("plaintiff").rebuttal ?? "–")}/10 · against: logic{" "}
                        {String(side("defense").logic ?? "–")}/10, evidence {String(side("defense").evidence ?? "–")}
                        /10, rebuttal {String(side("defense").rebuttal ?? "–")}/10
                      </p>
                      {Array.isArray(n.unresolved_premises) && n.unresolved_premises.length ? (
                        <p className="break-words">Still open: {(n.unresolved_premises as string[]).join("; ")}</p>
                      ) : null}
                      <p>
                        {n.debate_resolved === true
                          ? "Judges the debate resolved."
                          : "Judges the debate not yet resolved."}
                      </p>
                    </>
                  ) : (
                    <p className="text-black/60">The critic&apos;s notes could not be read.</p>
                  )}
                </div>
              );
            })}
        </div>
      ))}
      <Reflections rows={trial.reflections} />
      {trial.stopReason ? <p className="text-sm">This trial ended because {stopWords(trial.stopReason)}.</p> : null}
    </div>
  );
}

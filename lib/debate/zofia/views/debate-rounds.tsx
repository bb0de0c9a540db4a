"use client";

import { CitedText } from "@/components/debate/cited-text";
import { callWord, type Exchange, type JudgeCall, type ZTurn } from "./read";

const SIDE: Record<string, { name: string; style: string }> = {
  pro: { name: "Advocate · argues the article is real", style: "border-l-emerald-600 bg-emerald-50/50" },
  con: { name: "Critic · argues the article is fake", style: "border-l-rose-600 bg-rose-50/50" },
};

function Argument({ turn, onCite }: { turn: ZTurn; onCite: (rank: number) => void }) {
  const s = SIDE[turn.role]!;
  const streaming = turn.status === "streaming";
  return (
    <article
      data-testid="turn"
      data-seq={turn.seq}
      data-role={turn.role}
      data-status={turn.status}
      aria-busy={streaming}
      className={`min-w-0 rounded-lg border border-black/10 border-l-4 p-3 ${s.style}`}
    >
      <header className="mb-1 flex flex-wrap items-baseline justify-between gap-2">
        <h4 className="text-sm font-semibold">{s.name}</h4>
        {streaming ? <span className="text-xs text-black/60">writing…</span> : null}
      </header>
      <div className="text-sm">
        <CitedText text={turn.content || (streaming ? "…" : "")} onCite={onCite} />
      </div>
      {turn.status === "failed" ? <p className="mt-1 text-sm text-red-800">This turn failed: {turn.error}</p> : null}
    </article>
  );
}

const ORDER = ["R", "F", "I"];
const PROB_NAME: Record<string, string> = { R: "real", F: "fake", I: "continue" };

/** The judge's call after an exchange, with the probability it gave each answer. */
export function JudgeCallLine({ call }: { call: JudgeCall }) {
  if (call.status === "streaming")
    return (
      <p className="text-sm text-black/60" aria-live="polite">
        The judge is deciding whether the debate has settled it…
      </p>
    );
  const probs = ORDER.filter((k) => call.probs[k] !== undefined);
  const ends = call.answer === "R" || call.answer === "F";
  return (
    <div
      data-testid="zofia-judge-call"
      data-answer={call.answer ?? ""}
      className={`rounded-md border px-3 py-2 text-sm ${ends ? "border-black/60 bg-white" : "border-black/10 bg-stone-50"}`}
    >
      <p>
        <span className="font-semibold">Judge{call.final ? " (final call, must choose)" : ""}:</span>{" "}
        {callWord(call.answer)}
        {ends ? " — the debate ends here" : call.final ? "" : " — another round"}
      </p>
      {probs.length ? (
        <div className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-black/70">
          {probs.map((k) => (
            <span key={k} className="flex items-center gap-1">
              <span className="w-14">{PROB_NAME[k]}</span>
              <span className="inline-block h-1.5 w-16 rounded bg-black/10" aria-hidden>
                <span
                  className="block h-1.5 rounded bg-black/70"
                  style={{ width: `${Math.round((call.probs[k] ?? 0) * 100)}%` }}
                />
              </span>
              <span className="tabular-nums">{((call.probs[k] ?? 0) * 100).toFixed(0)}%</span>
            </span>
          ))}
        </div>
      ) : null}
    </div>
  );
}

export function DebateRounds({ exchanges, onCite }: { exchanges: Exchange[]; onCite: (rank: number) => void }) {
  return (
    <ol className="space-y-4" aria-label="Debate rounds">
      {exchanges.map((x) => (
        <li key={x.round} className="min-w-0 space-y-2" data-testid="zofia-round" data-round={x.round}>
          <h3 className="text-sm font-semibold uppercase tracking-wide text-black/60">Round {x.round}</h3>
          <div className="grid min-w-0 gap-2 md:grid-cols-2">
            {x.pro ? <Argument turn={x.pro} onCite={onCite} /> : null}
            {x.con ? <Argument turn={x.con} onCite={onCite} /> : null}
          </div>
          {x.judge ? <JudgeCallLine call={x.judge} /> : null}
          {x.final ? <JudgeCallLine call={x.final} /> : null}
        </li>
      ))}
    </ol>
  );
}

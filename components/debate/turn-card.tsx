"use client";

import { CitedText } from "./cited-text";

export type TurnLike = {
  seq: number;
  round: number;
  phase: string;
  role: string;
  kind: string;
  status: string;
  model: string | null;
  content: string;
  promptTokens?: number | null;
  completionTokens?: number | null;
  costUsd?: number | null;
  latencyMs?: number | null;
  citations: number[];
  error?: string | null;
};

/** One colour per role, always with the role named in words too. */
const ROLE_STYLE: Record<string, string> = {
  politician: "border-l-blue-600 bg-blue-50/60",
  scientist: "border-l-emerald-600 bg-emerald-50/60",
  advocate: "border-l-blue-600 bg-blue-50/60",
  critic: "border-l-rose-600 bg-rose-50/60",
  journalist: "border-l-amber-600 bg-amber-50/60",
  "domain-expert": "border-l-violet-600 bg-violet-50/60",
  judge: "border-l-stone-700 bg-stone-50",
  "stop-agent": "border-l-stone-400 bg-stone-50",
  "round-judge": "border-l-stone-400 bg-stone-50",
};

export function roleName(role: string) {
  return role.replace(/-/g, " ").replace(/^./, (c) => c.toUpperCase());
}

export function TurnCard({ turn, onCite, compact = false }: { turn: TurnLike; onCite: (rank: number) => void; compact?: boolean }) {
  const streaming = turn.status === "streaming";
  return (
    <article
      data-testid="turn"
      data-seq={turn.seq}
      data-role={turn.role}
      data-kind={turn.kind}
      data-status={turn.status}
      aria-busy={streaming}
      className={`rounded-lg border border-black/10 border-l-4 p-4 ${ROLE_STYLE[turn.role] ?? "border-l-stone-400 bg-white"}`}
    >
      <header className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold">
          {roleName(turn.role)} <span className="font-normal text-black/50">· {turn.phase.replace(/-/g, " ")}</span>
        </h3>
        {streaming ? <span className="text-xs text-black/50">writing…</span> : null}
      </header>
      <div className={compact ? "text-sm" : ""}>
        <CitedText text={turn.content || (streaming ? "…" : "")} onCite={onCite} />
      </div>
      {turn.status === "failed" ? (
        <p role="alert" className="mt-2 text-sm text-red-800">
          This turn failed: {turn.error}
        </p>
      ) : null}
      {!streaming && turn.status === "completed" ? (
        <footer className="mt-3 text-xs text-black/50">
          {turn.model} · {(turn.promptTokens ?? 0) + (turn.completionTokens ?? 0)} tokens
          {turn.costUsd != null ? ` · $${turn.costUsd.toFixed(4)}` : ""}
          {turn.latencyMs != null ? ` · ${(turn.latencyMs / 1000).toFixed(1)} s` : ""}
        </footer>
      ) : null}
    </article>
  );
}

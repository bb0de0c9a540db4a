"use client";

import { createContext, useContext } from "react";
import { usdWords } from "@/lib/cost-words";
import type { RoleTone } from "@/lib/debate/definition";
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
  /** A retry in progress on a turn being written. */
  retry?: { attempt: number; maxAttempts: number; reason: string } | null;
};

/** Each tone's colours; the role is always named in words too. */
const TONE_STYLE: Record<RoleTone, string> = {
  blue: "border-l-blue-600 bg-blue-50/60",
  emerald: "border-l-emerald-600 bg-emerald-50/60",
  rose: "border-l-rose-600 bg-rose-50/60",
  amber: "border-l-amber-600 bg-amber-50/60",
  violet: "border-l-violet-600 bg-violet-50/60",
  judge: "border-l-stone-700 bg-stone-50",
  aside: "border-l-stone-400 bg-stone-50",
};
const PLAIN = "border-l-stone-400 bg-white";

/**
 * The tones of the debate's roles, from its method's definition (`roleTones`), provided by the
 * page that knows the method, so a card (a method's own views included) names no role.
 */
export const RoleTones = createContext<Readonly<Record<string, RoleTone>>>({});

/** A role id in words, where the caller has no name from the method's definition (`speaker`). */
export function roleName(role: string) {
  return role.replace(/-/g, " ").replace(/^./, (c) => c.toUpperCase());
}

export function retryNote(r: { attempt: number; maxAttempts: number; reason: string }) {
  return `retrying (${r.attempt} of ${r.maxAttempts - 1}) after ${r.reason}`;
}

/** `speaker`: the role's name from the method's definition, where the caller has it. */
export function TurnCard({
  turn,
  onCite,
  compact = false,
  speaker,
}: {
  turn: TurnLike;
  onCite: (rank: number) => void;
  compact?: boolean;
  speaker?: string;
}) {
  const streaming = turn.status === "streaming";
  const stopped = turn.status === "stopped";
  const tone = useContext(RoleTones)[turn.role];
  return (
    <article
      data-testid="turn"
      data-seq={turn.seq}
      data-role={turn.role}
      data-kind={turn.kind}
      data-status={turn.status}
      aria-busy={streaming}
      className={`rounded-lg border border-black/10 border-l-4 p-4 ${stopped ? "border-l-stone-300 bg-stone-100 text-black/60" : tone ? TONE_STYLE[tone] : PLAIN}`}
    >
      <header className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold">
          {speaker ?? roleName(turn.role)}{" "}
          <span className="font-normal text-black/60">· {turn.phase.replace(/-/g, " ")}</span>
        </h3>
        {streaming ? (
          <span className={`text-xs ${turn.retry ? "font-medium text-amber-800" : "text-black/60"}`} aria-live="polite">
            {turn.retry ? retryNote(turn.retry) : "writing…"}
          </span>
        ) : null}
        {stopped ? (
          <span className="rounded bg-stone-300 px-1.5 py-0.5 text-xs font-medium text-black/70">stopped</span>
        ) : null}
      </header>
      <div className={compact ? "text-sm" : ""}>
        <CitedText text={turn.content || (streaming ? "…" : "")} onCite={onCite} />
      </div>
      {stopped ? (
        <p className="mt-2 text-xs">
          Stopped by a user before this turn was finished. Kept as written; the agents after it did not hear it.
        </p>
      ) : null}
      {turn.status === "failed" ? (
        <p role="alert" className="mt-2 text-sm text-red-800">
          This turn failed: {turn.error}
        </p>
      ) : null}
      {!streaming && turn.status === "completed" ? (
        <footer className="mt-3 text-xs text-black/60">
          {turn.model} · {(turn.promptTokens ?? 0) + (turn.completionTokens ?? 0)} tokens
          {turn.costUsd != null ? ` · ${usdWords(turn.costUsd, { short: true })}` : ""}
          {turn.latencyMs != null ? ` · ${(turn.latencyMs / 1000).toFixed(1)} s` : ""}
        </footer>
      ) : null}
    </article>
  );
}

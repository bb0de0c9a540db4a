"use client";

import { TurnCard, type TurnLike } from "./turn-card";

/** The judge's non-speech calls (checkpoints, repairs, domain inference), folded away by default. */
export function JudgeWorking({ turns, onCite }: { turns: TurnLike[]; onCite: (rank: number) => void }) {
  if (turns.length === 0) return null;
  return (
    <details className="rounded-lg border border-black/10 bg-white p-4 text-sm">
      <summary className="cursor-pointer font-medium">
        The judge&apos;s working ({turns.length} {turns.length === 1 ? "call" : "calls"})
      </summary>
      <div className="mt-3 space-y-3">
        {turns.map((t) => (
          <TurnCard key={t.seq} turn={t} onCite={onCite} compact />
        ))}
      </div>
    </details>
  );
}

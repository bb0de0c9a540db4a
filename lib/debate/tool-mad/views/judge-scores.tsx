"use client";

import { agentName } from "./words";

type Means = Record<string, { F?: number | null; AR?: number | null; CS?: number | null }>;

/** The stability scores the judge was given (Tool-MAD): each agent's mean faithfulness and relevance. */
export function JudgeScores({ details }: { details?: Record<string, unknown> | null }) {
  const means = details?.means as Means | undefined;
  if (!means || typeof means !== "object" || Object.keys(means).length === 0) return null;
  const fmt = (x: number | null | undefined) => (x == null ? "n/a" : x.toFixed(2));
  return (
    <div className="mt-3 text-xs text-black/70">
      <p className="font-medium">
        {details?.decidedBy === "judge" ? "Scores the judge weighed (mean over rounds)" : "Mean scores over rounds"}
      </p>
      <ul>
        {Object.entries(means).map(([agent, m]) => (
          <li key={agent}>
            {agentName(agent)}:{" "}
            {m.CS !== undefined ? `consistency ${fmt(m.CS)}` : `faithfulness ${fmt(m.F)}, relevance ${fmt(m.AR)}`}
          </li>
        ))}
      </ul>
    </div>
  );
}

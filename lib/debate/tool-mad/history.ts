import type { Fence } from "@/lib/prompts/fence";
import { joinPrompt, programWritten, prompt as p, trusted, type PromptText, type Trusted } from "@/lib/prompts/text";
import { evidenceBlock } from "../evidence";
import type { DebateEvidence } from "../types";
import type { Consistency } from "./consistency";
import { meanOf } from "./gate";

/**
 * What the judge reads (tool-mad design decisions §1): every round's queries, each agent's
 * documents (the judge sees all of them), answers and labels, then the stability scores: per
 * round and their means (v2), or each agent's consistency score CS_A (v1).
 */

import type { GateValue } from "./steps";
export type { GateValue };

export type AgentRound = {
  agent: string;
  tool: string;
  query: string | null;
  documents: DebateEvidence[];
  answer: string | null;
  label: string | null;
  gate?: GateValue;
  consistency?: Consistency;
};
export type RoundRecord = { round: number; agents: AgentRound[] };

const fmt = (x: number | null) => (x === null ? "n/a" : x.toFixed(2));

export function historyBlock(rounds: readonly RoundRecord[], fence: Fence): PromptText {
  if (rounds.length === 0) return trusted("(no round was completed)");
  return joinPrompt(
    rounds.map((r) =>
      joinPrompt(
        [
          p`=== Round ${r.round} ===`,
          ...r.agents.map((a) =>
            joinPrompt(
              [
                // The agent's role comes from the configuration, the tool's label from the server's settings, the label from the scheme.
                p`--- ${programWritten(a.agent)} (${programWritten(a.tool)}) ---`,
                a.query !== null
                  ? p`Search query:\n${fence.wrap("answer", a.query)}`
                  : trusted("Search query: (none: this agent has no tool)"),
                a.tool === "no tool"
                  ? trusted("Documents: (none)")
                  : p`Documents:\n${evidenceBlock(a.documents, fence)}`,
                a.answer !== null
                  ? p`Answer (label ${programWritten(a.label ?? "UNPARSED")}):\n${fence.wrap("argument", a.answer, { empty: trusted("(no answer)") })}`
                  : trusted("Answer: (not reached)"),
              ],
              "\n",
            ),
          ),
        ],
        "\n\n",
      ),
    ),
    "\n\n",
  );
}

export type ScoreDetails = {
  variant: "v2" | "v1";
  perRound: Record<
    string,
    Array<{ round: number; F?: number | null; AR?: number | null; pass?: boolean; cs?: number | null }>
  >;
  means: Record<string, { F?: number | null; AR?: number | null; CS?: number | null }>;
};

/** Per agent, per round, and the means over rounds; only the scores this variant computes. */
export function scoreDetails(
  rounds: readonly RoundRecord[],
  agents: readonly string[],
  variant: "v2" | "v1",
  gated: boolean,
): ScoreDetails {
  const perRound: ScoreDetails["perRound"] = {};
  const means: ScoreDetails["means"] = {};
  for (const agent of agents) {
    const mine = rounds.flatMap((r) => r.agents.filter((a) => a.agent === agent).map((a) => ({ round: r.round, a })));
    if (variant === "v1") {
      perRound[agent] = mine.filter(({ a }) => a.consistency).map(({ round, a }) => ({ round, cs: a.consistency!.cs }));
      means[agent] = { CS: meanOf(perRound[agent]!.map((x) => x.cs ?? null)) };
    } else if (gated) {
      perRound[agent] = mine
        .filter(({ a }) => a.gate)
        .map(({ round, a }) => ({ round, F: a.gate!.F, AR: a.gate!.AR, pass: a.gate!.pass }));
      means[agent] = {
        F: meanOf(perRound[agent]!.map((x) => x.F ?? null)),
        AR: meanOf(perRound[agent]!.map((x) => x.AR ?? null)),
      };
    }
  }
  return { variant, perRound, means };
}

/** Numbers and the configured agents' names only. */
export function scoresBlock(d: ScoreDetails, t: { tauF: number; tauAR: number }): Trusted {
  const agents = Object.keys(d.perRound);
  if (agents.length === 0) return trusted("(no stability scores: scoring was switched off for this debate)");
  return programWritten(
    agents
      .map((agent) => {
        const rows = d.perRound[agent]!;
        if (d.variant === "v1") {
          return [
            `${agent}:`,
            ...rows.map((x) => `  round ${x.round}: consistency ${fmt(x.cs ?? null)}`),
            `  CS (mean consistency over rounds): ${fmt(d.means[agent]!.CS ?? null)}`,
          ].join("\n");
        }
        return [
          `${agent}:`,
          ...rows.map(
            (x) =>
              `  round ${x.round}: faithfulness ${fmt(x.F ?? null)} (threshold ${t.tauF}), answer relevance ${fmt(x.AR ?? null)} (threshold ${t.tauAR}), gate ${x.pass ? "passed" : "failed"}`,
          ),
          `  mean over rounds: faithfulness ${fmt(d.means[agent]!.F ?? null)}, answer relevance ${fmt(d.means[agent]!.AR ?? null)}`,
        ].join("\n");
      })
      .join("\n"),
  );
}

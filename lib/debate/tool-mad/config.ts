import { z } from "zod";
import { LABEL_SCHEME_NAMES } from "./labels";

/**
 * A Tool-MAD debate's configuration (tool-mad design decisions §6): the paper's defaults, its
 * ablations (agents, query formulation, gate, v1) and the label scheme of the dataset.
 */

export const AGENT_KINDS = ["rag", "search", "vanilla"] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

const SCORERS = ["llm", "embedding"] as const;

/** FAITHFULNESS_SCORER picks the default scorer; a value that is neither is refused with the choices. */
function defaultScorer(): (typeof SCORERS)[number] {
  const raw = process.env.FAITHFULNESS_SCORER?.trim();
  if (!raw) return "llm";
  if ((SCORERS as readonly string[]).includes(raw)) return raw as (typeof SCORERS)[number];
  throw new Error(`FAITHFULNESS_SCORER is "${raw}"; set it to llm or embedding, or leave it unset (llm).`);
}

export const toolMadConfigSchema = z.object({
  /** T: rounds before the judge decides (FEVER peaked at 3). */
  rounds: z.number().int().min(1).max(6).default(3),
  /** Documents per tool call. */
  topK: z.number().int().min(1).max(10).default(3),
  tauF: z.number().min(0).max(1).default(0.7),
  tauAR: z.number().min(-1).max(1).default(0.8),
  /** `gte`: pass at the threshold (the text's "falls below" fails); `gt`: Algorithm 1's strict ">". */
  gateCompare: z.enum(["gte", "gt"]).default("gte"),
  /** Questions generated from an answer for answer relevance (RAGAS's n; unstated in the paper). */
  arQuestions: z.number().int().min(1).max(10).default(3),
  /** `off`: no query call; every round searches the claim itself. */
  queryFormulation: z.enum(["on", "off"]).default("on"),
  /** `off`: no faithfulness / relevance scoring; equal labels alone end the debate. */
  gate: z.enum(["on", "off"]).default("on"),
  /** `v1`: the earlier paper: no gate, the judge gets each agent's consistency score instead. */
  variant: z.enum(["v2", "v1"]).default("v2"),
  /** The debaters, by tool; the same kind twice is an ablation pair (rag-agent, rag-agent-2). */
  agents: z
    .array(z.enum(AGENT_KINDS))
    .min(2, "a debate needs at least two agents")
    .max(3, "at most three agents")
    .default(["rag", "search"]),
  labels: z.enum(LABEL_SCHEME_NAMES).default("fever"),
  /** `embedding`: a model-free approximation of faithfulness, labelled as not comparable with the paper. */
  scorer: z.enum(SCORERS).default(defaultScorer),
  maxTurnTokens: z.number().int().min(50).max(4000).default(600),
});
export type ToolMadConfig = z.infer<typeof toolMadConfigSchema>;

export type Agent = { role: string; kind: AgentKind };

/** Role names in order: the first of a kind is `rag-agent`, a second `rag-agent-2`. */
export function agentsOf(config: Pick<ToolMadConfig, "agents">): Agent[] {
  const seen = new Map<AgentKind, number>();
  return config.agents.map((kind) => {
    const n = (seen.get(kind) ?? 0) + 1;
    seen.set(kind, n);
    return { role: n === 1 ? `${kind}-agent` : `${kind}-agent-${n}`, kind };
  });
}

/** v1 has no gate whatever `gate` says; v2 gates unless switched off. */
export function gated(config: Pick<ToolMadConfig, "gate" | "variant">): boolean {
  return config.variant === "v2" && config.gate === "on";
}

export const PRESETS: Record<string, Partial<ToolMadConfig>> = {
  "toolmad-fever": { labels: "fever" },
  // FEVER's three labels although FEVEROUS-S's gold has no NEI: the paper's FEVEROUS baselines
  // (gpt-4o-mini 37.0 on roughly balanced two-class data) are only possible if NEI was an answer the
  // models could give and lose on. The evaluation preset (lib/eval/presets.ts) says the same.
  "toolmad-feverous": { labels: "fever" },
  "toolmad-averitec": { labels: "averitec" },
  "toolmad-faviq": { labels: "faviq" },
};

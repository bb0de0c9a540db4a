import type { TurnLike } from "@/components/debate/turn-card";

/**
 * Tool-MAD's stored turns (lib/debate/tool-mad/, the contract in its protocol) regrouped the way a
 * reader follows the method: per round, one column per agent holding its query, its documents,
 * its answer and its gate; then the round's consensus. Pure, so it is unit-tested without a browser.
 */

export type ToolMadTurn = TurnLike & { metadata?: Record<string, unknown> | null };

export type QueryInfo = { text: string; previous: string | null; changed: boolean };

/** One schema for the gate the protocol stores and the page reads (lib/debate/tool-mad/steps.ts). */
export type { GateValue } from "@/lib/debate/tool-mad/steps";

export type ConsistencyValue = { agent: string; cs: number | null; method: string };

export type ConsensusValue = {
  labels: Record<string, string>;
  gatesPassed: boolean;
  agreed: boolean;
  label: string | null;
};

export type ToolCall = {
  provider: string;
  live: boolean;
  label: string;
  request: { query: string; k: number; before: string | null };
  results?: Array<{ rank: number; title: string; url?: string | null; text: string; publishedAt?: string | null }>;
  status: "ok" | "failed";
  error?: { message: string };
};

export type AgentRound = {
  agent: string;
  query: ToolMadTurn | null;
  retrieve: ToolMadTurn | null;
  answer: ToolMadTurn | null;
  /** The agent asked once more for a readable label (its first answer had none). */
  answerRepair: ToolMadTurn | null;
  /** The scorer's calls for this agent's answer (statements, verdicts, questions, the embedding). */
  scoring: ToolMadTurn[];
  gate: ToolMadTurn | null;
  consistency: ToolMadTurn | null;
};

export type Round = { round: number; agents: AgentRound[]; consensus: ToolMadTurn | null };

export type ToolMadLayout = {
  agents: string[];
  rounds: Round[];
  judge: ToolMadTurn[];
  /** Turns that fit nowhere above (a repair, a protocol step this page does not know yet): still shown. */
  other: ToolMadTurn[];
};

const AGENT = /^(rag|search|vanilla)-agent(-\d+)?$/;
export const isAgentRole = (role: string) => AGENT.test(role);

/** The agent a turn belongs to: its own role, or for the scorer the suffix of its phase (`faithfulness-statements:rag-agent`). */
export function agentOf(t: { role: string; phase: string }): string | null {
  if (isAgentRole(t.role)) return t.role;
  const suffix = t.phase.split(":")[1];
  return suffix && isAgentRole(suffix) ? suffix : null;
}

const AGENT_ORDER = ["rag", "search", "vanilla"];
function agentRank(a: string) {
  const m = AGENT.exec(a);
  return m ? AGENT_ORDER.indexOf(m[1]!) * 10 + Number(m[2]?.slice(1) ?? 1) : 999;
}

/** Agents in a stable order (RAG first, then search, then vanilla), from the configuration or else from the turns. */
export function layoutToolMad(turns: readonly ToolMadTurn[], configuredAgents?: readonly string[]): ToolMadLayout {
  const seen = new Set<string>(configuredAgents ?? []);
  for (const t of turns) {
    const a = agentOf(t);
    if (a) seen.add(a);
  }
  const agents = [...seen].sort((a, b) => agentRank(a) - agentRank(b));
  const rounds = new Map<number, Round>();
  const roundOf = (n: number) => {
    let r = rounds.get(n);
    if (!r) {
      r = {
        round: n,
        agents: agents.map((agent) => ({
          agent,
          query: null,
          retrieve: null,
          answer: null,
          answerRepair: null,
          scoring: [],
          gate: null,
          consistency: null,
        })),
        consensus: null,
      };
      rounds.set(n, r);
    }
    return r;
  };
  const judge: ToolMadTurn[] = [];
  const other: ToolMadTurn[] = [];
  for (const t of [...turns].sort((a, b) => a.seq - b.seq)) {
    if (t.role === "judge" || t.phase === "verdict") {
      judge.push(t);
      continue;
    }
    if (t.phase === "consensus") {
      roundOf(t.round).consensus = t;
      continue;
    }
    const agent = agentOf(t);
    const cell = agent ? roundOf(t.round).agents.find((a) => a.agent === agent) : undefined;
    if (!cell) {
      other.push(t);
      continue;
    }
    const phase = t.phase.split(":")[0]!;
    // A later row for the same step (a retried turn) replaces the earlier one.
    if (t.role === "scorer") cell.scoring.push(t);
    else if (phase === "query") cell.query = t;
    else if (phase === "retrieve") cell.retrieve = t;
    else if (phase === "answer") cell.answer = t;
    else if (phase === "answer-repair") cell.answerRepair = t;
    else if (phase === "gate") cell.gate = t;
    else if (phase === "consistency") cell.consistency = t;
    else other.push(t);
  }
  return { agents, rounds: [...rounds.values()].sort((a, b) => a.round - b.round), judge, other };
}

const obj = (x: unknown): Record<string, unknown> | null =>
  x && typeof x === "object" && !Array.isArray(x) ? (x as Record<string, unknown>) : null;
const toolMadMeta = (t: ToolMadTurn | null) => obj(obj(t?.metadata)?.toolMad);

/** The query an agent searched with: from the turn's metadata, else (a streaming turn) the `QUERY:` line written so far. */
export function queryOf(t: ToolMadTurn | null): QueryInfo | null {
  const q = obj(toolMadMeta(t)?.query);
  if (q && typeof q.text === "string")
    return { text: q.text, previous: typeof q.previous === "string" ? q.previous : null, changed: q.changed !== false };
  if (!t?.content) return null;
  const m = /QUERY:\s*(.+)/i.exec(t.content);
  return m ? { text: m[1]!.trim(), previous: null, changed: true } : null;
}

/** The search the agent ran (the runner stores the whole call record in `metadata.tool`). */
export function toolCallOf(t: ToolMadTurn | null): ToolCall | null {
  const tool = obj(obj(t?.metadata)?.tool);
  if (!tool || typeof tool.provider !== "string") return null;
  return tool as unknown as ToolCall;
}

/** The label the agent answered with (stored by the protocol), else read from a streaming answer. */
export function answerLabelOf(t: ToolMadTurn | null): string | null {
  const label = toolMadMeta(t)?.label;
  if (typeof label === "string") return label;
  if (!t || t.status !== "completed") return null;
  const m = /\[ANSWER\]:\s*(.+)/i.exec(t.content);
  return m ? m[1]!.trim() : null;
}

/** The answer's reasoning without the final `[ANSWER]:` line (the label is shown as a badge). */
export function answerReason(text: string): string {
  return text
    .replace(/\[ANSWER\]:.*$/ims, "")
    .replace(/^\s*\[REASON\]:\s*/i, "")
    .trim();
}

export function valueOf<T>(t: ToolMadTurn | null): T | null {
  const v = obj(t?.metadata)?.value;
  return v && typeof v === "object" ? (v as T) : null;
}

/** Word-level changes between two queries, for a small diff: removed words struck through, new ones marked. */
export function queryDiff(previous: string, next: string): Array<{ text: string; op: "same" | "added" | "removed" }> {
  const a = previous.split(/\s+/).filter(Boolean);
  const b = next.split(/\s+/).filter(Boolean);
  // Longest common subsequence over words: queries are short, so the quadratic table is tiny.
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] =
        a[i]!.toLowerCase() === b[j]!.toLowerCase()
          ? lcs[i + 1]![j + 1]! + 1
          : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: Array<{ text: string; op: "same" | "added" | "removed" }> = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]!.toLowerCase() === b[j]!.toLowerCase()) {
      out.push({ text: b[j]!, op: "same" });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push({ text: a[i++]!, op: "removed" });
    else out.push({ text: b[j++]!, op: "added" });
  }
  while (i < a.length) out.push({ text: a[i++]!, op: "removed" });
  while (j < b.length) out.push({ text: b[j++]!, op: "added" });
  return out;
}

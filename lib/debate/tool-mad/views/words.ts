import { labelWords } from "@/lib/debate/methods";
import { toolMadDefinition } from "@/lib/debate/tool-mad/definition";

/**
 * Tool-MAD in a journalist's words. The label mapping is the method definition's (client-safe),
 * the one the protocol and every export read.
 */

/** The product's TRUE / HALF-TRUE / FALSE for a scheme label; null for "not enough info" and UNPARSED. */
export function productLabelOf(label: string): "TRUE" | "HALF-TRUE" | "FALSE" | null {
  return toolMadDefinition.labels.toProduct[label] ?? null;
}

/** Colour of a scheme label by what it means on the product scale (not enough info: neutral). */
export function schemeLabelStyle(label: string | null): string {
  const p = label ? productLabelOf(label) : null;
  if (p === "TRUE") return "bg-emerald-100 text-emerald-900 ring-emerald-700/30";
  if (p === "FALSE") return "bg-red-100 text-red-900 ring-red-700/30";
  if (p === "HALF-TRUE") return "bg-amber-100 text-amber-900 ring-amber-700/30";
  if (label === "UNPARSED") return "bg-stone-200 text-black ring-black/20";
  return "bg-sky-50 text-sky-900 ring-sky-700/30";
}

export function agentName(agent: string): string {
  const m = /^(rag|search|vanilla)-agent(?:-(\d+))?$/.exec(agent);
  if (!m) return agent.replace(/-/g, " ");
  const base = m[1] === "rag" ? "Corpus agent" : m[1] === "search" ? "Search agent" : "No-tool agent";
  return m[2] ? `${base} ${m[2]}` : base;
}

/** One line on what the agent does, so "RAG" needs no explanation. */
export function agentRoleLine(agent: string, searchStandIn = false): string {
  if (agent.startsWith("rag")) return "searches the newsroom corpus";
  if (agent.startsWith("search"))
    return searchStandIn
      ? "searches the corpus as a stand-in for the web (no web search configured)"
      : "searches the web";
  return "answers from its own knowledge, no search";
}

// Who decided and why a debate stopped are the engine's words, shared by every method.
export { decidedByWords, STOP_REASON_WORDS, stopReasonWords } from "@/components/debate/stop-words";

export const F_HELP = "Faithfulness (F): the share of the answer's statements that its own documents back up.";
export const AR_HELP =
  "Relevance (AR): how closely the answer addresses the claim (questions the answer would answer, compared with the claim).";

export const schemeName = (scheme: string | null | undefined) =>
  scheme ? (toolMadDefinition.labels.schemes?.[scheme] ?? scheme) : "its own";

/** The header line under the status: what kind of debate this is, in words. */
export function toolMadHeadline(config: Record<string, unknown> | null): string {
  const c = config ?? {};
  const agents = Array.isArray(c.agents) ? (c.agents as string[]) : ["rag", "search"];
  const names = agents.map((a, i) =>
    agentName(`${a}-agent${agents.slice(0, i).includes(a) ? "-2" : ""}`).toLowerCase(),
  );
  const parts = [
    `Tool-MAD${c.variant === "v1" ? " v1" : ""}`,
    names.join(" vs "),
    `up to ${typeof c.rounds === "number" ? c.rounds : 3} rounds`,
    `${schemeName(typeof c.labels === "string" ? c.labels : "fever")} labels`,
    c.variant === "v1" || c.gate === "off" ? "no answer checks" : "answers checked for faithfulness and relevance",
  ];
  return parts.join(" · ");
}

/** A Tool-MAD label in its definition's words ("REFUTES" → "Refuted by the evidence"), never the code. */
export const toolMadLabelWords = (label: string | null) =>
  label ? labelWords(toolMadDefinition.name, label) : "no readable label";

import type { MethodDefinition } from "../definition";
import { toolMadAbout } from "./about";
import { defaultPlainStep, formNumber as num, readStep } from "../definition";
import { PRESETS } from "./config";
import { plainWords, withoutMarkers } from "../plain-words";
import { ALL_LABELS } from "./labels";
import { gateValueSchema, toolMadStepSchemas } from "./steps";

/** Tool-MAD's presets as the form offers them (./config.ts holds the values). */
export const TOOL_MAD_FORM_PRESETS = [
  "toolmad-fever",
  "toolmad-feverous",
  "toolmad-averitec",
  "toolmad-faviq",
] as const;

/** An agent by where it searches ("rag-agent-2" → "Corpus agent 2"), as the debate page names it. */
export function toolMadAgentName(agent: string): string | null {
  const m = /^(rag|search|vanilla)-agent(?:-(\d+))?$/.exec(agent);
  if (!m) return null;
  const base = m[1] === "rag" ? "Corpus agent" : m[1] === "search" ? "Search agent" : "No-tool agent";
  return m[2] ? `${base} ${m[2]}` : base;
}

const pct = (x: number | null) => (x === null ? "not computed" : x.toFixed(2));

/** Tool-MAD for every surface (client-safe): the run is ./protocol.ts, its steps' metadata ./steps.ts. */
export const toolMadDefinition: MethodDefinition = {
  about: toolMadAbout,
  name: "tool-mad",
  title: "Tool-MAD",
  description:
    "Two agents search on their own (the corpus and the web), answer, and have each answer checked against its documents; they stop when they agree, else a judge decides.",
  input: "claim",
  labels: {
    ...ALL_LABELS,
    schemes: { fever: "FEVER", faviq: "FaVIQ", averitec: "AVeriTeC", radar: "RADAR" },
    words: {
      SUPPORTS: "Supported by the evidence",
      REFUTES: "Refuted by the evidence",
      "NOT ENOUGH INFO": "Not enough information",
      Supported: "Supported by the evidence",
      Refuted: "Refuted by the evidence",
      "Not Enough Evidence": "Not enough evidence",
      "Conflicting Evidence/Cherrypicking": "Conflicting evidence or cherry-picking",
      TRUE: "True",
      "HALF-TRUE": "Half true",
      FALSE: "False",
    },
  },
  bringsOwnEvidence: true,
  interventions: {
    kinds: ["add_evidence", "ask", "strike", "hold_verdict"],
    enters: "into the pool its agents search, before the next turn",
  },
  defaultSettingsTitle: "default settings",
  formPresets: TOOL_MAD_FORM_PRESETS.filter((name) => PRESETS[name]).map((name) => ({
    name,
    title: name,
    labels: String(PRESETS[name]!.labels ?? "fever"),
  })),
  // `agent_3` may be "none"; agents are sent as chosen, so the protocol's schema names a wrong pair.
  configFromForm(f) {
    const presetName = f.preset?.trim();
    const config: Record<string, unknown> = presetName && PRESETS[presetName] ? { ...PRESETS[presetName] } : {};
    if (num(f.rounds) !== undefined) config.rounds = num(f.rounds);
    if (f.gate) config.gate = f.gate;
    if (f.labels) config.labels = f.labels;
    if (f.queryFormulation) config.queryFormulation = f.queryFormulation;
    if (f.toolMadVariant) config.variant = f.toolMadVariant;
    const agents = [f.agent_1, f.agent_2, f.agent_3]
      .map((a) => a?.trim())
      .filter((a): a is string => !!a && a !== "none");
    if (agents.length) config.agents = agents;
    return config;
  },
  roles: { scorer: "Checker", consensus: "Agreement check", judge: "Judge" },
  roleTones: { judge: "judge" },
  roleName: (role) => toolMadAgentName(role),
  metadataKey: "toolMad",
  steps: toolMadStepSchemas,
  plainStep(turn, ctx) {
    const base = defaultPlainStep(toolMadDefinition, turn, ctx);
    if (!base) return null;
    const step = readStep(toolMadDefinition, turn.metadata);
    if (turn.phase === "gate") {
      const g = gateValueSchema.safeParse((turn.metadata as { value?: unknown } | null)?.value);
      if (!g.success) return { ...base, text: "Could not read this step." };
      const v = g.data;
      return {
        speaker: "Checker",
        text: `${toolMadAgentName(v.agent) ?? v.agent}'s answer ${v.pass ? "passed" : "failed"} the checks: faithfulness to its documents ${pct(v.F)} (needs ${v.tauF}), relevance to the claim ${pct(v.AR)} (needs ${v.tauAR}).`,
      };
    }
    if (turn.phase.startsWith("faithfulness-statements")) {
      const list = safeJson<{ statements?: unknown }>(turn.content)?.statements;
      return Array.isArray(list)
        ? {
            speaker: "Checker",
            text: `Split the answer into ${list.length} statement${list.length === 1 ? "" : "s"} to check: ${list.map(String).join("; ")}`,
          }
        : { speaker: "Checker", text: plainWords(turn.content) };
    }
    if (turn.phase.startsWith("faithfulness-verdicts")) {
      const list = safeJson<{ verdicts?: Array<{ verdict?: unknown }> }>(turn.content)?.verdicts;
      if (Array.isArray(list)) {
        const backed = list.filter((v) => Number(v?.verdict) === 1).length;
        return {
          speaker: "Checker",
          text: `${backed} of ${list.length} statement${list.length === 1 ? " is" : "s are"} backed by the agent's documents.`,
        };
      }
      return { speaker: "Checker", text: plainWords(turn.content) };
    }
    if (step.step === "query" || turn.phase === "query") {
      const q = /QUERY\s*\**\s*[:：]\s*(.*)$/im.exec(turn.content)?.[1]?.trim();
      return { ...base, text: q ? `Searches for: ${q}` : withoutMarkers(turn.content) };
    }
    return base;
  },
  paperCost: () =>
    "spec §8: 10 ≤ LLM calls ≤ 31 at T = 3 (5 per agent-round + judge); the paper reports no token figures",
};

function safeJson<T>(text: string): T | null {
  try {
    return JSON.parse(
      text
        .trim()
        .replace(/^```(?:json)?\s*/i, "")
        .replace(/\s*```$/, ""),
    ) as T;
  } catch {
    return null;
  }
}

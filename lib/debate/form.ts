import type { StartDebateInput } from "./start";
import { costOf, loadPriceTable } from "@/lib/ai/prices";
import { modelIdForRole } from "@/lib/ai/registry";
import { getConfig } from "@/lib/config";
import { getProtocol, modelForRole, PROTOCOL_NAMES } from "./protocols";

/**
 * Turns the submission form's flat fields into the request that createDebate validates. Numbers
 * that do not parse are passed on as they are, so validation names the field instead of a default
 * silently replacing what the user typed.
 */
function num(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : (v as unknown as number);
}

/** Tool-MAD's presets as the form offers them (lib/debate/tool-mad/config.ts holds the values). */
export const TOOL_MAD_FORM_PRESETS = ["toolmad-fever", "toolmad-feverous", "toolmad-averitec", "toolmad-faviq"] as const;

/**
 * Tool-MAD's fields: a preset first, then what the user changed on top of it. `agent_3` may be
 * "none"; agents are sent as chosen, so the protocol's schema names a wrong pair.
 */
function toolMadConfig(f: Record<string, string>): Record<string, unknown> {
  const presetName = f.preset?.trim();
  const presets = getProtocol("tool-mad").presets;
  const config: Record<string, unknown> = presetName && presets[presetName] ? { ...presets[presetName] } : {};
  if (num(f.rounds) !== undefined) config.rounds = num(f.rounds);
  if (f.gate) config.gate = f.gate;
  if (f.labels) config.labels = f.labels;
  if (f.queryFormulation) config.queryFormulation = f.queryFormulation;
  if (f.toolMadVariant) config.variant = f.toolMadVariant;
  const agents = [f.agent_1, f.agent_2, f.agent_3].map((a) => a?.trim()).filter((a): a is string => !!a && a !== "none");
  if (agents.length) config.agents = agents;
  return config;
}

/** PROClaim's ablations as the form offers them (the full method is the default, no preset). */
export const PROCLAIM_FORM_PRESETS = [
  { name: "no-switch", title: "Without the role switch" },
  { name: "single-judge", title: "One judge instead of three" },
  { name: "no-prag", title: "Without progressive retrieval (3 fixed rounds)" },
  { name: "no-reflection", title: "Without self-reflection" },
  { name: "standard-mad", title: "Standard debate (baseline: 3 rounds, one judge)" },
] as const;

/** PROClaim's fields: a preset (an ablation) first, then the round cap typed on top of it. */
function proclaimConfig(f: Record<string, string>): Record<string, unknown> {
  const presetName = f.proclaimPreset?.trim();
  const presets = getProtocol("proclaim").presets;
  const config: Record<string, unknown> = presetName && presets[presetName] ? { ...presets[presetName] } : {};
  if (num(f.maxRounds) !== undefined) config.maxRounds = num(f.maxRounds);
  return config;
}

function radarConfig(f: Record<string, string>): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  if (f.variant) config.variant = f.variant;
  if (num(f.rebuttals) !== undefined) config.rebuttals = num(f.rebuttals);
  if (f.earlyStopping) config.earlyStopping = f.earlyStopping;
  if (f.context) config.context = f.context;
  const tauS = num(f.tauS);
  const tauV = num(f.tauV);
  if (tauS !== undefined || tauV !== undefined) config.thresholds = { tauS, tauV };
  return config;
}

/**
 * Protocols that search during the debate (Tool-MAD, ZoFia) never take pasted passages: their corpus
 * is what their search tools read. ZoFia may run with no corpus at all (web search, or nothing found,
 * said on the page); Tool-MAD's RAG agent needs one, which the request check says.
 */
function evidenceOf(protocol: string | undefined, f: Record<string, string>): StartDebateInput["evidence"] {
  const corpus = f.corpus?.trim() ?? "";
  const searchesItself = protocol === "tool-mad" || protocol === "zofia" || protocol === "proclaim";
  if (!searchesItself && f.evidenceMode === "gold") return { mode: "gold", text: f.goldEvidence ?? "" };
  if (protocol === "zofia" && !corpus) return { mode: "none" };
  return { mode: "retrieved", corpus, k: num(f.k) ?? 20 };
}

export function parseDebateForm(f: Record<string, string>): StartDebateInput {
  const protocol = f.protocol?.trim() || undefined;
  const toolMad = protocol === "tool-mad";
  const models: Record<string, string> = {};
  for (const [k, v] of Object.entries(f)) if (k.startsWith("model_") && v.trim()) models[k.slice(6)] = v.trim();
  const budgetTokens = num(f.budgetTokens);
  const maxCalls = num(f.maxCalls);
  const budget = budgetTokens !== undefined || maxCalls !== undefined ? { ...(budgetTokens !== undefined ? { budgetTokens } : {}), ...(maxCalls !== undefined ? { maxCalls } : {}) } : undefined;
  return {
    protocol,
    claim: f.claim ?? "",
    claimDate: f.claimDate?.trim() || undefined,
    title: f.title?.trim() || undefined,
    url: f.url?.trim() || undefined,
    evidence: evidenceOf(protocol, f),
    config: (toolMad ? toolMadConfig(f) : protocol === "proclaim" ? proclaimConfig(f) : radarConfig(f)) as NonNullable<StartDebateInput["config"]>,
    models,
    ...(budget ? { budget: budget as NonNullable<StartDebateInput["budget"]> } : {}),
  };
}

export type FormEstimate =
  | { ok: true; llmCalls: number; toolCalls: number; promptTokens: number; completionTokens: number; costUsd: number | null; unpriced: string[]; byRole: Array<{ role: string; model: string; calls: number; tokens: number; costUsd: number | null }>; note: string | null }
  | { ok: false; message: string };

/**
 * The cost preview shown before a debate starts: the protocol's own worst-case count of calls and
 * tokens, priced per role with that role's model. A model with no known price is named, never
 * counted as free.
 */
export function estimateFromForm(f: Record<string, string>): FormEstimate {
  const name = f.protocol?.trim() || "radar";
  if (!PROTOCOL_NAMES.includes(name)) return { ok: false, message: `There is no debate protocol "${name}".` };
  const protocol = getProtocol(name);
  if (!protocol.estimate) return { ok: false, message: `${protocol.title.split(" (")[0]} gives no estimate before starting; the cost is shown as the debate runs.` };
  const input = parseDebateForm(f);
  const parsed = protocol.configSchema.safeParse(input.config ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, message: `No estimate until the settings are valid: ${issue.path.join(".") || "configuration"}: ${issue.message}.` };
  }
  const est = protocol.estimate(parsed.data);
  const table = loadPriceTable(getConfig().pricesFile);
  const chosen: Record<string, string> = {};
  for (const role of protocol.roles(parsed.data)) {
    try {
      chosen[role] = modelIdForRole(role, input.models?.[role]);
    } catch {
      // No model for this role: the estimate still counts its calls, priced as unknown.
    }
  }
  const byRole = Object.entries(est.byRole ?? {}).map(([role, r]) => {
    let model = "";
    try {
      model = modelForRole(protocol, parsed.data, chosen, role);
    } catch {
      model = "";
    }
    const costUsd = model ? costOf(model, { promptTokens: r.promptTokens, completionTokens: r.completionTokens }, table) : null;
    return { role, model: model || "no model", calls: r.calls, tokens: r.promptTokens + r.completionTokens, costUsd };
  });
  const unpriced = [...new Set(byRole.filter((r) => r.costUsd === null).map((r) => r.model))];
  // The priced roles' sum; `unpriced` names the models left out of it.
  const priced = byRole.filter((r) => r.costUsd !== null);
  const costUsd = priced.length ? priced.reduce((a, r) => a + r.costUsd!, 0) : null;
  return { ok: true, llmCalls: est.llmCalls, toolCalls: est.toolCalls, promptTokens: est.promptTokens, completionTokens: est.completionTokens, costUsd, unpriced, byRole, note: est.note ?? null };
}

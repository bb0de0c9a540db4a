import type { StartDebateInput } from "./start";
import { costOf, loadPriceTable } from "@/lib/ai/prices";
import { modelIdForRole } from "@/lib/ai/registry";
import { getConfig } from "@/lib/config";
import { getProtocol, modelForRole, PROTOCOL_NAMES } from "./protocols";
import { formNumber } from "./definition";
import { DEFAULT_METHOD, findMethod, getMethod, methodDefinitions, methodTitle } from "./methods";

/**
 * The methods the form and the compare picker offer: every registered method this server can run,
 * the default first, each in its definition's words, with the presets its definition offers.
 */
export function formMethodChoices(): Array<{
  name: string;
  title: string;
  blurb: string;
  presets: NonNullable<ReturnType<typeof getMethod>["formPresets"]>;
}> {
  const defs = methodDefinitions().filter((d) => PROTOCOL_NAMES.includes(d.name));
  return [...defs.filter((d) => d.name === DEFAULT_METHOD), ...defs.filter((d) => d.name !== DEFAULT_METHOD)].map(
    (d) => ({
      name: d.name,
      title: `${d.title}${d.name === DEFAULT_METHOD ? " (default)" : d.input === "article" ? " (news articles)" : ""}`,
      blurb: d.description,
      presets: d.formPresets ?? [],
    }),
  );
}

/**
 * Turns the submission form's flat fields into the request that createDebate validates; each
 * method's fields become its configuration through its definition (lib/debate/<method>/definition.ts).
 */
function num(v: string | undefined): number | undefined {
  return formNumber(v);
}

/**
 * Protocols that search during the debate (Tool-MAD, ZoFia) never take pasted passages: their corpus
 * is what their search tools read. ZoFia may run with no corpus at all (web search, or nothing found,
 * said on the page); Tool-MAD's RAG agent needs one, which the request check says.
 */
function evidenceOf(protocol: string | undefined, f: Record<string, string>): StartDebateInput["evidence"] {
  const corpus = f.corpus?.trim() ?? "";
  const def = findMethod(protocol ?? DEFAULT_METHOD);
  if (!def?.bringsOwnEvidence && f.evidenceMode === "gold") return { mode: "gold", text: f.goldEvidence ?? "" };
  if (def?.corpusOptional && !corpus) return { mode: "none" };
  return { mode: "retrieved", corpus, k: num(f.k) ?? 20 };
}

export function parseDebateForm(f: Record<string, string>): StartDebateInput {
  const protocol = f.protocol?.trim() || undefined;
  // An unknown method is refused by createDebate; its fields are read as the default method's meanwhile.
  const def = findMethod(protocol ?? DEFAULT_METHOD) ?? getMethod(DEFAULT_METHOD);
  const models: Record<string, string> = {};
  for (const [k, v] of Object.entries(f)) if (k.startsWith("model_") && v.trim()) models[k.slice(6)] = v.trim();
  const budgetTokens = num(f.budgetTokens);
  const maxCalls = num(f.maxCalls);
  const budget =
    budgetTokens !== undefined || maxCalls !== undefined
      ? { ...(budgetTokens !== undefined ? { budgetTokens } : {}), ...(maxCalls !== undefined ? { maxCalls } : {}) }
      : undefined;
  return {
    protocol,
    claim: f.claim ?? "",
    claimDate: f.claimDate?.trim() || undefined,
    title: f.title?.trim() || undefined,
    url: f.url?.trim() || undefined,
    evidence: evidenceOf(protocol, f),
    config: def.configFromForm(f) as NonNullable<StartDebateInput["config"]>,
    models,
    ...(budget ? { budget: budget as NonNullable<StartDebateInput["budget"]> } : {}),
  };
}

export type FormEstimate =
  | {
      ok: true;
      llmCalls: number;
      worst: { llmCalls: number; tokens: number } | null;
      toolCalls: number;
      promptTokens: number;
      completionTokens: number;
      costUsd: number | null;
      unpriced: string[];
      byRole: Array<{ role: string; model: string; calls: number; tokens: number; costUsd: number | null }>;
      note: string | null;
    }
  | { ok: false; message: string };

/**
 * The cost preview shown before a debate starts: the protocol's own worst-case count of calls and
 * tokens, priced per role with that role's model. A model with no known price is named, never
 * counted as free.
 */
export function estimateFromForm(f: Record<string, string>, preset?: string): FormEstimate {
  const name = f.protocol?.trim() || DEFAULT_METHOD;
  if (!PROTOCOL_NAMES.includes(name)) return { ok: false, message: `There is no debate protocol "${name}".` };
  const protocol = getProtocol(name);
  if (!protocol.estimate)
    return {
      ok: false,
      message: `${methodTitle(name)} gives no estimate before starting; the cost is shown as the debate runs.`,
    };
  const input = parseDebateForm(f);
  // A named preset (the comparison form's per-method choice) is the configuration as it stands.
  const parsed = protocol.configSchema.safeParse(preset ? { ...protocol.presets[preset] } : (input.config ?? {}));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return {
      ok: false,
      message: `No estimate until the settings are valid: ${issue.path.join(".") || "configuration"}: ${issue.message}.`,
    };
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
    const costUsd = model
      ? costOf(model, { promptTokens: r.promptTokens, completionTokens: r.completionTokens }, table)
      : null;
    return { role, model: model || "no model", calls: r.calls, tokens: r.promptTokens + r.completionTokens, costUsd };
  });
  const unpriced = [...new Set(byRole.filter((r) => r.costUsd === null).map((r) => r.model))];
  // The priced roles' sum; `unpriced` names the models left out of it.
  const priced = byRole.filter((r) => r.costUsd !== null);
  const costUsd = priced.length ? priced.reduce((a, r) => a + r.costUsd!, 0) : null;
  return {
    ok: true,
    llmCalls: est.llmCalls,
    worst: est.worst ?? null,
    toolCalls: est.toolCalls,
    promptTokens: est.promptTokens,
    completionTokens: est.completionTokens,
    costUsd,
    unpriced,
    byRole,
    note: est.note ?? null,
  };
}

import type { StartDebateInput } from "./start";

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

export function parseDebateForm(f: Record<string, string>): StartDebateInput {
  const models: Record<string, string> = {};
  for (const [k, v] of Object.entries(f)) if (k.startsWith("model_") && v.trim()) models[k.slice(6)] = v.trim();
  const config: NonNullable<StartDebateInput["config"]> = {};
  if (f.variant) config.variant = f.variant as never;
  if (num(f.rebuttals) !== undefined) config.rebuttals = num(f.rebuttals);
  if (f.earlyStopping) config.earlyStopping = f.earlyStopping as never;
  if (f.context) config.context = f.context as never;
  const tauS = num(f.tauS);
  const tauV = num(f.tauV);
  if (tauS !== undefined || tauV !== undefined) config.thresholds = { tauS, tauV };
  return {
    protocol: f.protocol?.trim() || undefined,
    claim: f.claim ?? "",
    claimDate: f.claimDate?.trim() || undefined,
    evidence: f.evidenceMode === "gold" ? { mode: "gold", text: f.goldEvidence ?? "" } : { mode: "retrieved", corpus: f.corpus ?? "", k: num(f.k) ?? 20 },
    config,
    models,
  };
}

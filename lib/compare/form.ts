import type { CompareRequest } from "./start";
import { estimateFromForm, type FormEstimate } from "@/lib/debate/form";

/**
 * The "Compare methods" fields of /debates/new as a comparison request. Fields: `claim`, `title`
 * (headline, read by ZoFia), `claimDate`, `url`, `corpus`, one `method` per ticked box, `preset_<protocol>`
 * per method, `ensemble` ("" for none). What is typed is passed on unchanged, so validation names the field.
 */
export function parseCompareForm(values: Record<string, string>, methods: string[]): CompareRequest {
  const opt = (k: string) => values[k]?.trim() || undefined;
  return {
    claim: values.claim ?? "",
    title: opt("title"),
    claimDate: opt("claimDate"),
    url: opt("url"),
    corpus: opt("corpus"),
    methods: methods.map((protocol) => ({ protocol, preset: opt(`preset_${protocol}`) })),
    ensemble: (opt("ensemble") as CompareRequest["ensemble"]) ?? undefined,
  };
}

export type CompareEstimate =
  | {
      ok: true;
      perMethod: Array<{ protocol: string; estimate: FormEstimate }>;
      llmCalls: number;
      toolCalls: number;
      tokens: number;
      costUsd: number | null;
      unpriced: string[];
      missing: string[];
    }
  | { ok: false; message: string };

/**
 * The combined preview: each method's own worst-case estimate (the one the single-method form shows),
 * added up. A method that gives no estimate is named, never counted as zero; the sum is then a lower bound.
 */
export function estimateComparison(values: Record<string, string>, methods: string[]): CompareEstimate {
  if (!methods.length) return { ok: false, message: "Tick the methods to compare to see what they cost together." };
  // Each member's preset is its configuration, as memberRequest (./start.ts) creates it.
  const perMethod = methods.map((protocol) => {
    const preset = values[`preset_${protocol}`] ?? "";
    return { protocol, estimate: estimateFromForm({ protocol, corpus: values.corpus ?? "" }, preset || undefined) };
  });
  const ok = perMethod.filter((m) => m.estimate.ok) as Array<{
    protocol: string;
    estimate: Extract<FormEstimate, { ok: true }>;
  }>;
  const missing = perMethod.filter((m) => !m.estimate.ok).map((m) => m.protocol);
  const costs = ok.map((m) => m.estimate.costUsd);
  return {
    ok: true,
    perMethod,
    llmCalls: ok.reduce((a, m) => a + m.estimate.llmCalls, 0),
    toolCalls: ok.reduce((a, m) => a + m.estimate.toolCalls, 0),
    tokens: ok.reduce((a, m) => a + m.estimate.promptTokens + m.estimate.completionTokens, 0),
    costUsd: costs.some((c) => c !== null) ? costs.reduce<number>((a, c) => a + (c ?? 0), 0) : null,
    unpriced: [...new Set(ok.flatMap((m) => m.estimate.unpriced))],
    missing,
  };
}

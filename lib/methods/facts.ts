import { costOf, loadPriceTable } from "@/lib/ai/prices";
import { getConfig } from "@/lib/config";
import { getProtocol, modelForRole } from "@/lib/debate/protocols";
import { PRESETS, type ReferenceRow } from "@/lib/eval/presets";

/** The model the page prices every role with, so the four costs compare; the papers' own choice for most of them. */
export const PRICED_WITH = "openai:gpt-4o-mini";

export type MethodFacts = {
  title: string;
  /** Named settings on the form and for `debate --preset`. */
  debatePresets: string[];
  /** Benchmark settings for `eval --preset`, each with the dataset it runs. */
  evalPresets: { name: string; description: string; dataset: string }[];
  /** The protocol's own worst-case count for one claim at its defaults. */
  cost: { llmCalls: number; toolCalls: number; tokens: number; usd: number | null; note: string | null } | null;
  /** The papers' numbers, each once, from every preset of the protocol. */
  references: ReferenceRow[];
};

export function methodFacts(protocolName: string): MethodFacts {
  const protocol = getProtocol(protocolName);
  const config = protocol.parseConfig({});
  const est = protocol.estimate?.(config) ?? null;
  let usd: number | null = null;
  if (est) {
    const table = loadPriceTable(getConfig().pricesFile);
    const models = Object.fromEntries(protocol.roles(config).map((r) => [r, PRICED_WITH]));
    const parts = Object.entries(est.byRole ?? { judge: est }).map(([role, u]) =>
      costOf(modelForRole(protocol, config, models, role), u, table),
    );
    usd = parts.some((p) => p === null) ? null : parts.reduce<number>((a, p) => a + p!, 0);
  }
  const evalPresets = Object.entries(PRESETS)
    .filter(([, p]) => p.protocol === protocolName)
    .map(([name, p]) => ({ name, description: p.description, dataset: p.dataset as string }));
  const seen = new Set<string>();
  const references: ReferenceRow[] = [];
  for (const [, p] of Object.entries(PRESETS)) {
    if (p.protocol !== protocolName) continue;
    for (const r of p.references as readonly ReferenceRow[]) {
      const key = [r.source, r.system, r.model, r.dataset, r.metric, r.aggregate ?? ""].join("|");
      if (seen.has(key)) continue;
      seen.add(key);
      references.push(r);
    }
  }
  return {
    title: protocol.title,
    debatePresets: Object.keys(protocol.presets),
    evalPresets,
    cost: est
      ? {
          llmCalls: est.llmCalls,
          toolCalls: est.toolCalls,
          tokens: est.promptTokens + est.completionTokens,
          usd,
          note: est.note ?? null,
        }
      : null,
    references,
  };
}

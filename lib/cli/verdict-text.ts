import type { StepTurn } from "@/lib/debate/definition";
import { peopleVerdict } from "@/lib/debate/methods";

type EvidenceRef = { rank: number; title?: string | null; url?: string | null };

/**
 * A verdict in the terminal, in the one shape every page shows (lib/debate/methods.ts
 * `peopleVerdict`): the product-scale label, the method's own label in its words and its name,
 * the confidence where the method has one, one plain reason sentence and the evidence it rests on.
 * Plain text: the caller colours it.
 */
export function verdictText(
  method: string,
  verdict: { label: string; reason: string | null; confidence: number | null },
  turns: readonly StepTurn[] = [],
  evidence: readonly EvidenceRef[] = [],
): { head: string; reason: string | null; note: string | null; restsOn: string[] } {
  const v = peopleVerdict(method, verdict, turns, evidence);
  const scale = v.product ? "" : v.label === "UNPARSED" ? "" : "; no rating on the true / half-true / false scale";
  const head = [
    v.words.head,
    v.words.own === null ? `by ${v.methodTitle}${scale}` : `${v.methodTitle} said ${v.words.own}`,
    ...(v.confidence !== null ? [`confidence ${Math.round(v.confidence * 100)}%`] : []),
  ].join(" · ");
  return {
    head,
    reason: v.reason,
    note: v.reasonNote,
    restsOn: v.evidence.map((e) => `[${e.rank}] ${e.title}${e.url ? ` <${e.url}>` : ""}`),
  };
}

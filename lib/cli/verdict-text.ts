import type { StepTurn } from "@/lib/debate/definition";
import { peopleVerdict } from "@/lib/debate/methods";

/** "Not supported" and "NOT SUPPORTED" say the same: the label is not repeated after its words. */
const sameWords = (a: string, b: string) =>
  a
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim() ===
  b
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

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
  const own =
    sameWords(v.labelWords, v.label) || v.label === "UNPARSED" ? v.labelWords : `${v.labelWords} (${v.label})`;
  const scale = v.product ? "" : v.label === "UNPARSED" ? "" : "; no rating on the true / half-true / false scale";
  const head = [
    v.product ?? v.labelWords,
    v.product === v.label ? `by ${v.methodTitle}` : `${v.methodTitle} said ${own}${scale}`,
    ...(v.confidence !== null ? [`confidence ${Math.round(v.confidence * 100)}%`] : []),
  ].join(" · ");
  return {
    head,
    reason: v.reason,
    note: v.reasonNote,
    restsOn: v.evidence.map((e) => `[${e.rank}] ${e.title}${e.url ? ` <${e.url}>` : ""}`),
  };
}

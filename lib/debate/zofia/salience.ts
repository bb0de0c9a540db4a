import type { Sentence } from "./sentences";
import { cosineSimilarity as cosine } from "@/lib/retrieval/fusion";

/**
 * Stage 1, step 2: hierarchical salience. A unit matters when it fits its local context
 * C(U) = s_{j−1} ⊕ s_j ⊕ s_{j+1} and that context fits the whole article T:
 * S_hier(U) = cos(v_U, v_C) · cos(v_C, v_T).
 */

export function localContext(sentences: Sentence[], j: number): string {
  return sentences
    .slice(Math.max(0, j - 1), j + 2)
    .map((s) => s.text)
    .join(" ");
}

export function hierarchicalSalience(
  vU: readonly number[],
  vC: readonly number[],
  vT: readonly number[],
): { local: number; global: number; sHier: number } {
  const local = cosine(vU, vC);
  const global = cosine(vC, vT);
  return { local, global, sHier: local * global };
}

/** Repeated mentions of one entity: the mention with the highest S_hier stands for it (case-insensitive text). */
export function bestMentions<T extends { text: string; sHier: number }>(mentions: T[]): T[] {
  const best = new Map<string, T>();
  for (const m of mentions) {
    const key = m.text.trim().toLowerCase();
    const held = best.get(key);
    if (!held || m.sHier > held.sHier) best.set(key, m);
  }
  return [...best.values()];
}

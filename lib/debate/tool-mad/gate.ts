import { cosineSimilarity as cosine } from "@/lib/retrieval/fusion";

/**
 * The stability scores and the gate (tool-mad design decisions §2, §9), as pure arithmetic so
 * the formulas are tested on their own.
 */

/** F = supported statements / statements; null when there are none (nothing was asserted, so nothing is grounded). */
export function faithfulness(verdicts: ReadonlyArray<0 | 1>): number | null {
  if (verdicts.length === 0) return null;
  return verdicts.reduce<number>((a, v) => a + v, 0) / verdicts.length;
}

/** One cosine for the whole product (lib/retrieval/fusion.ts); re-exported under the name the formulas use. */
export { cosine };

/** AR = mean cosine between the claim and each question generated from the answer; null without questions. */
export function answerRelevance(
  claim: readonly number[],
  questions: ReadonlyArray<readonly number[]>,
): { AR: number | null; cosines: number[] } {
  const cosines = questions.map((q) => cosine(claim, q));
  return { AR: cosines.length ? cosines.reduce((a, c) => a + c, 0) / cosines.length : null, cosines };
}

export type GateThresholds = { tauF: number; tauAR: number; gateCompare: "gte" | "gt" };

/** Passes iff both scores exist and clear their thresholds (≥ by default, > under `gt`). */
export function gatePasses(F: number | null, AR: number | null, t: GateThresholds): boolean {
  if (F === null || AR === null) return false;
  const clears = (x: number, tau: number) => (t.gateCompare === "gt" ? x > tau : x >= tau);
  return clears(F, t.tauF) && clears(AR, t.tauAR);
}

/** Mean of the values that exist; null when none do (a round whose score could not be computed is left out). */
export function meanOf(values: ReadonlyArray<number | null>): number | null {
  const xs = values.filter((v): v is number => v !== null);
  return xs.length ? xs.reduce((a, v) => a + v, 0) / xs.length : null;
}

/** Sentences of a text: statements for the embedding scorer, document sentences to match them against. */
export function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, " ")
    .split(/(?<=[.!?])\s+(?=[A-Z0-9"“(\[])/)
    .map((s) => s.trim())
    .filter((s) => /[A-Za-z0-9]/.test(s));
}

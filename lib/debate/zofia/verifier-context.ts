import { cosineSimilarity as cosine } from "@/lib/retrieval/fusion";

/**
 * The verifier's context for claim q: C_rel(q) = {c ∈ top-k(web sentences, q) : cos(v_q, v_c) ≥ θ_sim}.
 * An empty C_rel means the verifier is not asked at all (NOT ENOUGH INFORMATION, no call).
 */
export function relevantContext(
  vq: readonly number[],
  sentences: string[],
  vectors: ReadonlyArray<readonly number[]>,
  cfg: { verifyTopK: number; thetaSim: number },
): Array<{ text: string; cosine: number }> {
  return sentences
    .map((text, i) => ({ text, cosine: cosine(vq, vectors[i]!) }))
    .sort((a, b) => b.cosine - a.cosine)
    .slice(0, cfg.verifyTopK)
    .filter((c) => c.cosine >= cfg.thetaSim);
}

/** A quote counts as verified when it is a substring of the context the verifier was shown (whitespace and case folded). */
export function quoteVerified(quote: string, context: string[]): boolean {
  const fold = (s: string) => s.replace(/[“”]/g, '"').replace(/[‘’]/g, "'").replace(/\s+/g, " ").trim().toLowerCase();
  const q = fold(quote);
  return q.length > 0 && context.some((c) => fold(c).includes(q));
}

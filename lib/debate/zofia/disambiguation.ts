import { cosineSimilarity as cosine } from "@/lib/retrieval/fusion";

/**
 * Wikipedia sense choice: o* = argmax_m cos(v_{C(U)}, v_{C(U←o_m)}), where C(U←o_m) is the local
 * context with the mention replaced by candidate o_m's description. The sense whose description
 * reads most like the mention in its own context wins.
 */
export function replaceMention(context: string, mention: string, description: string): string {
  const i = context.toLowerCase().indexOf(mention.toLowerCase());
  // A mention not found verbatim (NER offsets over another spelling) is described after the context instead.
  return i === -1
    ? `${context} ${description}`
    : `${context.slice(0, i)}${description}${context.slice(i + mention.length)}`;
}

export function chooseSense(
  vContext: readonly number[],
  vReplaced: ReadonlyArray<readonly number[]>,
): { index: number; similarities: number[] } {
  const similarities = vReplaced.map((v) => cosine(vContext, v));
  let index = -1;
  similarities.forEach((s, i) => {
    if (index === -1 || s > similarities[index]!) index = i;
  });
  return { index, similarities };
}

/** The first n sentences of a summary (what the expert and debaters read). */
export function firstSentences(text: string, n: number): string {
  const parts = text.match(/[^.!?]+(?:[.!?]+["')\]]*|$)/g) ?? [];
  return parts.slice(0, n).join("").trim();
}

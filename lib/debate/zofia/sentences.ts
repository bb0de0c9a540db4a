/**
 * Sentence spans of an article, for local contexts (s_{j-1} ⊕ s_j ⊕ s_{j+1}) and the verifier's
 * web sentences. A plain rule (end punctuation followed by a capital, a quote or a digit, or a
 * line break) is enough: the paper does not name a splitter, and offsets must match the NER's.
 */
export type Sentence = { text: string; start: number; end: number };

export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const boundary = /(?<=[.!?]["'”’)]?)\s+(?=["'“‘(]?[\p{Lu}\p{N}])|\n\s*\n|\n(?=\s*[-*•]|\s*\p{Lu})/gu;
  let start = 0;
  const push = (end: number) => {
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const t = raw.trim();
    if (t) out.push({ text: t, start: start + lead, end: start + lead + t.length });
  };
  for (const m of text.matchAll(boundary)) {
    push(m.index!);
    start = m.index! + m[0].length;
  }
  push(text.length);
  return out;
}

/** Index of the sentence holding character `offset` (the last one when past the end). */
export function sentenceAt(sentences: Sentence[], offset: number): number {
  const i = sentences.findIndex((s) => offset < s.end);
  return i === -1 ? Math.max(0, sentences.length - 1) : i;
}

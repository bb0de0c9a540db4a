import { DEFAULT_CHUNKING, type ChunkingOptions } from "./types";
import { splitSentences, type Span } from "@/lib/text/sentences";

// The one sentence splitter (lib/text/sentences.ts), shared with check-worthiness; passages keep its offsets.
export { splitSentences, type Span };

/** Cuts an over-long sentence at whitespace so no passage exceeds maxChars by much. */
function hardSplit(text: string, s: Span, maxChars: number): Span[] {
  const out: Span[] = [];
  let start = s.start;
  while (s.end - start > maxChars) {
    let cut = start + maxChars;
    const window = text.slice(start + Math.floor(maxChars / 2), cut);
    const ws = window.search(/\s\S*$/);
    if (ws >= 0) cut = start + Math.floor(maxChars / 2) + ws;
    out.push({ text: text.slice(start, cut).trimEnd(), start, end: start + text.slice(start, cut).trimEnd().length });
    start = cut;
    while (start < s.end && /\s/.test(text[start]!)) start++;
  }
  if (s.end > start) out.push({ text: text.slice(start, s.end), start, end: s.end });
  return out;
}

export function resolveChunking(partial?: Partial<ChunkingOptions>): ChunkingOptions {
  const o = {
    ...DEFAULT_CHUNKING,
    ...Object.fromEntries(Object.entries(partial ?? {}).filter(([, v]) => v !== undefined)),
  };
  if (!Number.isInteger(o.maxChars) || o.maxChars < 50)
    throw new Error(`chunk size must be an integer of at least 50 characters (got ${o.maxChars})`);
  if (!Number.isInteger(o.overlapSentences) || o.overlapSentences < 0)
    throw new Error(`overlap must be a whole number of sentences (got ${o.overlapSentences})`);
  if (!Number.isInteger(o.minChars) || o.minChars < 0 || o.minChars >= o.maxChars)
    throw new Error(`minimum passage size must be between 0 and the chunk size (got ${o.minChars})`);
  return o;
}

/**
 * Packs sentences into passages of at most `maxChars`, repeating the last `overlapSentences`
 * sentences of a passage at the start of the next. A text that fits is one passage, so
 * sentence-level corpora keep one passage per record. A trailing piece shorter than `minChars`
 * joins the passage before it instead of standing alone.
 */
export function chunkText(text: string, options?: Partial<ChunkingOptions>): Span[] {
  const { maxChars, overlapSentences, minChars } = resolveChunking(options);
  const sentences = splitSentences(text).flatMap((s) =>
    s.text.length > maxChars ? hardSplit(text, s, maxChars) : [s],
  );
  if (sentences.length === 0) return [];
  const span = (from: number, to: number): Span => {
    const start = sentences[from]!.start;
    const end = sentences[to]!.end;
    return { text: text.slice(start, end), start, end };
  };
  if (sentences.at(-1)!.end - sentences[0]!.start <= maxChars) return [span(0, sentences.length - 1)];

  const groups: Array<[number, number]> = [];
  let first = 0;
  while (first < sentences.length) {
    let last = first;
    while (last + 1 < sentences.length && sentences[last + 1]!.end - sentences[first]!.start <= maxChars) last++;
    groups.push([first, last]);
    if (last === sentences.length - 1) break;
    // The overlap must leave at least one new sentence per passage, or the loop would not advance.
    const overlap = Math.min(overlapSentences, last - first);
    first = last + 1 - overlap;
  }
  const tail = groups.at(-1)!;
  const prev = groups.at(-2);
  if (prev && tail) {
    const newStart = Math.max(tail[0], prev[1] + 1);
    const newChars = sentences[tail[1]]!.end - sentences[newStart]!.start;
    if (newChars < minChars) {
      groups.pop();
      prev[1] = tail[1];
    }
  }
  return groups.map(([a, b]) => span(a, b));
}

import { DEFAULT_CHUNKING, type ChunkingOptions } from "./types";

/** A span of the original text; `text` is exactly `source.slice(start, end)`. */
export type Span = { text: string; start: number; end: number };

/*
 * Sentence splitting by rule rather than a model: evidence passages must keep exact character
 * offsets into the document, and the rules below cover what news and abstracts actually contain.
 */

// Words that end in a period without ending the sentence (compared lower-case, without the dot).
const ABBREVIATIONS = new Set(
  (
    "mr mrs ms mx dr prof sr jr st mt ft rev hon gen col lt sgt capt cmdr adm maj gov sen rep pres supt insp " +
    "vs etc al approx appt dept est fig figs no nos vol vols ed eds op pp p para art sec ch cf ca " +
    "inc ltd co corp bros llc plc assn univ " +
    "jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun " +
    "ave blvd rd hwy"
  ).split(" "),
);

// After an initialism such as "U.S." a capital letter usually continues a name ("U.S. Energy
// Information Administration"), unless it is a word that typically opens a sentence.
const SENTENCE_OPENERS = new Set(
  (
    "the a an it its he she they we i you this that these those there here his her their our my " +
    "but and so yet or in on at for from to by with as if when while after before since although though " +
    "however meanwhile still also then now today yesterday last next some many most no not one two " +
    "what who why how where which according officials critics"
  ).split(" "),
);

const TERMINATOR = /[.!?…]+["'”’»)\]]*(?=\s)/g;

function previousWord(text: string, end: number): string {
  let start = end;
  while (start > 0 && !/\s/.test(text[start - 1]!)) start--;
  return text.slice(start, end);
}

function nextWord(text: string, from: number): string {
  const m = /^\s*([^\s]+)/.exec(text.slice(from, from + 64));
  return m?.[1] ?? "";
}

function isBoundary(text: string, termStart: number, termEnd: number): boolean {
  const after = nextWord(text, termEnd);
  if (!after) return true;
  const first = after.replace(/^["'“‘«(\[]+/, "")[0] ?? after[0]!;
  // A sentence starts with a capital, a digit or an opening quote; lower case continues
  // ("e.g. this", "Is it?" she asked).
  if (!/[\p{Lu}\p{N}"'“‘«(\[]/u.test(after[0]!) || (first && /\p{Ll}/u.test(first))) return false;
  const mark = text.slice(termStart, termEnd);
  if (!mark.startsWith(".") || mark.startsWith("..")) return true;
  const word = previousWord(text, termStart).replace(/^["'“‘«(\[]+/, "");
  if (!word) return true;
  // A single capital letter is an initial ("J. Smith").
  if (/^\p{Lu}$/u.test(word)) return false;
  if (ABBREVIATIONS.has(word.toLowerCase())) return false;
  // Initialisms with inner dots: "U.S.", "a.m.", "Ph.D".
  if (/^(\p{L}\.)+\p{L}$/u.test(word)) {
    return SENTENCE_OPENERS.has(after.replace(/[^\p{L}]/gu, "").toLowerCase());
  }
  return true;
}

/** Splits text into sentences with offsets; blank lines always end a sentence. */
export function splitSentences(text: string): Span[] {
  const out: Span[] = [];
  const push = (start: number, end: number) => {
    while (start < end && /\s/.test(text[start]!)) start++;
    while (end > start && /\s/.test(text[end - 1]!)) end--;
    if (end > start) out.push({ text: text.slice(start, end), start, end });
  };
  // Paragraphs first: a heading or list item without a full stop is still its own sentence.
  const paragraph = /\n[ \t]*\n\s*/g;
  let pStart = 0;
  const paragraphs: Array<[number, number]> = [];
  for (let m = paragraph.exec(text); m; m = paragraph.exec(text)) {
    paragraphs.push([pStart, m.index]);
    pStart = m.index + m[0].length;
  }
  paragraphs.push([pStart, text.length]);

  for (const [ps, pe] of paragraphs) {
    const para = text.slice(ps, pe);
    let sStart = 0;
    TERMINATOR.lastIndex = 0;
    for (let m = TERMINATOR.exec(para); m; m = TERMINATOR.exec(para)) {
      const termEnd = m.index + m[0].length;
      if (isBoundary(para, m.index, termEnd)) {
        push(ps + sStart, ps + termEnd);
        sStart = termEnd;
      }
    }
    push(ps + sStart, pe);
  }
  return out;
}

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

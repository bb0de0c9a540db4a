/** A span of the original text; `text` is exactly `source.slice(start, end)`. */
export type Span = { text: string; start: number; end: number };

/*
 * The one sentence splitter: corpus passages (lib/corpus/chunk.ts) and check-worthiness
 * (lib/checkworthy/split.ts) both cut text here, each with its options. By rule rather than a
 * model: evidence passages must keep exact character offsets into the document, and the rules
 * below cover what news, abstracts and speeches actually contain.
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

function isBoundary(text: string, termStart: number, termEnd: number, ellipsisEnds: boolean): boolean {
  const after = nextWord(text, termEnd);
  if (!after) return true;
  const first = after.replace(/^["'“‘«(\[]+/, "")[0] ?? after[0]!;
  // A sentence starts with a capital, a digit or an opening quote; lower case continues
  // ("e.g. this", "Is it?" she asked).
  if (!/[\p{Lu}\p{N}"'“‘«(\[]/u.test(after[0]!) || (first && /\p{Ll}/u.test(first))) return false;
  const mark = text.slice(termStart, termEnd);
  if (/^(\.\.|…)/.test(mark)) return ellipsisEnds;
  if (!mark.startsWith(".")) return true;
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

export type SentenceOptions = {
  /**
   * Whether "..." or "…" before a capital ends a sentence: yes for corpus passages (the default),
   * no for check-worthiness, whose sentences have always read "Wait... What happened?" as one.
   */
  ellipsisEndsSentence?: boolean;
};

/** Splits text into sentences with offsets; blank lines always end a sentence. */
export function splitSentences(text: string, options: SentenceOptions = {}): Span[] {
  const ellipsisEnds = options.ellipsisEndsSentence ?? true;
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
      if (isBoundary(para, m.index, termEnd, ellipsisEnds)) {
        push(ps + sStart, ps + termEnd);
        sStart = termEnd;
      }
    }
    push(ps + sStart, pe);
  }
  return out;
}

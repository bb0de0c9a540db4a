import { splitSentences as splitSpans } from "@/lib/text/sentences";

/**
 * A text as sentences, in reading order, each with who said it when the text is a transcript
 * ("NAME: words" lines). Sentence boundaries come from the one sentence splitter the corpus uses
 * too (lib/text/sentences.ts: abbreviations such as "Mr." and "U.S." do not end a sentence; an
 * ellipsis does not either, here); a transcript is split turn by turn, so no sentence runs across
 * two speakers.
 */

export type Sentence = {
  /** Position in the text, from 0. */
  index: number;
  text: string;
  /** Who said it, when the text is a transcript; null otherwise. */
  speaker: string | null;
  /** The paragraph or speaker turn it belongs to, from 0: the page shows the text in these blocks. */
  block: number;
};

/** At most this many sentences are scored from one text (a long speech is about 300). */
export const MAX_SENTENCES = 600;

// "BIDEN: ...", "Mr. Smith: ...", "MODERATOR (Lester Holt): ...": a name of at most six words, then a colon.
const SPEAKER_LINE =
  /^\s*([A-Z][A-Za-z.'’-]*(?:[ \t]+[A-Za-z.'’-]+){0,5}(?:[ \t]*\([^)\n]{1,60}\))?)[ \t]*:[ \t]+(\S.*)$/;
// Stage directions in transcripts: "(APPLAUSE)", "[crosstalk]".
const STAGE = /^\s*[[(][^\])]{1,60}[\])]\s*$/;
// Words that open prose lines with a colon but are not speakers.
const NOT_SPEAKERS = new Set([
  "note",
  "update",
  "source",
  "sources",
  "correction",
  "editor's note",
  "photo",
  "related",
  "read more",
  "see also",
  "warning",
]);

function speakerOf(line: string): { speaker: string; text: string } | null {
  const m = SPEAKER_LINE.exec(line);
  if (!m) return null;
  const speaker = m[1]!.trim();
  if (NOT_SPEAKERS.has(speaker.toLowerCase())) return null;
  return { speaker, text: m[2]!.trim() };
}

/** A transcript when at least two lines open with a speaker's name and a colon. */
export function isTranscript(text: string): boolean {
  let n = 0;
  for (const line of text.split(/\r?\n/)) if (speakerOf(line) && ++n >= 2) return true;
  return false;
}

type Block = { speaker: string | null; text: string };

function blocksOf(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  if (isTranscript(text)) {
    let current: Block | null = null;
    for (const line of lines) {
      if (STAGE.test(line)) continue;
      const turn = speakerOf(line);
      if (turn) {
        current = { speaker: turn.speaker, text: turn.text };
        blocks.push(current);
      } else if (line.trim()) {
        // A line without a name continues the turn before it (or is an untitled opening).
        if (current) current.text += ` ${line.trim()}`;
        else blocks.push((current = { speaker: null, text: line.trim() }));
      }
    }
    return blocks;
  }
  // Prose: paragraphs are separated by blank lines; single line breaks inside one are wrapping.
  for (const para of text.replace(/\r\n?/g, "\n").split(/\n\s*\n/)) {
    const t = para.replace(/\s+/g, " ").trim();
    if (t) blocks.push({ speaker: null, text: t });
  }
  return blocks;
}

export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  blocksOf(text).forEach((block, b) => {
    const sentences = splitSpans(block.text, { ellipsisEndsSentence: false }).map((s) => s.text);
    for (const s of sentences) {
      const t = s.trim();
      if (!/[A-Za-z0-9]/.test(t)) continue;
      out.push({ index: out.length, text: t, speaker: block.speaker, block: b });
    }
  });
  return out;
}

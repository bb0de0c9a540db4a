import { splitSentences as splitSpans } from "@/lib/text/sentences";
import { isSubtitles, subtitlesToText } from "./subtitles";

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

// "BIDEN: ...", "Mr. Smith: ...", "MODERATOR (Lester Holt): ...": a name of at most six words, then a colon.
const NAME = String.raw`[A-Z][A-Za-z0-9.'’-]*(?:[ \t]+[A-Za-z0-9.'’-]+){0,5}(?:[ \t]*\([^)\n]{1,60}\))?`;
const SPEAKER_LINE = new RegExp(String.raw`^\s*(${NAME})[ \t]*:[ \t]+(\S.*)$`);
// A time code as transcription services write them: "01:23", "1:02:03", "00:01:23.450", in
// brackets or parentheses or bare.
const TIME = String.raw`(?:\d{1,2}:)?\d{1,2}:\d{2}(?:[.,]\d{1,3})?`;
const TIMED = String.raw`(?:\(${TIME}\)|\[${TIME}\]|${TIME})`;
// A line that only names who speaks next, the words following on the lines below (as Rev, Otter
// and most transcription services write them): "Joe Biden: (01:23)", "Joe Biden (00:01:23):",
// "Speaker 1  0:03", "KRISTEN WELKER:". A bare name with no colon needs its time code.
const SPEAKER_HEADER = new RegExp(
  String.raw`^\s*(${NAME})(?:[ \t]*(${TIMED}))?[ \t]*:[ \t]*(${TIMED})?\s*$|^\s*(${NAME})[ \t]+${TIMED}\s*$`,
);
// A time code opening a line before a speaker's name ("[00:01:23] BIDEN: ...", "00:01:30 TRUMP: ..."),
// dropped. Before words, only one in brackets or parentheses is: "10:30 is when we met" keeps its time.
const LEADING_TIME = new RegExp(String.raw`^\s*${TIMED}[ \t]*(?:[-–—][ \t]*)?`);
const MARKED_TIME = new RegExp(String.raw`^\s*(?:\(${TIME}\)|\[${TIME}\])[ \t]*(?:[-–—][ \t]*)?`);
// A time code as a name's qualifier ("Joe Biden (00:01:23)"), dropped from the name.
const TIME_QUALIFIER = new RegExp(String.raw`[ \t]*\(${TIME}\)$`);
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

const ANY_TIME = new RegExp(TIMED, "g");
/** Whether a colon follows the name itself, not only inside a time code. */
const hasNameColon = (line: string) => line.replace(ANY_TIME, "").includes(":");
const nameOf = (raw: string) => raw.trim().replace(TIME_QUALIFIER, "");
const withoutTime = (line: string) => line.replace(LEADING_TIME, "");
const withoutMarkedTime = (words: string) => words.replace(MARKED_TIME, "");

function speakerOf(line: string): { speaker: string; text: string } | null {
  const m = SPEAKER_LINE.exec(withoutTime(line));
  if (!m) return null;
  const speaker = nameOf(m[1]!);
  if (NOT_SPEAKERS.has(speaker.toLowerCase())) return null;
  const text = withoutMarkedTime(m[2]!).trim();
  // "Joe Biden: (01:23)" is a header whose words follow below, not a turn of its own.
  return text ? { speaker, text } : null;
}

/** The speaker a header line names ("Joe Biden: (01:23)"), when the line is only that. */
function headerOf(line: string): string | null {
  const m = SPEAKER_HEADER.exec(withoutTime(line));
  if (!m) return null;
  const timed = Boolean(m[2] || m[3] || m[4] || TIME_QUALIFIER.test(m[1] ?? ""));
  const speaker = nameOf(m[1] ?? m[4]!);
  if (!speaker || NOT_SPEAKERS.has(speaker.toLowerCase())) return null;
  // Without a time code only a name in capitals ("KRISTEN WELKER:") heads a turn: "Background:" or
  // "What we know:" alone on a line is an article's heading.
  if (!timed && speaker !== speaker.toUpperCase()) return null;
  return speaker;
}

/** Subtitles become their words first (lib/checkworthy/subtitles.ts); any other text is read as it is. */
const wordsOf = (text: string) => (isSubtitles(text) ? subtitlesToText(text) : text);

/** A transcript when at least two lines name a speaker (with the words on the line or below it). */
export function isTranscript(text: string): boolean {
  let n = 0;
  for (const line of wordsOf(text).split(/\r?\n/)) if ((speakerOf(line) || headerOf(line)) && ++n >= 2) return true;
  return false;
}

type Block = { speaker: string | null; text: string; header?: string };

function blocksOf(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  if (isTranscript(text)) {
    let current: Block | null = null;
    for (const line of lines) {
      if (STAGE.test(line)) continue;
      const header = headerOf(line);
      if (header) {
        // The words follow on the next lines.
        blocks.push((current = { speaker: header, text: "", header: hasNameColon(line) ? undefined : line.trim() }));
        continue;
      }
      const turn = speakerOf(line);
      const words = withoutMarkedTime(line).trim();
      if (turn) {
        current = { speaker: turn.speaker, text: turn.text };
        blocks.push(current);
      } else if (words && !STAGE.test(words)) {
        // A line without a name continues the turn before it (or is an untitled opening).
        if (current) current.text += current.text ? ` ${words}` : words;
        else blocks.push((current = { speaker: null, text: words }));
      }
    }
    // A name and a time with no colon that no words followed ("Doors open 18:30" in a list of
    // times) was a line of text after all: kept as one, so nothing typed is lost. A name with a
    // colon and nothing after it (only "(CROSSTALK)") is a turn with no words.
    return blocks.map((b) => (b.text ? b : { speaker: null, text: b.header ?? "" })).filter((b) => b.text);
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
  blocksOf(wordsOf(text)).forEach((block, b) => {
    const sentences = splitSpans(block.text, { ellipsisEndsSentence: false }).map((s) => s.text);
    for (const s of sentences) {
      const t = s.trim();
      if (!/[A-Za-z0-9]/.test(t)) continue;
      out.push({ index: out.length, text: t, speaker: block.speaker, block: b });
    }
  });
  return out;
}

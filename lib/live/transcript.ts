/*
 * Transcript files for `counterpoint live replay`: WebVTT, SRT, or `SPEAKER: words` lines. No
 * subtitle library is installed, and these formats are small: cues are blocks separated by blank
 * lines, with a `start --> end` timing line. Lines without times (the plain format) are spaced at a
 * speaking pace, so a replay at real speed sounds like speech.
 */

export type TranscriptLine = { lineId: string; speaker: string | null; text: string; atMs: number };

export class TranscriptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TranscriptError";
  }
}

/** Words per second of ordinary speech (about 150 a minute): the plain format's clock. */
const WORDS_PER_SECOND = 2.5;

const TIMING = /^\s*((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})\s*-->\s*((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})/;
// "NAME: words", "Mr. Smith: words": a name of at most six words, then a colon.
const SPEAKER = /^([A-Z][A-Za-z.'’-]*(?:[ \t]+[A-Za-z.'’-]+){0,5}(?:[ \t]*\([^)\n]{1,60}\))?)[ \t]*:[ \t]+(\S.*)$/;
// WebVTT voice spans: "<v Jane Smith>words".
const VOICE = /^<v(?:\.[^ >]+)?\s+([^>]{1,80})>(.*)$/;

function ms(stamp: string): number {
  const parts = stamp.replace(",", ".").split(":");
  const sec = Number(parts.pop());
  const min = Number(parts.pop() ?? 0);
  const hr = Number(parts.pop() ?? 0);
  return Math.round(((hr * 60 + min) * 60 + sec) * 1000);
}

function speakerOf(text: string): { speaker: string | null; text: string } {
  const voice = VOICE.exec(text);
  if (voice) return { speaker: voice[1]!.trim(), text: voice[2]!.replace(/<\/v>/g, "").trim() };
  const m = SPEAKER.exec(text);
  return m ? { speaker: m[1]!.trim(), text: m[2]!.trim() } : { speaker: null, text };
}

/** Cue text without markup: tags (`<i>`, `<c.x>`) go, entities for &, < and > are read. */
function plain(text: string): string {
  return text
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

function timedCues(text: string, name: string): TranscriptLine[] {
  const out: TranscriptLine[] = [];
  const blocks = text.split(/\n[ \t]*\n/);
  let lastSpeaker: string | null = null;
  for (const [b, block] of blocks.entries()) {
    const lines = block.split("\n");
    const t = lines.findIndex((l) => TIMING.test(l));
    if (t < 0) continue; // WEBVTT header, NOTE and STYLE blocks, stray numbers
    const timing = TIMING.exec(lines[t]!)!;
    const raw = lines
      .slice(t + 1)
      .join(" ")
      .trim();
    const voice = VOICE.exec(raw);
    const said = voice ? { speaker: voice[1]!.trim(), text: voice[2]! } : speakerOf(raw);
    const words = plain(said.text);
    if (!words) continue;
    // A cue without a name continues the last speaker's turn (captions name a speaker once).
    const speaker: string | null = said.speaker ?? lastSpeaker;
    lastSpeaker = speaker;
    const id = t > 0 && lines[t - 1]!.trim() ? lines[t - 1]!.trim() : String(b + 1);
    const atMs = ms(timing[1]!);
    if (!Number.isFinite(atMs)) throw new TranscriptError(`${name}: cue ${id} has a time that is not a time`);
    out.push({ lineId: id.slice(0, 200), speaker, text: words, atMs });
  }
  return out;
}

function speakerLines(text: string): TranscriptLine[] {
  const out: TranscriptLine[] = [];
  let at = 0;
  let lastSpeaker: string | null = null;
  for (const [i, line] of text.split("\n").entries()) {
    const trimmed = line.trim();
    if (!trimmed || /^[[(][^\])]{1,60}[\])]$/.test(trimmed)) continue; // blank lines and "(APPLAUSE)"
    const said = speakerOf(trimmed);
    const speaker: string | null = said.speaker ?? lastSpeaker;
    lastSpeaker = speaker;
    out.push({ lineId: `L${i + 1}`, speaker, text: said.text, atMs: at });
    at += Math.round((said.text.split(/\s+/).length / WORDS_PER_SECOND) * 1000);
  }
  return out;
}

/** Reads a transcript; `name` (the file's) is used in errors. */
export function parseTranscript(source: string, name = "the transcript"): TranscriptLine[] {
  const text = source.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const timed = text.split("\n").some((l) => TIMING.test(l));
  const lines = timed ? timedCues(text, name) : speakerLines(text);
  if (!lines.length)
    throw new TranscriptError(`${name} has no lines: give WebVTT, SRT, or one "SPEAKER: words" line per turn`);
  return lines;
}

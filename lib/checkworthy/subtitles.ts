/**
 * Subtitles (.srt, .vtt) as the words they carry. A speech's captions are often what a newsroom has
 * first, and read as prose their cue numbers and time ranges become "sentences" and every sentence
 * is cut where the captioner cut the line. Here the header, notes, cue numbers, time ranges and
 * markup go; the cues' lines are joined into running text, a line break kept only where a speaker
 * is named (`<v Joe Biden>`, `JOE BIDEN:`, `>> JOE BIDEN:`), so the transcript reader
 * (lib/checkworthy/split.ts) keeps who said what. Rolling captions, where each cue repeats the line
 * before it, are read once.
 */

const TIME = String.raw`(?:\d{1,2}:)?\d{1,2}:\d{2}[.,]\d{1,3}`;
const CUE_TIMING = new RegExp(String.raw`^\s*${TIME}\s*-->\s*${TIME}`);

/** Subtitles when at least two lines are cue timings ("00:00:01,000 --> 00:00:04,000"). */
export function isSubtitles(text: string): boolean {
  let n = 0;
  for (const line of text.split(/\r?\n/)) if (CUE_TIMING.test(line) && ++n >= 2) return true;
  return false;
}

/** A voice tag names the speaker: `<v Joe Biden>words</v>` or `<v.loud Joe Biden>`. */
const VOICE = /^<v(?:\.[\w.-]+)?\s+([^>]{1,80})>/i;
// Other markup: <i>, <b>, <c.yellow>, <00:00:01.500> (karaoke timings), {\an8} (SRT positioning).
const MARKUP = /<[^>\n]{0,80}>|\{\\[^}\n]{0,40}\}/g;
// Captioners mark a new speaker with ">>" or a leading dash.
const SPEAKER_CHANGE = /^\s*(?:>>|-)\s*/;
// "JOE BIDEN: ..." as a caption writes a speaker (capitals, at most six words).
const NAMED = /^[A-Z][A-Z.'’ -]{0,60}:\s/;

export function subtitlesToText(text: string): string {
  const lines = text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split("\n");
  const out: string[] = [];
  let previousCue: string[] = [];
  let cue: string[] = [];
  let inCue = false;
  let skipBlock = false;
  // Who the running words belong to: a voice tag repeated on each line of one turn starts no new one.
  let speaking: string | null = null;
  const flush = () => {
    // Rolling captions: the lines this cue shares with the one before were read already.
    const fresh = cue.filter((l, i) => !(i === 0 && previousCue.length && previousCue[previousCue.length - 1] === l));
    for (const l of fresh) out.push(l);
    if (cue.length) previousCue = cue;
    cue = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) {
      flush();
      inCue = false;
      skipBlock = false;
      continue;
    }
    if (skipBlock) continue;
    if (!inCue && (/^WEBVTT\b/.test(line) || /^(?:NOTE|STYLE|REGION)\b/.test(line))) {
      skipBlock = true;
      continue;
    }
    // A timing opens a cue (a file that leaves out the blank line between cues included).
    if (CUE_TIMING.test(line)) {
      flush();
      inCue = true;
      continue;
    }
    // A cue number or a cue id, on the line before its timing (inside a cue only a number is one:
    // a caption's last line may come straight before the next timing).
    if ((!inCue || /^\d+$/.test(line)) && CUE_TIMING.test(lines[i + 1] ?? "")) continue;
    let words = line;
    let speaker: string | null = null;
    const voice = VOICE.exec(words);
    if (voice) speaker = voice[1]!.trim();
    words = words.replace(MARKUP, "").replace(/\s+/g, " ").trim();
    const changed = SPEAKER_CHANGE.test(words);
    words = words.replace(SPEAKER_CHANGE, "");
    if (!words) continue;
    // A new speaker starts a line of its own; other caption lines run on.
    if (speaker && speaker !== speaking) cue.push(`\n${speaker}: ${words}`);
    else if (!speaker && (NAMED.test(words) || changed)) cue.push(`\n${words}`);
    else cue.push(words);
    if (speaker) speaking = speaker;
    else if (NAMED.test(words) || changed) speaking = null;
  }
  flush();
  return out
    .join(" ")
    .replace(/ ?\n/g, "\n")
    .replace(/^\n+/, "")
    .replace(/[ \t]+/g, " ")
    .trim();
}

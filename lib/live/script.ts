import { randomUUID } from "node:crypto";
import type { NewCard } from "@/db/queries/live";
import type { IncomingLine } from "./service";

/*
 * Lines in a script the check-worthiness scorer cannot read. The scorer is trained on English: a
 * line in Cyrillic or Arabic scores low for no reason of its own and would never reach the board.
 * Such a line becomes one card of its own, the whole line unscored and saying why, so the desk
 * reads it instead of never seeing it. Not matched or grouped (matching is English too).
 */

/** Scripts named in the card's words; any other non-Latin script is "a script other than Latin". */
const SCRIPTS = [
  "Cyrillic",
  "Greek",
  "Arabic",
  "Hebrew",
  "Devanagari",
  "Bengali",
  "Tamil",
  "Thai",
  "Georgian",
  "Armenian",
  "Ethiopic",
  "Hangul",
  "Hiragana",
  "Katakana",
  "Han",
] as const;
const PATTERNS = SCRIPTS.map((name) => [name, new RegExp(`\\p{Script=${name}}`, "gu")] as const);

const WORDS: Record<string, string> = { Han: "Chinese characters", Hangul: "Korean (Hangul)" };

/** Fewer letters than this: too little to say what script it is (a name, "OK"). */
const MIN_LETTERS = 4;

/**
 * The script of `text` when most of its letters are not Latin (the scorer's), else null, in words
 * for the card ("Cyrillic", "Japanese").
 */
export function unreadableScript(text: string): string | null {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters < MIN_LETTERS) return null;
  const latin = text.match(/\p{Script=Latin}/gu)?.length ?? 0;
  if (latin / letters >= 0.5) return null;
  const count = new Map(PATTERNS.map(([name, re]) => [name, text.match(re)?.length ?? 0]));
  // Japanese mixes kana and Han: any kana makes it Japanese.
  if ((count.get("Hiragana") ?? 0) + (count.get("Katakana") ?? 0) > 0) return "Japanese";
  let best: { name: string; n: number } = { name: "a script other than Latin", n: 0 };
  for (const [name, n] of count) if (n > best.n) best = { name: WORDS[name] ?? name, n };
  return best.name;
}

/** One unscored card per unreadable line (the whole line as its sentence). */
export function unreadableCards(lines: ReadonlyArray<{ line: IncomingLine; script: string }>): NewCard[] {
  return lines.map(({ line, script }) => ({
    id: randomUUID(),
    lineId: line.lineId,
    sentenceIndex: 0,
    speaker: line.speaker ?? null,
    sentence: line.text.replace(/\s+/g, " ").trim(),
    atMs: line.atMs,
    score: 0,
    reason: null,
    match: null,
    // Its own group: an unread line is never taken for a repeat of another.
    groupKey: `unreadable:${line.lineId}`,
    groupOf: null,
    unreadable: script,
  }));
}

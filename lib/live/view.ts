import type { LiveCardMatch, LiveCardState } from "@/db/schema";

/*
 * A card as every reader gets it (the board, GET /api/v1/live/{id}, the stream): the earlier
 * check in words first, then the sentence. Client-safe: the board renders the same words.
 */

export type LiveCardView = {
  id: string;
  rev: number;
  lineId: string;
  lineSeq: number;
  sentenceIndex: number;
  speaker: string | null;
  sentence: string;
  atMs: number;
  /** "00:12:03": the time code in the event. */
  timeCode: string;
  score: number;
  /** The script of a line the scorer cannot read ("Cyrillic"): the card is the whole line, not scored. */
  unreadable: string | null;
  reason: string | null;
  match: LiveCardMatch | null;
  /** "Checked before: False, 12 March 2025, by Full Fact"; null when nothing matched. */
  checkedBefore: string | null;
  groupOf: string | null;
  repeats: number;
  state: LiveCardState;
  debate: { id: string; status: string; verdict: string | null } | null;
  factCheckId: string | null;
};

export function timeCode(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}`;
}

const SCALE_WORDS: Record<string, string> = { TRUE: "True", "HALF-TRUE": "Half true", FALSE: "False" };

function day(iso: string | null): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return d.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}

/** The earlier verdict first: the product's scale in words, else the publisher's own rating. */
export function checkedBeforeWords(m: LiveCardMatch | null): string | null {
  if (!m) return null;
  const verdict = (m.scale && SCALE_WORDS[m.scale]) || m.rating || "rating not given";
  const own =
    m.scale && m.rating && m.rating.toLowerCase() !== SCALE_WORDS[m.scale]?.toLowerCase() ? ` (“${m.rating}”)` : "";
  const when = day(m.reviewDate ?? m.claimDate);
  const by = m.publisher ? `by ${m.publisher}` : m.source === "debate" ? "by a debate here" : null;
  return `Checked before: ${[`${verdict}${own}`, when, by].filter(Boolean).join(", ")}`;
}

export const STATE_WORDS: Record<LiveCardState, string> = {
  new: "New",
  debating: "Debate started",
  attached: "Earlier check attached",
  dismissed: "Dismissed",
  drafted: "Sent to an editor",
};

/** What the board says instead of a score on a card the scorer could not read. */
export function unreadableWords(script: string): string {
  return `Not scored: written in ${script}, which the check-worthiness scorer (English) cannot read. Read it yourself.`;
}

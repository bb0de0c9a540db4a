import type { ClaimMatch } from "@/lib/matching/types";
import { z } from "zod";
import type { FormState } from "@/lib/forms/state";
import { MOST_SENTENCES_SCORED, type ScoredSentence, type ScorerName } from "./types";
import type { CheckedClaim } from "./start";

/**
 * The check-text page's two forms as plain data (client-safe): what "Find check-worthy sentences"
 * returns, and how "Start debates" reads the picked claims from its flat fields.
 */

export type RankedView = {
  sentences: ScoredSentence[];
  /** Sentence indexes offered for picking, best first. */
  top: number[];
  threshold: number;
  scorer: ScorerName;
  scorerNote: string | null;
  leftOver: number;
  /** The most sentences of one text the scorer reads (what `leftOver` went past). */
  scoredAtMost: number;
  title: string | null;
  /** YYYY-MM-DD: when it was said or published, as given or as found on the page. */
  date: string | null;
  transcript: boolean;
};

export type RankState = FormState & { ranked?: RankedView };

export type StartedView = { debateId: string; claim: string };
export type StartClaimsState = FormState & {
  started?: StartedView[];
  failed?: Array<{ claim: string; error: string }>;
  /** Claims checked before: not started; each with its earlier checks. */
  matched?: Array<{ claim: string; claimDate: string | null; matches: ClaimMatch[] }>;
};

/**
 * The largest file /check-text reads. Form bodies may be up to 2 MB (lib/forms/body-limit.ts), so a
 * file somewhat over this still reaches the action, which refuses it beside the file field.
 */
export const UPLOAD_MAX_BYTES = 900 * 1024;

/** The files /check-text reads. Subtitles (.srt, .vtt) are text; the splitter reads them as subtitles (./subtitles.ts). */
export const UPLOAD_EXTENSIONS = [".txt", ".md", ".html", ".htm", ".pdf", ".srt", ".vtt"] as const;

/** The refusal of a file over UPLOAD_MAX_BYTES, naming it: said by the page before sending, and by the action. */
export function uploadTooBigMessage(name: string): string {
  return `${name} is over ${UPLOAD_MAX_BYTES / 1024} KB, the limit for a file here: paste the part you want ranked, or save a shorter file.`;
}

/** How many sentences are offered for picking. */
export const TOP_OFFERED = 10;

/**
 * Words that do not stand alone in a claim: whom "he" means and when "this year" was must be
 * written out. "I" and "we" count only when nobody is named as the speaker (the draft names them).
 */
const NEEDS_CONTEXT =
  /\b(he|she|they|him|her|them|his|hers|their|today|yesterday|tomorrow|ago|my opponent|(?:this|last|next) (?:year|month|week))\b/i;
const FIRST_PERSON = /\b(i|we|my|our|us|me)\b/i;

export function needsContext(s: { text: string; speaker: string | null }): boolean {
  return NEEDS_CONTEXT.test(s.text) || (!s.speaker && FIRST_PERSON.test(s.text));
}

/**
 * A transcript's speaker tag as a person writes the name: "MARSH" → "Marsh", "GOV. ELENA O'NEIL" →
 * "Gov. Elena O'Neil". A tag already in mixed case is kept as written.
 */
export function speakerName(tag: string): string {
  const t = tag.trim();
  if (t !== t.toUpperCase()) return t;
  return t.toLowerCase().replace(/(^|[\s'’.-])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());
}

/**
 * The claim a picked sentence starts as: the speaker named, so "I" and "we" can be read. `names`:
 * what the user wrote once for a speaker tag (else the tag as a person writes it).
 */
export function claimDraft(s: { text: string; speaker: string | null }, names: Record<string, string> = {}): string {
  if (!s.speaker) return s.text;
  const who = names[s.speaker]?.trim() || speakerName(s.speaker);
  return `${who} said: ${s.text}`;
}

/** The picked claims from the start form: `pick` lists sentence indexes, each with `claim_<i>` and `date_<i>`. */
export function pickedClaims(values: Record<string, string>, picks: readonly string[]): CheckedClaim[] {
  return picks.map((i) => ({
    claim: values[`claim_${i}`] ?? "",
    claimDate: values[`date_${i}`]?.trim() || undefined,
  }));
}

const rankedSchema = z.object({
  sentences: z
    .array(
      z.object({
        index: z.number().int().min(0),
        text: z.string(),
        speaker: z.string().nullable(),
        block: z.number().int().min(0),
        score: z.number().min(0).max(1),
        checkworthy: z.boolean(),
        reason: z.string(),
        scoredBy: z.enum(["offline", "llm"]),
      }),
    )
    .max(MOST_SENTENCES_SCORED),
  top: z.array(z.number().int().min(0)).max(50),
  threshold: z.number(),
  scorer: z.enum(["offline", "llm"]),
  scorerNote: z.string().nullable(),
  leftOver: z.number().int().min(0),
  scoredAtMost: z.number().int().min(1),
  title: z.string().nullable(),
  date: z.string().nullable(),
  transcript: z.boolean(),
});

/**
 * The ranking the start form carried back (as its `ranked` field) after a post without
 * JavaScript; null when absent or not a ranking. Only ever shown back to the person who posted it.
 */
export function rankedFromValues(values: Record<string, string> | undefined): RankedView | null {
  const raw = values?.ranked;
  if (!raw) return null;
  try {
    const parsed = rankedSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Sentences of context sent with a picked one for a stand-alone wording (lib/checkworthy/standalone.ts). */
export const CONTEXT_BEFORE = 2;
export const CONTEXT_AFTER = 1;

/** A stand-alone wording suggested by the language model, or why there is none. */
export type StandaloneSuggestion = { ok: true; claim: string; unresolved: string[] } | { ok: false; problem: string };

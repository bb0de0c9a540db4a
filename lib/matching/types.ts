import type { ProductLabel } from "@/lib/debate/types";
/*
 * Claim matching: "has this been checked already?" before a debate spends a token.
 * This file is the contract between the matcher (lib/matching/match.ts: retrieval over stored
 * checks, re-scoring, date window) and the places that ask it (forms, compare, CLI, evaluation,
 * check-worthy batches). Client-safe: types only.
 */

/** Where an earlier check comes from. */
export type MatchSourceKind =
  /** A finished debate in this instance. */
  | "debate"
  /** A fact-check this newsroom published from a debate. */
  | "published"
  /** A fact-check imported from a ClaimReview feed or CSV. */
  | "imported"
  /** Google Fact Check Tools `claims:search`, when configured. */
  | "factcheck-tools";

export type ClaimMatch = {
  source: MatchSourceKind;
  /** The debate id, fact-check id or imported row id; the URL for factcheck-tools results. */
  ref: string;
  /** The claim as that check worded it. */
  claim: string;
  /** The check's rating in its own words ("Mostly False", "FAKE"); null when the record has none. */
  rating: string | null;
  /** The rating on the product scale when it can be read; null: unknown. */
  scale: ProductLabel | null;
  publisher: string | null;
  /** Where a person reads the check: an absolute URL, or an app path for this instance's debates. */
  url: string | null;
  /** When the checked claim was made, and when the check was published (ISO dates; null: unknown). */
  claimDate: string | null;
  reviewDate: string | null;
  /** Re-scored similarity in [0, 1]; shown to the user next to the threshold. */
  similarity: number;
  /** Why it matched, in words: shared names, numbers, years. */
  reasons: string[];
  /** What differs, in words: people, places, dates and numbers only one names, else the wording (absent: an older decision). */
  differences?: string[];
  /** The two texts are the same once case, spacing and punctuation go: the only case shown as 100%. */
  sameText?: boolean;
  /** True when the two claims' dates are further apart than the date window: shown, with both dates. */
  outsideDateWindow: boolean;
  /**
   * The incoming claim's date the window compared with (the one given, or the middle of the one
   * year its text names); null or absent: unknown, so no window applied.
   */
  queryDate?: string | null;
};

export type MatchOptions = {
  /** Minimum similarity shown; defaults to the setting. */
  threshold?: number;
  /** At most this many results. */
  limit?: number;
  /** The incoming claim's date, if known, for the date window. */
  claimDate?: Date | null;
};

/** What the user chose after seeing the matches; stored with the debate. */
export type MatchDecision =
  | { choice: "no-match" }
  | { choice: "debate-anyway"; matches: ClaimMatch[] }
  | { choice: "attach-as-evidence"; matches: ClaimMatch[]; attached: ClaimMatch[] };

// Defined in db/types.ts (stored shapes flow down to db/); re-exported for lib's callers.
export type { MatchSourceKind, ClaimMatch, MatchDecision } from "@/db/types";
/*
 * Claim matching: "has this been checked already?" before a debate spends a token.
 * This file is the contract between the matcher (lib/matching/match.ts: retrieval over stored
 * checks, re-scoring, date window) and the places that ask it (forms, compare, CLI, evaluation,
 * check-worthy batches). Client-safe: types only.
 */

export type MatchOptions = {
  /** Minimum similarity shown; defaults to the setting. */
  threshold?: number;
  /** At most this many results. */
  limit?: number;
  /** The incoming claim's date, if known, for the date window. */
  claimDate?: Date | null;
};

import type { DebateStatus } from "@/db/schema";
import type { ProductLabel } from "@/lib/debate/types";
import type { EnsembleMethod } from "@/db/types";
// Defined in db/types.ts (stored shapes flow down to db/); re-exported for lib's callers.
export type { EnsembleMethod } from "@/db/types";

/**
 * One claim put to several methods at once. The comparison owns nothing but the link: each
 * method's debate is an ordinary debate (stored, resumable, shareable on its own) that points
 * back to the comparison.
 */

/** What one method said, and what it took. Money is null when a model's price is unknown. */
export type ComparisonMember = {
  debateId: string;
  protocol: string;
  /** The preset the debate started from, or null for the protocol's defaults. */
  preset: string | null;
  /** In words for the page, e.g. "PROClaim (full method)". */
  title: string;
  status: DebateStatus;
  verdict: {
    /** The protocol's own label, as stored (e.g. SUPPORTS, REFUTE, TRUE). */
    label: string;
    /** On the product's scale, so methods with different labels can be compared; null for "not enough information" or unreadable. */
    productLabel: ProductLabel | null;
    confidence: number | null;
    reason: string | null;
    /** Where the reason came from when the method's verdict has none (ZoFia: the side its judge agreed with). */
    reasonNote?: string | null;
    decidedBy: string | null;
  } | null;
  tokens: { prompt: number; completion: number };
  calls: number;
  costUsd: number | null;
  /** From start to finish (or to now while running); null before it starts. */
  durationMs: number | null;
  error: string | null;
};

/**
 * The optional ensemble: a vote over the members' product labels, never replacing them.
 * `pending` counts members still running (the ensemble is provisional until it is 0).
 */
export type EnsembleResult = {
  method: EnsembleMethod;
  label: ProductLabel | null;
  tie: boolean;
  /** Majority vote only: no label has more than half of the votes cast (a tie included), so `label` is null. */
  noMajority: boolean;
  votes: { debateId: string; protocol: string; productLabel: ProductLabel | null; weight: number }[];
  pending: number;
  /** One sentence in plain words, e.g. "3 of 4 methods say FALSE". */
  explanation: string;
};

/** Members grouped by the product label they reached (null: no usable verdict yet). */
export type Agreement = { allAgree: boolean; groups: { productLabel: ProductLabel | null; protocols: string[] }[] };

export type ComparisonView = {
  id: string;
  createdAt: Date;
  claim: { id: string; text: string };
  corpus: { id: string; name: string } | null;
  /** Null when the person who started the comparison did not ask for an ensemble. */
  ensemble: EnsembleResult | null;
  agreement: Agreement;
  members: ComparisonMember[];
};

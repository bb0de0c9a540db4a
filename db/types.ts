import type { UserRole } from "./schema";

/*
 * The shapes db/ stores and returns, defined here so types flow down: lib/ imports and re-exports
 * them (lib/debate/types, lib/matching/types, lib/corpus/types, lib/compare/types, lib/ai/call,
 * lib/ai/prices, lib/datasets/claims) and db/ imports nothing from
 * lib/, types included (scripts/check-deps.mjs). Where lib/ checks a shape with zod, the schema is
 * held equal to the type here at compile time, so the two cannot drift. Types only: client-safe.
 */

/** Who acts on stored rows that check a role themselves (annotations); lib's Principal is one. */
export type Actor = { id: string; roles: readonly UserRole[] };

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

/** What the user chose after seeing the matches; stored with the debate. */
export type MatchDecision =
  | { choice: "no-match" }
  | { choice: "debate-anyway"; matches: ClaimMatch[] }
  | { choice: "attach-as-evidence"; matches: ClaimMatch[]; attached: ClaimMatch[] };

export type DebateEvidence = {
  /** 1-based; cited as [E<rank>]. */
  rank: number;
  text: string;
  /** `earlier-check`: an earlier fact-check of this claim, attached by the person when matching found it before the start. */
  source: "retrieved" | "gold" | "supplied" | "tool" | "earlier-check";
  title?: string;
  url?: string;
  publishedAt?: string;
  passageId?: number;
  externalId?: string;
  score?: number;
  denseRank?: number;
  lexicalRank?: number;
  /**
   * Where the passage came from: `claim` for the pool frozen when the debate was created, else the
   * tool that found it during the debate (e.g. `tool:corpus`, `tool:tavily`).
   */
  origin?: string;
  /** The turn (seq) that added it during the debate; absent for the pool the debate started with. */
  addedSeq?: number;
  /** Roles that may read it (a Tool-MAD agent's private round documents); absent: everyone. Judges (kind `judge`) read it all. */
  visibleTo?: string[];
  /** Provider details (the result's provider score, `live`, the query that found it). */
  metadata?: Record<string, unknown>;
};

export type VerdictRecord = {
  label: string;
  reason: string | null;
  rawText: string;
  confidence: number | null;
  labelProbs: Record<string, number> | null;
  stoppedEarly: boolean;
  stopAfter: string | null;
  roundsCompleted: number;
  /** How the verdict was reached, e.g. `judge`, `consensus`, `panel` (stored in `details`). */
  decidedBy?: string;
  /** Why the debate stopped where it did: `rounds`, `early-stop`, `consensus`, `budget:tokens`, `budget:calls` ... */
  stopReason?: string;
  /** Protocol-specific parts of the verdict (votes, confidence parts, stability scores), stored as JSON. */
  details?: Record<string, unknown>;
  /** A panel's individual ballots, stored as non-final verdict rows beside the final one. */
  panel?: Array<{
    judgeRole: string;
    label: string;
    reason: string | null;
    rawText: string;
    confidence: number | null;
    labelProbs: Record<string, number> | null;
    details?: Record<string, unknown>;
  }>;
};

/** The product's scale: reports, accuracy and annotation compare on it. */
export type ProductLabel = "TRUE" | "HALF-TRUE" | "FALSE";

export type ChunkingOptions = {
  /** Upper bound of a passage, in characters; a passage ends at a sentence boundary below it. */
  maxChars: number;
  /** Sentences repeated at the start of the next passage, so context spanning a cut is not lost. */
  overlapSentences: number;
  /** Passages shorter than this are merged into their neighbour. */
  minChars: number;
};

export type IngestCounts = {
  docsAdded: number;
  docsUpdated: number;
  docsUnchanged: number;
  docsSkippedEmpty: number;
  passagesAdded: number;
  passagesRemoved: number;
  errors: number;
};

export type EnsembleMethod = "majority" | "confidence-weighted";

export type CallRecord = {
  model: string;
  purpose: string;
  usage: TokenUsage;
  costUsd: number | null;
  latencyMs: number;
  attempts: number;
  error?: string;
};

export type TokenUsage = { promptTokens: number; completionTokens: number; cachedPromptTokens?: number };

/** One claim of a claims file as stored (checked by lib/datasets/claims.ts's claimRecordSchema, after its transforms). */
export type ClaimRecord = {
  id: string;
  claim: string;
  label?: string;
  date?: string;
  gold_evidence_ids?: string[];
  gold_evidence?: { id?: string; text: string }[];
  supplied_evidence?: { id?: string; text: string; score?: number }[];
  metadata?: Record<string, unknown>;
};

import type { OptionScores, Fallback } from "@/lib/ai/score-options";
import type { TokenUsage } from "@/lib/ai/prices";

/**
 * The contract between the runner (persistence, streaming, cancellation, retries, resuming) and a
 * protocol module (who speaks when, with which prompt, and how the verdict is reached). A protocol
 * never touches the database or the network directly: it asks the context to run a turn.
 */

export type DebateEvidence = {
  /** 1-based; cited as [E<rank>]. */
  rank: number;
  text: string;
  source: "retrieved" | "gold" | "supplied";
  title?: string;
  url?: string;
  publishedAt?: string;
  passageId?: number;
  externalId?: string;
  score?: number;
  denseRank?: number;
  lexicalRank?: number;
};

export type TurnKind = "speech" | "checkpoint" | "judge" | "analysis";

export type TurnSpec = {
  round: number;
  /** e.g. opening, rebuttal-1, closing, checkpoint-1, verdict, domain. */
  phase: string;
  role: string;
  kind: TurnKind;
  system: string;
  prompt: string;
  maxOutputTokens?: number;
  temperature?: number;
};

export type TurnResult = {
  seq: number;
  text: string;
  model: string;
  usage: TokenUsage;
  costUsd: number | null;
  latencyMs: number;
  /** True when the turn was read back from the database while resuming, not generated again. */
  replayed: boolean;
};

export type ScoredTurnSpec = TurnSpec & { options: readonly string[]; marker?: string; fallback?: Fallback };
export type ScoredTurnResult = TurnResult & { scores: OptionScores };

export type CheckpointRecord = {
  after: string;
  round: number;
  pStop: number | null;
  pContinue: number | null;
  stopMargin: number | null;
  labelProbs: Record<string, number> | null;
  confidence: number | null;
  confidenceEmitted: number | null;
  verdict: string | null;
  tauS: number;
  tauV: number;
  decision: "stop" | "continue" | "unscored";
  scoringMethod: string | null;
  tokensSoFar: number;
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
};

export type DebateContext<C> = {
  claim: { text: string; date?: string };
  evidence: readonly DebateEvidence[];
  config: C;
  /** Model id for a role. */
  modelFor(role: string): string;
  signal: AbortSignal;
  speak(spec: TurnSpec): Promise<TurnResult>;
  /** A turn whose answer is also scored over fixed options (stop agent, round judge). */
  speakScored(spec: ScoredTurnSpec): Promise<ScoredTurnResult>;
  checkpoint(record: CheckpointRecord): Promise<void>;
  /** Tokens used by the debate so far (prompt + completion), for checkpoint records. */
  tokensSoFar(): number;
};

export type Protocol<C> = {
  name: string;
  /** Roles that need a model under this configuration, in speaking order. */
  roles(config: C): string[];
  /** Every prompt template this configuration uses, for the debate's prompts hash. */
  templates(config: C): string[];
  run(ctx: DebateContext<C>): Promise<VerdictRecord>;
};

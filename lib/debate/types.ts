import type { OptionScores, Fallback } from "@/lib/ai/score-options";
import type { TokenUsage } from "@/lib/ai/prices";
import type { z } from "zod";
import type { SearchRequestInput, ToolCallRecord } from "@/lib/tools";
import type { Fence } from "@/lib/prompts/fence";
import type { PromptText, SystemText } from "@/lib/prompts/text";
import type { NerProvider, NerProviderId } from "@/lib/tools/ner/types";
import type { WikiProvider, WikiProviderId } from "@/lib/tools/wiki/types";
import type { EntityReader, MethodEvalScores } from "./capabilities";
import type { DebateEvidence, VerdictRecord, ProductLabel } from "@/db/types";
// Defined in db/types.ts (stored shapes flow down to db/); re-exported for lib's callers.
export type { DebateEvidence, VerdictRecord, ProductLabel } from "@/db/types";

/**
 * The contract between the runner (persistence, streaming, cancellation, retries, resuming) and a
 * protocol module (who speaks when, with which prompt, and how the verdict is reached). A protocol
 * never touches the database or the network directly: it asks the context to run a turn.
 */

/** Passages a turn adds to the debate's pool: ranks continue after the last one, and each remembers who added it. */
export type AddEvidenceSpec = {
  items: Array<Omit<DebateEvidence, "rank" | "origin" | "addedSeq" | "visibleTo">>;
  origin: string;
  /** The seq of the turn that found them (a tool turn); adding again for the same seq returns the stored rows (resume). */
  addedSeq: number;
  visibleTo?: string[];
};

/**
 * What a turn is, as the engine reads it: `speech` is what every watcher may see, `tool` a search,
 * `analysis` a computed step, `judge` any judging. A method may name its own judging kind (RADAR
 * stores its stop agent's and round judge's turns as `checkpoint`); the engine stores it as given
 * and treats it as judging, never as a speech.
 */
export type TurnKind = "speech" | "judge" | "analysis" | "tool" | (string & {});

export type TurnSpec = {
  round: number;
  /** The method's name for the step (opening, rebuttal-1, verdict ...). */
  phase: string;
  role: string;
  kind: TurnKind;
  /** Program-written only (`renderSystem`): nothing a user, a document or a model wrote. */
  system: SystemText;
  /** Untrusted text only inside the debate's fence (lib/prompts/text.ts). */
  prompt: PromptText;
  maxOutputTokens?: number;
  temperature?: number;
  /** Protocol signals for this turn (round labels, scores, queries), stored in `turns.metadata`. */
  metadata?: Record<string, unknown>;
  /**
   * An agent that keeps a chat: the conversation so far, sent before `prompt` (which becomes the
   * last user message). Without it the turn is one user message.
   */
  messages?: Array<{ role: "user"; content: PromptText } | { role: "assistant"; content: string }>;
  /**
   * A turn that ends the debate (the judge): allowed after the budget is spent, so a protocol that
   * wraps up early still reaches a verdict. Any other turn started after the budget is spent fails.
   */
  wrapUp?: boolean;
  /** `speak` only: metadata read from the answer (a parsed label or query), merged over `metadata` when the turn is stored. */
  metadataFrom?: (text: string) => Record<string, unknown>;
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

/**
 * A JSON answer: `value` is the schema's output, or null with `unparsed` set when the answer and
 * its one repair both failed the schema (the turn is stored with `metadata.unparsed`, never a
 * default standing in for what the model said).
 */
export type JsonTurnResult<T> = TurnResult &
  ({ value: T; unparsed: null } | { value: null; unparsed: { error: string } });

/** A step that calls no model (a gate, a score, a vote): its result is stored once and replayed. */
export type RecordSpec<T> = {
  round: number;
  phase: string;
  role: string;
  /** Runs once; its value must survive JSON (it is stored in `metadata.value` and replayed from there). */
  compute: () => T | Promise<T>;
  /** The transcript line; default the value as JSON. */
  content?: (value: T) => string;
  metadata?: Record<string, unknown>;
};
export type RecordResult<T> = { seq: number; value: T; replayed: boolean };

/**
 * The entity recogniser and encyclopedia a debate froze when it was created (a protocol's
 * `lookups` hook reads them from its stored configuration). Addresses are fingerprints
 * (lib/tools/fingerprint.ts); `undefined`: a debate stored before they were frozen, which takes
 * the server's setting.
 */
export type LookupSettings = {
  ner?: { provider: NerProviderId; endpoint?: string | null };
  encyclopedia?: { provider: WikiProviderId; baseURL?: string | null; corpus?: string | null };
};

/** The providers a lookup step may ask, built from the frozen settings only when the step really runs. */
export type LookupTools = { ner(): NerProvider; encyclopedia(): WikiProvider | null };

/** A computed step that asks an outside provider (entities, an encyclopedia): stored like `record`, replayed on resume. */
export type LookupSpec<T> = Omit<RecordSpec<T>, "compute"> & { compute: (tools: LookupTools) => T | Promise<T> };

/** A search through one of the debate's frozen tools (`config.tools[tool]`, default "search"). */
export type ToolSpec = {
  round: number;
  phase: string;
  role: string;
  tool?: string;
  request: SearchRequestInput;
  metadata?: Record<string, unknown>;
  /**
   * The results join the debate's evidence pool (origin `tool:<provider>`, added by this turn),
   * visible to `visibleTo` (default: only `role`; [] or "all" for everyone). `false`: not added.
   */
  addEvidence?: false | { visibleTo?: string[] | "all" };
};

/**
 * Where a declared tool searches: `web` is the configured web provider (WEB_SEARCH_PROVIDER, the
 * corpus stand-in when none), `corpus` the debate's own corpus (Tool-MAD's RAG agent).
 */
export type ToolSource = "web" | "corpus";
export type ToolResult = {
  seq: number;
  record: Extract<ToolCallRecord, { status: "ok" }>;
  /** The results as pool passages with their ranks ([E#]), in result order; empty when `addEvidence` was false. */
  evidence: DebateEvidence[];
  replayed: boolean;
};

/** Sentence vectors (answer relevance, novelty, SC-MMR): computed once with the debate's frozen encoder, replayed on resume. */
export type EmbedSpec = {
  round: number;
  phase: string;
  role: string;
  texts: string[];
  metadata?: Record<string, unknown>;
};
export type EmbedResult = { seq: number; vectors: number[][]; embedder: string; replayed: boolean };

export type ScoredTurnSpec = TurnSpec & {
  options: readonly string[];
  marker?: string;
  fallback?: Fallback;
  metadataFromScored?: (text: string, scores: OptionScores) => Record<string, unknown>;
};
export type ScoredTurnResult = TurnResult & { scores: OptionScores };

/**
 * A record a method keeps beside its steps (RADAR's early-stopping checkpoint), by kind: checked
 * with `schema`, identified within the debate by `key` (writing the same key again replaces it, as
 * a resumed run does), stored by the runner in the generic notes table and sent to watchers as a
 * `note` event. The protocol only declares it; it never touches the database.
 */
export type MethodNotes = Record<string, { schema: z.ZodType<Record<string, unknown>>; key(value: never): string }>;

/** What a debate has spent, against the limits it was started with (`config.budget`). */
export type BudgetState = {
  tokens: number;
  /** Model calls made (an answer and its repair are two). */
  calls: number;
  budgetTokens: number | null;
  maxCalls: number | null;
  /** Set once a limit is reached: the protocol should wrap up (go to its judge) now. */
  exhausted: null | "tokens" | "calls";
};

export type DebateContext<C> = {
  /** The claim, or a news article's body with its headline (`title`) and address (`url`). */
  claim: { text: string; date?: string; title?: string; url?: string };
  evidence: readonly DebateEvidence[];
  config: C;
  /**
   * The debate's fence, the same in every run of it (derived from the debate's id and the server's
   * secret): every untrusted text a prompt quotes goes through `fence.wrap`.
   */
  fence: Fence;
  /** Model id for a role. */
  modelFor(role: string): string;
  signal: AbortSignal;
  speak(spec: TurnSpec): Promise<TurnResult>;
  /** A turn whose answer is also scored over fixed options (stop agent, round judge). */
  speakScored(spec: ScoredTurnSpec): Promise<ScoredTurnResult>;
  /** A turn whose answer must be JSON matching `schema`: parsed, repaired once, else recorded unparsed. */
  speakJson<S extends z.ZodType>(spec: TurnSpec, schema: S): Promise<JsonTurnResult<z.output<S>>>;
  /** A computed step (kind `analysis`, zero tokens); on resume its stored value is returned, `compute` is not called. */
  record<T>(spec: RecordSpec<T>): Promise<RecordResult<T>>;
  /** Embeds texts with the debate's encoder (`config.embedder`): a zero-token `analysis` turn recording the encoder id; replayed on resume. */
  embed(spec: EmbedSpec): Promise<EmbedResult>;
  /**
   * A computed step that asks the debate's frozen entity recogniser or encyclopedia (never the
   * server's current setting): on resume its stored value is returned and no provider is asked.
   */
  lookup<T>(spec: LookupSpec<T>): Promise<RecordResult<T>>;
  /** A tool call (kind `tool`); on resume its stored results are returned and nothing is queried. Failure fails the turn. */
  tool(spec: ToolSpec): Promise<ToolResult>;
  /**
   * Runs branches at the same time (two agents in one round, a panel of judges). Each branch calls
   * the context as usual; their turns stream side by side. A resumed debate replays each branch's
   * finished steps by their (round, phase, role) identity, so the order in which branches finished
   * the first time does not matter.
   */
  parallel<T>(branches: ReadonlyArray<() => Promise<T>>): Promise<T[]>;
  /** The evidence pool now (the starting pool plus what tools added), as `role` may see it; no role: all of it. */
  evidenceFor(role?: string): readonly DebateEvidence[];
  /** Adds passages to the pool (ranks continue); idempotent per `addedSeq`, so a resumed debate gets the stored rows back. */
  addEvidence(spec: AddEvidenceSpec): Promise<DebateEvidence[]>;
  /**
   * Evidence people added, as motions this method hears itself (its definition's
   * `interventions.motions`): those not yet heard, and those ruled at `point` by an earlier run of
   * this debate (so a resumed run hears the same ones there again). `point` names the hearing
   * step, stable across runs ("round 1 motions").
   */
  motions(point: string): Promise<Motion[]>;
  /**
   * The ruling on a motion heard at `point` in turn `seq`: admitted, the passage joins the pool
   * (origin `person`, the stored row on a resumed run) and is returned; refused, the intervention is
   * recorded as refused with `reason` (one line) and null is returned. Never ruled twice.
   */
  ruleOnMotion(motion: Motion, ruling: MotionRuling): Promise<DebateEvidence | null>;
  /** Spending so far against `budgetTokens` / `maxCalls`. */
  budget(): BudgetState;
  /** A method note (its protocol's `notes[name]`): checked, stored by the runner, sent to watchers; the same key again replaces it. */
  note(name: string, value: unknown): Promise<void>;
  /** Tokens used by the debate so far (prompt + completion), for a method's notes. */
  tokensSoFar(): number;
};

/** A passage a person added, as a motion (untrusted text: fence it before a prompt quotes it). */
export type Motion = {
  id: string;
  title: string;
  text: string;
  url?: string;
  publishedAt?: string;
  passageId?: number;
  /** The person's display name. */
  by: string;
};
export type MotionRuling = { point: string; seq: number } & (
  | { admitted: true; metadata?: Record<string, unknown> }
  | { admitted: false; reason: string }
);

/** A protocol's own labels (stored as the protocol says them) and how each reads on the product's scale. */
export type LabelScheme = { labels: readonly string[]; toProduct: Record<string, ProductLabel> };

export type CostEstimate = {
  llmCalls: number;
  toolCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** Per role, to price each role with its own model. */
  byRole?: Record<string, { calls: number; promptTokens: number; completionTokens: number }>;
  note?: string;
  /**
   * Set when `llmCalls` and the tokens are the expected case (PROClaim's mean rounds): the worst
   * case, every round run. Absent: the numbers are the worst case themselves.
   */
  worst?: { llmCalls: number; tokens: number };
};

export type RoleSpec = {
  role: string;
  /** A use of another role's model (RADAR's stop agent uses the judge's), not a participant with its own. */
  usesModelOf?: string;
  temperature: number;
};

export type Protocol<C> = {
  name: string;
  /** Shown on the form and in reports. */
  title: string;
  /** Validates a debate's stored configuration; defaults fill what a request leaves out. */
  configSchema: z.ZodType<C>;
  labels: LabelScheme;
  /** Every role that speaks under this configuration, with its model alias and temperature. */
  roleSpecs(config: C): RoleSpec[];
  /** Named configurations (`--preset`, the form's choices). */
  presets: Record<string, Record<string, unknown>>;
  /**
   * The tools the protocol calls, by name (e.g. `{ search: "web", rag: "corpus" }`); each is chosen
   * from the server's settings when a debate is created and frozen into `config.tools[name]`.
   */
  tools?: Record<string, ToolSource>;
  /** The records this method keeps beside its steps (`ctx.note`), and where they are stored. */
  notes?: MethodNotes;
  /** Calibration input from its run notes (RADAR's checkpoints), for `calibrate --run`, `eval scores` and the run page. */
  evalScores?: MethodEvalScores;
  /** How it reads a recogniser's entities (ZoFia's units), for `bench ner`. */
  readEntities?: EntityReader;
  /** The entity recogniser and encyclopedia this debate froze (`ctx.lookup`), read from its stored configuration. */
  lookups?(config: C): LookupSettings;
  /** The protocol embeds sentences (`ctx.embed`): the server's embedding model is frozen into `config.embedder` at creation. */
  embeds?: boolean;
  /**
   * `false`: the protocol finds its own evidence with tools during the debate (Tool-MAD), so no pool
   * is retrieved when the debate is created; a named corpus is still checked and frozen into its tools.
   */
  upfrontEvidence?: boolean;
  /**
   * A rough cost before starting, from the configuration alone: model calls and tokens for one
   * claim at the worst case (every round run), and, where known, the paper's own tokens per claim.
   */
  estimate?(config: C): CostEstimate;
  /** Input limits: ZoFia reads whole articles, RADAR a one-sentence claim. */
  limits: { claimChars: number };
  /**
   * Fills in what depends on the chosen models before the debate is stored (RADAR: calibrated
   * thresholds for the judge's model); `variant` and `thresholds` go in their own columns.
   */
  prepare?(
    config: C,
    env: {
      models: Record<string, string>;
      calibratedFor(model: string): Promise<{ tauS: number; tauV: number } | undefined>;
    },
  ): Promise<{ config: C; variant: string | null; thresholds?: Record<string, unknown> | null }>;
  /** Roles that need a model under this configuration, in speaking order. */
  roles(config: C): string[];
  /** Every prompt template this configuration uses, for the debate's prompts hash. */
  templates(config: C): string[];
  run(ctx: DebateContext<C>): Promise<VerdictRecord>;
};

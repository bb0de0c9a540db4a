import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { MatchDecision } from "./types";

/*
 * The whole data model. Debate protocols differ in roles and phases (RADAR's Politician and
 * Scientist, PROClaim's courtroom and judge panel, Tool-MAD's tool calls), so roles and phases are
 * text owned by the protocol module, not enums: a new protocol needs no migration.
 */

/**
 * A pgvector column without a fixed dimension: one table holds vectors of several embedding
 * models, each row records its model and dimension, and every HNSW index is a partial expression
 * index for one model (`(embedding::vector(d)) WHERE model = ...`), so a search never mixes models.
 */
const vector = customType<{ data: number[]; driverData: string }>({
  dataType: () => "vector",
  toDriver: (value) => `[${value.join(",")}]`,
  fromDriver: (value) => (typeof value === "string" ? (JSON.parse(value) as number[]) : (value as number[])),
});

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

// --- people -------------------------------------------------------------------------------

export const users = pgTable("users", {
  id: uuid("id").primaryKey().defaultRandom(),
  email: text("email").notNull().unique(),
  name: text("name"),
  passwordHash: text("password_hash"),
  disabledAt: timestamp("disabled_at", { withTimezone: true }),
  createdAt: createdAt(),
});

/** `editor`: writes, approves, publishes and corrects fact-checks in the newsroom's name (see README, "Fact-checks"). */
export const USER_ROLES = ["admin", "fact-checker", "journalist", "annotator", "editor"] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const userRoles = pgTable(
  "user_roles",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").$type<UserRole>().notNull(),
    grantedAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.role] }),
    check("user_roles_role_check", sql`${t.role} in ('admin', 'fact-checker', 'journalist', 'annotator', 'editor')`),
  ],
);

// --- corpus --------------------------------------------------------------------------------

export const corpora = pgTable("corpora", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull().unique(),
  description: text("description"),
  /** The model the corpus was embedded with; searches embed the query with the same model. */
  embeddingModel: text("embedding_model").notNull().default("local:minilm-l6"),
  /** Chunking used at the last ingest, so a later ingest into the same corpus cuts alike. */
  chunking: jsonb("chunking").$type<{ maxChars: number; overlapSentences: number; minChars: number }>(),
  createdAt: createdAt(),
});

export const INGEST_JOB_STATUSES = ["running", "completed", "failed", "cancelled", "interrupted"] as const;
export type IngestJobStatus = (typeof INGEST_JOB_STATUSES)[number];

/**
 * One ingest run (CLI, upload, URL, dataset import). Progress is written after every committed
 * batch, so a page reopened later, or a run resumed after a crash, reads it from here.
 */
export const ingestJobs = pgTable(
  "ingest_jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    corpusId: uuid("corpus_id")
      .notNull()
      .references(() => corpora.id, { onDelete: "cascade" }),
    /** A path, URL, upload name or `dataset:<name>`, as the user gave it. */
    source: text("source").notNull(),
    /** `file`, `directory`, `url`, `sample`, `dataset:<name>`, `records` ... */
    kind: text("kind").notNull(),
    status: text("status").$type<IngestJobStatus>().notNull().default("running"),
    /** What a resume needs to repeat the run (chunking, strict, batch size, embedding model). */
    options: jsonb("options").$type<Record<string, unknown>>().notNull().default({}),
    bytesTotal: bigint("bytes_total", { mode: "number" }),
    bytesDone: bigint("bytes_done", { mode: "number" }).notNull().default(0),
    recordsDone: integer("records_done").notNull().default(0),
    docsAdded: integer("docs_added").notNull().default(0),
    docsUpdated: integer("docs_updated").notNull().default(0),
    docsUnchanged: integer("docs_unchanged").notNull().default(0),
    docsSkippedEmpty: integer("docs_skipped_empty").notNull().default(0),
    passagesAdded: integer("passages_added").notNull().default(0),
    passagesRemoved: integer("passages_removed").notNull().default(0),
    errors: integer("errors").notNull().default(0),
    recentErrors: jsonb("recent_errors").$type<Array<{ line?: number; message: string }>>().notNull().default([]),
    /** Source fingerprint and the last committed record, so a resume skips what is already in. */
    resume: jsonb("resume").$type<{
      fingerprint?: string;
      recordsCommitted: number;
      bytesCommitted?: number;
      lineCommitted?: number;
    }>(),
    /** Which process runs it: a restarted server marks its own orphans interrupted. */
    runnerId: text("runner_id"),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }),
    error: text("error"),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("ingest_jobs_corpus_idx").on(t.corpusId, t.createdAt),
    index("ingest_jobs_status_idx").on(t.status),
    check(
      "ingest_jobs_status_check",
      sql`${t.status} in ('running', 'completed', 'failed', 'cancelled', 'interrupted')`,
    ),
  ],
);

export const documents = pgTable(
  "documents",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    corpusId: uuid("corpus_id")
      .notNull()
      .references(() => corpora.id, { onDelete: "cascade" }),
    /** The id the newsroom's own file gives the document; re-ingesting matches on it. */
    externalId: text("external_id").notNull(),
    title: text("title"),
    url: text("url"),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
    /** Hash of the text and metadata: unchanged documents are skipped on re-ingest. */
    contentHash: text("content_hash").notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("documents_corpus_external_idx").on(t.corpusId, t.externalId)],
);

export const passages = pgTable(
  "passages",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    documentId: bigint("document_id", { mode: "number" })
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    /** Denormalised from the document so filtered searches need no join. */
    corpusId: uuid("corpus_id")
      .notNull()
      .references(() => corpora.id, { onDelete: "cascade" }),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    /** Stable id within the corpus (a dataset's sentence id, or `<document id>#<ordinal>`). */
    externalId: text("external_id").notNull(),
    ordinal: integer("ordinal").notNull(),
    text: text("text").notNull(),
    charStart: integer("char_start"),
    charEnd: integer("char_end"),
    /** English stemming for lexical search; lexical queries must use the same configuration. */
    tsv: tsvector("tsv").notNull().generatedAlwaysAs(sql`to_tsvector('english'::regconfig, "text")`),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("passages_corpus_external_idx").on(t.corpusId, t.externalId),
    index("passages_document_idx").on(t.documentId, t.ordinal),
    index("passages_tsv_idx").using("gin", t.tsv),
  ],
);

export const passageEmbeddings = pgTable(
  "passage_embeddings",
  {
    passageId: bigint("passage_id", { mode: "number" })
      .notNull()
      .references(() => passages.id, { onDelete: "cascade" }),
    /** Registry id of the embedding model, e.g. `local:use-lite` or `openai:text-embedding-3-small`. */
    model: text("model").notNull(),
    dim: integer("dim").notNull(),
    embedding: vector("embedding").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.passageId, t.model] }),
    check("passage_embeddings_dim_check", sql`vector_dims(${t.embedding}) = ${t.dim}`),
  ],
);

// --- claims and debates ----------------------------------------------------------------------

export const claims = pgTable(
  "claims",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    text: text("text").notNull(),
    /** When the claim was made: evidence published after it is kept out of retrieval. */
    claimDate: timestamp("claim_date", { withTimezone: true }),
    speaker: text("speaker"),
    appearanceUrl: text("appearance_url"),
    /** For claims imported from a benchmark: which dataset, its id there, and its labels. */
    dataset: text("dataset"),
    datasetClaimId: text("dataset_claim_id"),
    nativeLabel: text("native_label"),
    goldLabel: text("gold_label"),
    goldEvidence: jsonb("gold_evidence").$type<Array<{ id?: string; text: string }>>(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("claims_dataset_idx").on(t.dataset, t.datasetClaimId)],
);

export const DEBATE_STATUSES = ["queued", "running", "completed", "failed", "cancelled", "interrupted"] as const;
export type DebateStatus = (typeof DEBATE_STATUSES)[number];

export const evalRuns = pgTable("eval_runs", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  dataset: text("dataset"),
  protocol: text("protocol").notNull(),
  variant: text("variant"),
  /** Everything needed to repeat the run: models, evidence mode, sampling, seed, thresholds. */
  config: jsonb("config").$type<Record<string, unknown>>().notNull(),
  /** queued, running, paused (budget reached or stopped by a user), completed, cancelled. */
  status: text("status").notNull().default("queued"),
  /** Why the run is paused or stopped, in words for the report. */
  statusReason: text("status_reason"),
  /** `pg-boss` (PostgreSQL: any number of `counterpoint worker` processes) or `in-process` (embedded database). */
  executor: text("executor"),
  budget: jsonb("budget").$type<{ maxTokens?: number; maxCostUsd?: number }>(),
  metrics: jsonb("metrics").$type<Record<string, unknown>>(),
  createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
  startedAt: timestamp("started_at", { withTimezone: true }),
  finishedAt: timestamp("finished_at", { withTimezone: true }),
});

export const ENSEMBLE_METHODS = ["majority", "confidence-weighted"] as const;

/**
 * One claim put to several methods at once. It owns only the request and the link: each method's
 * debate is an ordinary debate pointing back here (`debates.comparison_id`), so it runs, resumes,
 * is annotated and shared like any other.
 */
export const comparisons = pgTable(
  "comparisons",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    claimId: uuid("claim_id")
      .notNull()
      .references(() => claims.id, { onDelete: "cascade" }),
    /** Null when no method retrieves from a corpus (ZoFia alone, pasted evidence). */
    corpusId: uuid("corpus_id").references(() => corpora.id, { onDelete: "set null" }),
    /** What was asked for, in order (the page lists them so), each with the debate answering it once created. */
    methods: jsonb("methods").$type<Array<{ protocol: string; preset: string | null; debateId?: string }>>().notNull(),
    /** `majority`, `confidence-weighted`, or null for no ensemble row. */
    ensemble: text("ensemble").$type<(typeof ENSEMBLE_METHODS)[number]>(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("comparisons_created_idx").on(t.createdAt),
    index("comparisons_created_by_idx").on(t.createdBy, t.createdAt),
    check(
      "comparisons_ensemble_check",
      sql`${t.ensemble} is null or ${t.ensemble} in ('majority', 'confidence-weighted')`,
    ),
  ],
);

export const debates = pgTable(
  "debates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    claimId: uuid("claim_id")
      .notNull()
      .references(() => claims.id, { onDelete: "cascade" }),
    /** e.g. `radar`, `proclaim`, `tool-mad`, `zofia`. */
    protocol: text("protocol").notNull(),
    /** Protocol-specific variant, e.g. RADAR's `expertise`, `position`, `single`, `cot`. */
    variant: text("variant"),
    status: text("status").$type<DebateStatus>().notNull().default("queued"),
    /** The protocol's full configuration (rounds, top-k, context mode, early stopping ...). */
    config: jsonb("config").$type<Record<string, unknown>>().notNull(),
    /** Model id per role, e.g. {"politician": "openai:gpt-4o-mini", "judge": "local:qwen2.5-1.5b-instruct-q4_k_m"}. */
    models: jsonb("models").$type<Record<string, string>>().notNull(),
    thresholds: jsonb("thresholds").$type<Record<string, unknown>>(),
    /** Hash of every prompt template's content, so results can be tied to the exact prompts. */
    promptsHash: text("prompts_hash"),
    evidenceMode: text("evidence_mode").notNull().default("retrieved"),
    corpusId: uuid("corpus_id").references(() => corpora.id, { onDelete: "set null" }),
    evalRunId: uuid("eval_run_id").references(() => evalRuns.id, { onDelete: "set null" }),
    /** The comparison this debate is one method of; null for a debate started on its own. */
    comparisonId: uuid("comparison_id").references(() => comparisons.id, { onDelete: "set null" }),
    /**
     * Claim matching before the start (lib/matching/types.ts MatchDecision): the earlier checks the
     * claim matched and what the person chose (debate anyway, attach them as evidence), or
     * `no-match`. Null: matching was not asked for (older debates, evaluation runs without it, `--no-match`).
     */
    matchDecision: jsonb("match_decision").$type<MatchDecision>(),
    error: jsonb("error").$type<{ message: string; code?: string; turnSeq?: number; retryable?: boolean }>(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** Which server process runs it: a restart finds its own orphans and marks them interrupted. */
    runnerId: text("runner_id"),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }),
  },
  (t) => [
    index("debates_status_idx").on(t.status, t.createdAt),
    index("debates_claim_idx").on(t.claimId),
    index("debates_eval_run_idx").on(t.evalRunId),
    index("debates_comparison_idx").on(t.comparisonId),
    check(
      "debates_status_check",
      sql`${t.status} in ('queued', 'running', 'completed', 'failed', 'cancelled', 'interrupted')`,
    ),
  ],
);

/** The evidence pool one debate saw, frozen: later corpus edits don't rewrite history. */
export const debateEvidence = pgTable(
  "debate_evidence",
  {
    debateId: uuid("debate_id")
      .notNull()
      .references(() => debates.id, { onDelete: "cascade" }),
    /** 1-based; the agents cite it as [E<rank>]. */
    rank: integer("rank").notNull(),
    passageId: bigint("passage_id", { mode: "number" }).references(() => passages.id, { onDelete: "set null" }),
    /** `retrieved` from a corpus, or `gold` / `supplied` with the claim. */
    source: text("source").notNull(),
    externalId: text("external_id"),
    text: text("text").notNull(),
    title: text("title"),
    url: text("url"),
    score: doublePrecision("score"),
    denseRank: integer("dense_rank"),
    lexicalRank: integer("lexical_rank"),
    /** `claim` for the pool the debate started with, else the tool that found it (`tool:corpus`, `tool:tavily`). */
    origin: text("origin").notNull().default("claim"),
    /** The turn that added it during the debate; null for the starting pool. */
    addedSeq: integer("added_seq"),
    /** Roles that may read it; null: everyone. */
    visibleTo: jsonb("visible_to").$type<string[]>(),
    publishedAt: text("published_at"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
  },
  (t) => [primaryKey({ columns: [t.debateId, t.rank] }), index("debate_evidence_added_idx").on(t.debateId, t.addedSeq)],
);

/**
 * Every agent utterance and every judging step, in order. `kind` separates speeches from
 * checkpoint calls (stop agent, round judge), the final judgement and tool calls, so protocols
 * with judge panels or tool-using agents store their steps here too.
 */
export const turns = pgTable(
  "turns",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    debateId: uuid("debate_id")
      .notNull()
      .references(() => debates.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    round: integer("round").notNull(),
    phase: text("phase").notNull(),
    role: text("role").notNull(),
    kind: text("kind").notNull().default("speech"),
    status: text("status").notNull().default("completed"),
    content: text("content").notNull().default(""),
    model: text("model"),
    promptTokens: integer("prompt_tokens"),
    completionTokens: integer("completion_tokens"),
    costUsd: doublePrecision("cost_usd"),
    latencyMs: integer("latency_ms"),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** Option probabilities read from the model (e.g. p_stop / p_continue, label distribution). */
    scores: jsonb("scores").$type<Record<string, unknown>>(),
    /** Evidence ranks this turn cites ([E3] -> 3). */
    citations: jsonb("citations").$type<number[]>(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
    error: text("error"),
  },
  (t) => [uniqueIndex("turns_debate_seq_idx").on(t.debateId, t.seq)],
);

/**
 * A method's own records beside its steps (RADAR's early-stopping checkpoints), written through the
 * engine (ctx.note): `kind` is the note the method declares, `key` its identity within the debate
 * (writing the same kind and key again replaces it, as a resumed run does), `value` the record as
 * the method's schema reads it. The database knows no method: every shape is the method's.
 */
export const debateNotes = pgTable(
  "debate_notes",
  {
    debateId: uuid("debate_id")
      .notNull()
      .references(() => debates.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    key: text("key").notNull(),
    value: jsonb("value").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.debateId, t.kind, t.key] })],
);

/**
 * A person's intervention in a running debate (lib/debate/interventions): added evidence, a
 * question, a struck source, a hold on the verdict. Stored when submitted (`waiting`); the engine
 * applies it at the next step boundary and records which stored turn it preceded (`before_seq`),
 * so a resumed run re-applies the same ones to the same turn and never a second time.
 */
export const INTERVENTION_STATUSES = ["waiting", "applied", "refused"] as const;
export const debateInterventions = pgTable(
  "debate_interventions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    debateId: uuid("debate_id")
      .notNull()
      .references(() => debates.id, { onDelete: "cascade" }),
    /** `add_evidence`, `ask`, `strike`, `hold_verdict`. */
    kind: text("kind").notNull(),
    /** The checked input; for added evidence the passage as fetched or found (text, title, url). */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    /** One line in words, written when submitted (shown to every viewer). */
    summary: text("summary").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    /** The person's display name when submitted (kept if the account goes). */
    byName: text("by_name").notNull(),
    createdAt: createdAt(),
    status: text("status").$type<(typeof INTERVENTION_STATUSES)[number]>().notNull().default("waiting"),
    refusal: text("refusal"),
    /** The stored turn it was applied before; null while waiting. */
    beforeSeq: integer("before_seq"),
    /**
     * That turn's identity in the journal (round, phase, role, kind): if the turn is cut before it
     * is finished, the resumed run gives the intervention to the step of the same identity.
     */
    beforeStep: text("before_step"),
    /** A question: the turn whose prompt carried it. */
    answeredBySeq: integer("answered_by_seq"),
    /** Added evidence: its rank in the debate's evidence once applied. */
    evidenceRank: integer("evidence_rank"),
    appliedAt: timestamp("applied_at", { withTimezone: true }),
  },
  (t) => [
    index("debate_interventions_debate_idx").on(t.debateId, t.createdAt),
    check("debate_interventions_status_check", sql`${t.status} in ('waiting', 'applied', 'refused')`),
  ],
);

export const verdicts = pgTable(
  "verdicts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    debateId: uuid("debate_id")
      .notNull()
      .references(() => debates.id, { onDelete: "cascade" }),
    /** The debate's verdict; other rows are e.g. individual members of a judge panel. */
    isFinal: boolean("is_final").notNull().default(true),
    judgeRole: text("judge_role").notNull().default("judge"),
    /** TRUE / HALF-TRUE / FALSE (or a protocol's own labels), or UNPARSED, never a guess. */
    label: text("label").notNull(),
    reason: text("reason"),
    rawText: text("raw_text"),
    confidence: real("confidence"),
    labelProbs: jsonb("label_probs").$type<Record<string, number>>(),
    stoppedEarly: boolean("stopped_early").notNull().default(false),
    stopAfter: text("stop_after"),
    roundsCompleted: integer("rounds_completed"),
    /** How it was reached and the protocol's parts: decidedBy, stopReason, votes, confidence parts, stability scores. */
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("verdicts_final_idx").on(t.debateId).where(sql`${t.isFinal}`),
    index("verdicts_label_idx").on(t.label),
  ],
);

/** Every model call, including repairs, retries that failed and checkpoint scoring: cost is exact. */
export const llmCalls = pgTable(
  "llm_calls",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    debateId: uuid("debate_id").references(() => debates.id, { onDelete: "cascade" }),
    turnId: uuid("turn_id").references(() => turns.id, { onDelete: "set null" }),
    model: text("model").notNull(),
    purpose: text("purpose").notNull(),
    promptTokens: integer("prompt_tokens"),
    completionTokens: integer("completion_tokens"),
    cachedPromptTokens: integer("cached_prompt_tokens"),
    costUsd: doublePrecision("cost_usd"),
    latencyMs: integer("latency_ms"),
    attempts: integer("attempts").notNull().default(1),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [index("llm_calls_debate_idx").on(t.debateId)],
);

// --- annotation ----------------------------------------------------------------------------

/** Append-only: an edit is a new version pointing at the one it replaces; nothing is overwritten. */
export const annotations = pgTable(
  "annotations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    debateId: uuid("debate_id")
      .notNull()
      .references(() => debates.id, { onDelete: "cascade" }),
    annotatorId: uuid("annotator_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    version: integer("version").notNull().default(1),
    supersedesId: uuid("supersedes_id"),
    goldLabel: text("gold_label"),
    nativeLabel: text("native_label"),
    judgeCorrect: boolean("judge_correct"),
    rationale: text("rationale"),
    turnFlags: jsonb("turn_flags").$type<Array<{ turnId: string; flag: string; note?: string }>>(),
    evidenceFlags: jsonb("evidence_flags").$type<Array<{ rank: number; relevant: boolean }>>(),
    /** Seconds spent on the task, for per-annotator speed. */
    durationSeconds: integer("duration_seconds"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("annotations_version_idx").on(t.debateId, t.annotatorId, t.version)],
);

// --- evaluation ----------------------------------------------------------------------------

export const evalItems = pgTable(
  "eval_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    runId: uuid("run_id")
      .notNull()
      .references(() => evalRuns.id, { onDelete: "cascade" }),
    claimId: uuid("claim_id")
      .notNull()
      .references(() => claims.id, { onDelete: "cascade" }),
    debateId: uuid("debate_id").references(() => debates.id, { onDelete: "set null" }),
    /** pending, running, done, failed. */
    status: text("status").notNull().default("pending"),
    /** Order within the run (the claims file's order after sampling). */
    position: integer("position").notNull().default(0),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    /**
     * The worker holding the item and its last sign of life: a worker that dies stops beating, and
     * after the lease runs out another worker takes the item over and resumes its debate.
     */
    workerId: text("worker_id"),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("eval_items_run_claim_idx").on(t.runId, t.claimId),
    index("eval_items_run_status_idx").on(t.runId, t.status, t.position),
  ],
);

/** Early-stopping thresholds per model; calibrated values override the spec's defaults. */
export const modelThresholds = pgTable("model_thresholds", {
  model: text("model").primaryKey(),
  tauS: real("tau_s").notNull(),
  tauV: real("tau_v").notNull(),
  metric: text("metric"),
  score: real("score"),
  evalRunId: uuid("eval_run_id").references(() => evalRuns.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});

/** Instance settings editable from the app (public reading, blind annotation, guidelines ...). */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Fixed-window counters for rate limits (debate starts per user or address, sign-in attempts),
 * kept in the database so the limit holds across server processes.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/**
 * Idempotency keys of the public API (lib/api/idempotency.ts): the first request a caller sends
 * with a key claims the row (the primary key makes a concurrent duplicate wait or be refused
 * rather than run), and its answer is kept for 24 hours so a retry gets it again instead of
 * starting the work twice.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** sha256 of the operation and the body: the same key with another request is refused. */
    requestHash: text("request_hash").notNull(),
    /** Null while the first request runs. */
    status: integer("status"),
    response: jsonb("response"),
    location: text("location"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);

/**
 * Provider concurrency slots shared by every process on PostgreSQL (lib/ai/concurrency.ts): a model
 * call holds one row of its limit key while it runs. A held slot is leased, not locked, so a
 * process killed mid-call frees its slots when the lease runs out instead of never.
 */
export const providerSlots = pgTable(
  "provider_slots",
  {
    key: text("key").notNull(),
    slot: integer("slot").notNull(),
    holder: text("holder"),
    leasedUntil: timestamp("leased_until", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.key, t.slot] })],
);

// --- accounts and annotation workflow ------------------------------------------------------

/**
 * A signed-in browser. The cookie carries a random token; only its SHA-256 is stored, so reading
 * this table (a backup, a leaked dump) does not let anyone sign in. Deleting a row signs out.
 */
export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Single-use and expiring; like sessions, only the token's hash is kept. */
export const invites = pgTable("invites", {
  id: uuid("id").primaryKey().defaultRandom(),
  tokenHash: text("token_hash").notNull().unique(),
  email: text("email").notNull(),
  roles: jsonb("roles").$type<UserRole[]>().notNull(),
  createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  usedBy: uuid("used_by").references(() => users.id, { onDelete: "set null" }),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * Read-only links to one debate. The token is kept in clear so the debate page can show its link
 * again; it grants no more than reading a debate, which anyone with database access can do anyway.
 */
export const debateShares = pgTable(
  "debate_shares",
  {
    token: text("token").primaryKey(),
    debateId: uuid("debate_id")
      .notNull()
      .references(() => debates.id, { onDelete: "cascade" }),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("debate_shares_debate_idx").on(t.debateId)],
);

/** Read-only links to one comparison, like debate_shares: the link opens the comparison and its debates. */
export const comparisonShares = pgTable(
  "comparison_shares",
  {
    token: text("token").primaryKey(),
    comparisonId: uuid("comparison_id")
      .notNull()
      .references(() => comparisons.id, { onDelete: "cascade" }),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    /**
     * Whoever made the link chose to let its holders read each method's whole transcript (each
     * debate's read-only view), not only the comparison's verdicts, reasons and live text.
     */
    transcripts: boolean("transcripts").notNull().default(false),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("comparison_shares_comparison_idx").on(t.comparisonId)],
);

export const ASSIGNMENT_STATUSES = ["assigned", "submitted", "skipped"] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

/**
 * Who was handed which debate. The primary key is what guarantees nobody gets the same debate
 * twice, even when two tabs ask for a task at the same moment.
 */
export const annotationAssignments = pgTable(
  "annotation_assignments",
  {
    debateId: uuid("debate_id")
      .notNull()
      .references(() => debates.id, { onDelete: "cascade" }),
    annotatorId: uuid("annotator_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status").$type<AssignmentStatus>().notNull().default("assigned"),
    assignedAt: createdAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.debateId, t.annotatorId] }),
    index("annotation_assignments_annotator_idx").on(t.annotatorId, t.status),
    check("annotation_assignments_status_check", sql`${t.status} in ('assigned', 'submitted', 'skipped')`),
  ],
);

/** Who changed which annotation when, with the values before and after; rows are never updated. */
export const annotationAudit = pgTable(
  "annotation_audit",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    annotationId: uuid("annotation_id")
      .notNull()
      .references(() => annotations.id, { onDelete: "cascade" }),
    debateId: uuid("debate_id")
      .notNull()
      .references(() => debates.id, { onDelete: "cascade" }),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** `create`, `edit` or `import`. */
    action: text("action").notNull(),
    oldValue: jsonb("old_value").$type<Record<string, unknown>>(),
    newValue: jsonb("new_value").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("annotation_audit_debate_idx").on(t.debateId, t.createdAt)],
);

// --- webhooks (lib/webhooks) -----------------------------------------------------------------

/**
 * A webhook event's name (`debate.finished`). Which names exist, and what each says, is
 * lib/webhooks/events.ts's WEBHOOK_EVENTS: one entry there adds an event, with no schema change.
 */
export type WebhookEventType = string;

/**
 * A newsroom system that wants to hear about events: where to POST them, which ones, and the
 * Standard Webhooks secret (`whsec_` + base64) they are signed with. `secret` holds it encrypted
 * (`v1.…`, lib/webhooks/secret-box.ts), because signing needs it back; a row from before that holds
 * `whsec_…` until the delivery worker seals it. The admin page shows it once, when made or replaced.
 */
export const webhookSubscriptions = pgTable(
  "webhook_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    url: text("url").notNull(),
    /** What the admin calls it ("CMS", "tipline bot"). */
    description: text("description").notNull().default(""),
    events: text("events").array().$type<WebhookEventType[]>().notNull(),
    secret: text("secret").notNull(),
    /** A disabled subscription gets no new deliveries; its pending ones wait until it is enabled again. */
    active: boolean("active").notNull().default(true),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_subscriptions_active_idx").on(t.active)],
);

/**
 * The outbox: one row per event, written in the same transaction as the change it reports, with
 * the exact body every subscriber receives. `key` makes an event happen once (a comparison
 * finishes once; a fact-check version is published once).
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    type: text("type").$type<WebhookEventType>().notNull(),
    key: text("key").notNull().unique(),
    /** The JSON body as sent: `{ type, timestamp, data }`. */
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_events_created_idx").on(t.createdAt)],
);

export type WebhookDeliveryStatus = "pending" | "sending" | "delivered" | "failed";

/**
 * One event to one subscription: the unit the queue sends and retries. Its id is the message id
 * (`webhook-id`), the same on every attempt, so a receiver can drop a repeat.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: "cascade" }),
    status: text("status").$type<WebhookDeliveryStatus>().notNull().default("pending"),
    /** Attempts made so far (automatic and "send again"). */
    attempts: integer("attempts").notNull().default(0),
    /** The attempt after which a failure is final: the retry limit, or one more after "send again". */
    lastAttempt: integer("last_attempt").notNull(),
    /** An admin pressed "send again": the next attempt is theirs (the log marks it), not the schedule's. */
    resend: boolean("resend").notNull().default(false),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** While `sending`: the process sending it, and when its hold lapses (the process died). */
    leasedBy: text("leased_by"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_subscription_idx").on(t.eventId, t.subscriptionId),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'sending')`),
    index("webhook_deliveries_subscription_idx").on(t.subscriptionId, t.createdAt),
    check("webhook_deliveries_status_check", sql`${t.status} in ('pending', 'sending', 'delivered', 'failed')`),
  ],
);

/** Every try, as the delivery log shows it; rows are never updated. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    /** `delivered` (2xx), `failed` (other answer, no answer, timeout) or `refused` (the address check said no). */
    outcome: text("outcome").$type<"delivered" | "failed" | "refused">().notNull(),
    responseStatus: integer("response_status"),
    error: text("error"),
    /** The first few hundred characters of the answer: untrusted text, shown as text only. */
    responseExcerpt: text("response_excerpt"),
    durationMs: integer("duration_ms").notNull(),
    /** Sent because an admin pressed "send again". */
    manual: boolean("manual").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attempt),
    check("webhook_attempts_outcome_check", sql`${t.outcome} in ('delivered', 'failed', 'refused')`),
  ],
);

/**
 * Tokens other systems use for /api/v1 (`Authorization: Bearer cp_...`). Only the token's SHA-256
 * is kept, like sessions; `prefix` (its first characters) is shown so people can tell tokens apart.
 * A token acts as its owner, limited to `scopes` (permission names from lib/auth/policy.ts, never
 * more than the owner's roles grant when it is used); reading debates needs no scope, as for any
 * account. Revoked rows are kept, so a refused request can say the token was revoked and when.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    /** An admin may make a token for someone else; null once that admin's account is deleted. */
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedBy: uuid("revoked_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("api_tokens_user_idx").on(t.userId, t.createdAt)],
);

// --- published fact-checks -------------------------------------------------------------------

export const FACT_CHECK_STATES = ["draft", "in-review", "published", "corrected"] as const;
export type FactCheckState = (typeof FACT_CHECK_STATES)[number];

/**
 * An editor's fact-check made from one debate or one comparison (exactly one of the two). The row
 * holds only what identifies it and where it stands; what it says lives in fact_check_versions.
 * `slug` is the public address (/fact-checks/<slug>) and never changes once made.
 */
export const factChecks = pgTable(
  "fact_checks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull().unique(),
    debateId: uuid("debate_id").references(() => debates.id, { onDelete: "restrict" }),
    comparisonId: uuid("comparison_id").references(() => comparisons.id, { onDelete: "restrict" }),
    state: text("state").$type<FactCheckState>().notNull().default("draft"),
    /** The newest version (what the editor view shows). */
    currentVersion: integer("current_version").notNull().default(1),
    /** The version the public page shows; null until first published. */
    publishedVersion: integer("published_version"),
    /** When it was first published (ClaimReview datePublished); corrections keep it. */
    publishedAt: timestamp("published_at", { withTimezone: true }),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("fact_checks_state_idx").on(t.state, t.publishedAt),
    index("fact_checks_debate_idx").on(t.debateId),
    index("fact_checks_comparison_idx").on(t.comparisonId),
    check("fact_checks_state_check", sql`${t.state} in ('draft', 'in-review', 'published', 'corrected')`),
    check("fact_checks_one_source_check", sql`(${t.debateId} is null) <> (${t.comparisonId} is null)`),
  ],
);

/** A source the fact-check cites, copied from the debate's frozen evidence so a version reads alone. */
export type FactCheckSource = {
  debateId: string;
  rank: number;
  title: string | null;
  url: string | null;
  excerpt: string;
};

/**
 * Every change to a fact-check is a new row (append-only: the database refuses UPDATE), with who
 * made it, when and why (`event`). A correction is a version with a dated `correctionNote`.
 */
export const factCheckVersions = pgTable(
  "fact_check_versions",
  {
    factCheckId: uuid("fact_check_id")
      .notNull()
      .references(() => factChecks.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    /** `created`, `edited`, `submitted`, `approved`, `published`, `corrected`, `returned`. */
    event: text("event").notNull(),
    /** The claim as the fact-check words it (ClaimReview claimReviewed). */
    claim: text("claim").notNull(),
    /** TRUE / HALF-TRUE / FALSE: the product's scale, for ratingValue and for matching. */
    rating: text("rating").notNull(),
    /** The rating in the newsroom's words ("Mostly false", "Missing context"): alternateName. */
    textualRating: text("textual_rating").notNull(),
    /** Markdown as written; rendered through the sanitiser (lib/fact-checks/markdown.ts). */
    explanation: text("explanation").notNull(),
    sources: jsonb("sources").$type<FactCheckSource[]>().notNull().default([]),
    claimant: text("claimant"),
    /** `Person` or `Organization` (schema.org types for the claim's author). */
    claimantKind: text("claimant_kind").notNull().default("Person"),
    /** Where it was said, in words ("Interview on Radio 4") and as a link. */
    whereSaid: text("where_said"),
    appearanceUrl: text("appearance_url"),
    /** When the claim was made (a date, yyyy-mm-dd). */
    claimDate: text("claim_date"),
    showDebateLink: boolean("show_debate_link").notNull().default(false),
    /** What a correction changed, in words for readers; set only on correction versions. */
    correctionNote: text("correction_note"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.factCheckId, t.version] }),
    check("fact_check_versions_rating_check", sql`${t.rating} in ('TRUE', 'HALF-TRUE', 'FALSE')`),
  ],
);

// --- claim matching (issue 26): earlier checks a new claim is matched against ---------------

/**
 * Fact-checks imported from outside (a ClaimReview feed, JSON-LD pages, CSV, CheckThat JSONL).
 * Deduplicated by URL, or by the feed's own id when a record has no URL. `raw` keeps the record
 * exactly as read, so a later importer can read fields this one ignores.
 */
export const importedFactChecks = pgTable(
  "imported_fact_checks",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    claim: text("claim").notNull(),
    /** A headline for the check when the record has one (CheckThat's `title`), searched with the claim. */
    title: text("title"),
    /** A standfirst or summary (CheckThat's `subtitle`), searched with the claim. */
    summary: text("summary"),
    /** The rating in the publisher's words ("Mostly False"); null: the record has none (unknown). */
    rating: text("rating"),
    publisher: text("publisher"),
    /** Who made the claim (ClaimReview itemReviewed.author, a CSV's `claimant` column); null: not given. */
    claimant: text("claimant"),
    url: text("url").unique(),
    claimDate: timestamp("claim_date", { withTimezone: true }),
    reviewDate: timestamp("review_date", { withTimezone: true }),
    language: text("language"),
    /** Where it came from: the file name or URL given to `factchecks import`. */
    sourceFeed: text("source_feed").notNull(),
    /** The record's own id in its feed (CheckThat's `id`), the dedupe key when there is no URL. */
    sourceId: text("source_id"),
    raw: jsonb("raw").$type<unknown>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("imported_fact_checks_source_idx").on(t.sourceFeed, t.sourceId)],
);

export const CLAIM_INDEX_SOURCES = ["debate", "published", "imported"] as const;

/**
 * The matching index: one row per earlier check of any source (finished debates, published
 * fact-checks, imported fact-checks), with what a match result shows denormalised so a match
 * reads one table. `match_text` (headline, summary and claim) is what lexical search reads; the
 * claim's vectors are in claim_index_embeddings, searched like passages (lib/retrieval).
 */
export const claimIndex = pgTable(
  "claim_index",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    source: text("source").$type<(typeof CLAIM_INDEX_SOURCES)[number]>().notNull(),
    /** The debate id, published fact-check id or imported row id. */
    sourceRef: text("source_ref").notNull(),
    claim: text("claim").notNull(),
    matchText: text("match_text").notNull(),
    rating: text("rating"),
    /** The rating on the product scale when it can be read (TRUE, HALF-TRUE, FALSE); null: unknown. */
    scale: text("scale"),
    publisher: text("publisher"),
    url: text("url"),
    claimDate: timestamp("claim_date", { withTimezone: true }),
    reviewDate: timestamp("review_date", { withTimezone: true }),
    /** English stemming, as passages.tsv: the BM25 of lib/retrieval runs over either table. */
    tsv: tsvector("tsv").notNull().generatedAlwaysAs(sql`to_tsvector('english'::regconfig, "match_text")`),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("claim_index_source_idx").on(t.source, t.sourceRef),
    index("claim_index_tsv_idx").using("gin", t.tsv),
    check("claim_index_source_check", sql`${t.source} in ('debate', 'published', 'imported')`),
  ],
);

/** Vectors of claim_index rows, per embedding model, like passage_embeddings (partial HNSW per model). */
export const claimIndexEmbeddings = pgTable(
  "claim_index_embeddings",
  {
    claimId: bigint("claim_id", { mode: "number" })
      .notNull()
      .references(() => claimIndex.id, { onDelete: "cascade" }),
    model: text("model").notNull(),
    dim: integer("dim").notNull(),
    embedding: vector("embedding").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.claimId, t.model] }),
    check("claim_index_embeddings_dim_check", sql`vector_dims(${t.embedding}) = ${t.dim}`),
  ],
);

// --- the live desk (issue 38): a transcript checked while it is spoken -----------------------

export type LiveSessionStatus = "open" | "closed";
/** What the desk did with a card: `new` until someone acts. */
export type LiveCardState = "new" | "debating" | "attached" | "dismissed" | "drafted";
/** A line as it arrived: `empty` (no words, kept so its id is taken), `late` (its time is before a line already received). */
export type LiveLineState = "ok" | "empty" | "late";

/** The earlier check a card's sentence matched, copied when matched (later edits of the check don't rewrite the board). */
export type LiveCardMatch = {
  source: string;
  ref: string;
  claim: string;
  rating: string | null;
  scale: string | null;
  publisher: string | null;
  url: string | null;
  claimDate: string | null;
  reviewDate: string | null;
  similarity: number;
  sameText?: boolean;
};

export const liveSessions = pgTable(
  "live_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    /** The debate method a card's "Start a debate" uses (a protocol name). */
    method: text("method").notNull(),
    /** Corpus for the debates started from cards; null: the method's own evidence or none. */
    corpus: text("corpus"),
    /** Sentences scoring at or above it become cards. */
    threshold: real("threshold").notNull(),
    status: text("status").$type<LiveSessionStatus>().notNull().default("open"),
    /** Lines received (also the last line's sequence number). */
    lineCount: integer("line_count").notNull().default(0),
    /** The last card revision: every new or changed card takes the next, so a board resumes after it. */
    rev: bigint("rev", { mode: "number" }).notNull().default(0),
    /** The latest time code received (ms from the start of the event); a line before it is `late`. */
    lastAtMs: bigint("last_at_ms", { mode: "number" }).notNull().default(0),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("live_sessions_created_idx").on(t.createdAt),
    check("live_sessions_status_check", sql`${t.status} in ('open', 'closed')`),
  ],
);

/** Every line received, once per line id (a retried push is a duplicate, never a second line). */
export const liveLines = pgTable(
  "live_lines",
  {
    sessionId: uuid("session_id")
      .notNull()
      .references(() => liveSessions.id, { onDelete: "cascade" }),
    /** The sender's id for the line (caption cue number, transcription segment id). */
    lineId: text("line_id").notNull(),
    /** Order of arrival in the session, from 1. */
    seq: integer("seq").notNull(),
    speaker: text("speaker"),
    text: text("text").notNull(),
    /** Time code: ms from the start of the event. */
    atMs: bigint("at_ms", { mode: "number" }).notNull(),
    state: text("state").$type<LiveLineState>().notNull().default("ok"),
    sentences: integer("sentences").notNull().default(0),
    cards: integer("cards").notNull().default(0),
    receivedAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.lineId] }),
    uniqueIndex("live_lines_seq_idx").on(t.sessionId, t.seq),
    check("live_lines_state_check", sql`${t.state} in ('ok', 'empty', 'late')`),
  ],
);

/** A check-worthy sentence on the board. */
export const liveCards = pgTable(
  "live_cards",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => liveSessions.id, { onDelete: "cascade" }),
    /** The revision of its last change (live_sessions.rev): the board's event id. */
    rev: bigint("rev", { mode: "number" }).notNull(),
    lineId: text("line_id").notNull(),
    lineSeq: integer("line_seq").notNull(),
    /** The sentence's place in its line, from 0. */
    sentenceIndex: integer("sentence_index").notNull(),
    speaker: text("speaker"),
    sentence: text("sentence").notNull(),
    atMs: bigint("at_ms", { mode: "number" }).notNull(),
    score: real("score").notNull(),
    reason: text("reason"),
    match: jsonb("match").$type<LiveCardMatch>(),
    /** Normalised sentence: repeats of the same claim are found by it (and by word overlap). */
    groupKey: text("group_key").notNull(),
    /** The first card of the claim in this session; null on that first card. */
    groupOf: uuid("group_of"),
    /** Times the claim was said, on the first card (1 on every other). */
    repeats: integer("repeats").notNull().default(1),
    state: text("state").$type<LiveCardState>().notNull().default("new"),
    /**
     * The script of a line the check-worthiness scorer cannot read (e.g. "Cyrillic"): the card holds
     * the whole line, unscored (score 0), so the desk reads it instead of never seeing it. Null: scored.
     */
    unreadable: text("unreadable"),
    debateId: uuid("debate_id").references(() => debates.id, { onDelete: "set null" }),
    factCheckId: uuid("fact_check_id").references(() => factChecks.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("live_cards_sentence_idx").on(t.sessionId, t.lineId, t.sentenceIndex),
    index("live_cards_rev_idx").on(t.sessionId, t.rev),
    index("live_cards_group_idx").on(t.sessionId, t.groupKey),
    check("live_cards_state_check", sql`${t.state} in ('new', 'debating', 'attached', 'dismissed', 'drafted')`),
  ],
);

/**
 * How a polled transcript feed stands: `growing` (new lines at the last poll), `waiting` (no new line
 * yet, not for long), `stalled` (no new line for 2 minutes), `failing` (the address did not answer
 * well), `stopped` (the session closed).
 */
export type LiveFeedState = "waiting" | "growing" | "stalled" | "failing" | "stopped";

/** A growing transcript at an address, polled into a session; where the poller is, so it resumes there. */
export const liveFeeds = pgTable(
  "live_feeds",
  {
    sessionId: uuid("session_id")
      .primaryKey()
      .references(() => liveSessions.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** Lines of the document already sent: the next poll sends the lines after them. */
    taken: integer("taken").notNull().default(0),
    /** The last line sent (id and words): if the document no longer has it in its place, the feed restarted. */
    lastLineId: text("last_line_id"),
    lastLineText: text("last_line_text"),
    /** The document's size at the last poll: a smaller one restarted. */
    bytes: integer("bytes").notNull().default(0),
    state: text("state").$type<LiveFeedState>().notNull().default("waiting"),
    /** What the board says about the feed, in words. */
    message: text("message"),
    /** Times the feed started again from its beginning (its lines from the start were not counted twice). */
    restarts: integer("restarts").notNull().default(0),
    lastGrowthAt: timestamp("last_growth_at", { withTimezone: true }),
    polledAt: timestamp("polled_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [check("live_feeds_state_check", sql`${t.state} in ('waiting', 'growing', 'stalled', 'failing', 'stopped')`)],
);

/** Who did what to a card, and when (append-only). */
export const liveCardActions = pgTable(
  "live_card_actions",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    cardId: uuid("card_id")
      .notNull()
      .references(() => liveCards.id, { onDelete: "cascade" }),
    /** `debate`, `attach`, `dismiss`, `draft`. */
    action: text("action").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("live_card_actions_card_idx").on(t.cardId, t.createdAt)],
);

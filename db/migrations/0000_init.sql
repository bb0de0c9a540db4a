-- pgvector must exist before any table with a vector column; drizzle-kit does not emit this.
CREATE EXTENSION IF NOT EXISTS vector;
--> statement-breakpoint
CREATE TABLE "annotations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"debate_id" uuid NOT NULL,
	"annotator_id" uuid NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"supersedes_id" uuid,
	"gold_label" text,
	"native_label" text,
	"judge_correct" boolean,
	"rationale" text,
	"turn_flags" jsonb,
	"evidence_flags" jsonb,
	"duration_seconds" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "checkpoints" (
	"debate_id" uuid NOT NULL,
	"after" text NOT NULL,
	"round" integer NOT NULL,
	"p_stop" real,
	"p_continue" real,
	"stop_margin" real,
	"label_probs" jsonb,
	"confidence" real,
	"confidence_emitted" real,
	"verdict" text,
	"tau_s" real,
	"tau_v" real,
	"decision" text NOT NULL,
	"scoring_method" text,
	"tokens_so_far" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkpoints_debate_id_after_pk" PRIMARY KEY("debate_id","after")
);
--> statement-breakpoint
CREATE TABLE "claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"text" text NOT NULL,
	"claim_date" timestamp with time zone,
	"speaker" text,
	"appearance_url" text,
	"dataset" text,
	"dataset_claim_id" text,
	"native_label" text,
	"gold_label" text,
	"gold_evidence" jsonb,
	"metadata" jsonb,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "corpora" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "corpora_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "debate_evidence" (
	"debate_id" uuid NOT NULL,
	"rank" integer NOT NULL,
	"passage_id" bigint,
	"source" text NOT NULL,
	"external_id" text,
	"text" text NOT NULL,
	"title" text,
	"url" text,
	"score" double precision,
	"dense_rank" integer,
	"lexical_rank" integer,
	CONSTRAINT "debate_evidence_debate_id_rank_pk" PRIMARY KEY("debate_id","rank")
);
--> statement-breakpoint
CREATE TABLE "debates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"claim_id" uuid NOT NULL,
	"protocol" text NOT NULL,
	"variant" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"config" jsonb NOT NULL,
	"models" jsonb NOT NULL,
	"thresholds" jsonb,
	"prompts_hash" text,
	"evidence_mode" text DEFAULT 'retrieved' NOT NULL,
	"corpus_id" uuid,
	"eval_run_id" uuid,
	"error" jsonb,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"runner_id" text,
	"heartbeat_at" timestamp with time zone,
	CONSTRAINT "debates_status_check" CHECK ("debates"."status" in ('queued', 'running', 'completed', 'failed', 'cancelled', 'interrupted'))
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "documents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"corpus_id" uuid NOT NULL,
	"external_id" text NOT NULL,
	"title" text,
	"url" text,
	"published_at" timestamp with time zone,
	"metadata" jsonb,
	"content_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "eval_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"claim_id" uuid NOT NULL,
	"debate_id" uuid,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "eval_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"dataset" text,
	"protocol" text NOT NULL,
	"variant" text,
	"config" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"budget" jsonb,
	"metrics" jsonb,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "llm_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"debate_id" uuid,
	"turn_id" uuid,
	"model" text NOT NULL,
	"purpose" text NOT NULL,
	"prompt_tokens" integer,
	"completion_tokens" integer,
	"cached_prompt_tokens" integer,
	"cost_usd" double precision,
	"latency_ms" integer,
	"attempts" integer DEFAULT 1 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "model_thresholds" (
	"model" text PRIMARY KEY NOT NULL,
	"tau_s" real NOT NULL,
	"tau_v" real NOT NULL,
	"metric" text,
	"score" real,
	"eval_run_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "passage_embeddings" (
	"passage_id" bigint NOT NULL,
	"model" text NOT NULL,
	"dim" integer NOT NULL,
	"embedding" vector NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "passage_embeddings_passage_id_model_pk" PRIMARY KEY("passage_id","model"),
	CONSTRAINT "passage_embeddings_dim_check" CHECK (vector_dims("passage_embeddings"."embedding") = "passage_embeddings"."dim")
);
--> statement-breakpoint
CREATE TABLE "passages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "passages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"document_id" bigint NOT NULL,
	"corpus_id" uuid NOT NULL,
	"published_at" timestamp with time zone,
	"external_id" text NOT NULL,
	"ordinal" integer NOT NULL,
	"text" text NOT NULL,
	"char_start" integer,
	"char_end" integer,
	"tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, "text")) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "turns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"debate_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"round" integer NOT NULL,
	"phase" text NOT NULL,
	"role" text NOT NULL,
	"kind" text DEFAULT 'speech' NOT NULL,
	"status" text DEFAULT 'completed' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"model" text,
	"prompt_tokens" integer,
	"completion_tokens" integer,
	"cost_usd" double precision,
	"latency_ms" integer,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"scores" jsonb,
	"citations" jsonb,
	"metadata" jsonb,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_roles_user_id_role_pk" PRIMARY KEY("user_id","role"),
	CONSTRAINT "user_roles_role_check" CHECK ("user_roles"."role" in ('admin', 'fact-checker', 'journalist', 'annotator'))
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"password_hash" text,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "verdicts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"debate_id" uuid NOT NULL,
	"is_final" boolean DEFAULT true NOT NULL,
	"judge_role" text DEFAULT 'judge' NOT NULL,
	"label" text NOT NULL,
	"reason" text,
	"raw_text" text,
	"confidence" real,
	"label_probs" jsonb,
	"stopped_early" boolean DEFAULT false NOT NULL,
	"stop_after" text,
	"rounds_completed" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_debate_id_debates_id_fk" FOREIGN KEY ("debate_id") REFERENCES "public"."debates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_annotator_id_users_id_fk" FOREIGN KEY ("annotator_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkpoints" ADD CONSTRAINT "checkpoints_debate_id_debates_id_fk" FOREIGN KEY ("debate_id") REFERENCES "public"."debates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debate_evidence" ADD CONSTRAINT "debate_evidence_debate_id_debates_id_fk" FOREIGN KEY ("debate_id") REFERENCES "public"."debates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debate_evidence" ADD CONSTRAINT "debate_evidence_passage_id_passages_id_fk" FOREIGN KEY ("passage_id") REFERENCES "public"."passages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debates" ADD CONSTRAINT "debates_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debates" ADD CONSTRAINT "debates_corpus_id_corpora_id_fk" FOREIGN KEY ("corpus_id") REFERENCES "public"."corpora"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debates" ADD CONSTRAINT "debates_eval_run_id_eval_runs_id_fk" FOREIGN KEY ("eval_run_id") REFERENCES "public"."eval_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debates" ADD CONSTRAINT "debates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_corpus_id_corpora_id_fk" FOREIGN KEY ("corpus_id") REFERENCES "public"."corpora"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eval_items" ADD CONSTRAINT "eval_items_run_id_eval_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."eval_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eval_items" ADD CONSTRAINT "eval_items_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eval_items" ADD CONSTRAINT "eval_items_debate_id_debates_id_fk" FOREIGN KEY ("debate_id") REFERENCES "public"."debates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eval_runs" ADD CONSTRAINT "eval_runs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "llm_calls" ADD CONSTRAINT "llm_calls_debate_id_debates_id_fk" FOREIGN KEY ("debate_id") REFERENCES "public"."debates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "llm_calls" ADD CONSTRAINT "llm_calls_turn_id_turns_id_fk" FOREIGN KEY ("turn_id") REFERENCES "public"."turns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_thresholds" ADD CONSTRAINT "model_thresholds_eval_run_id_eval_runs_id_fk" FOREIGN KEY ("eval_run_id") REFERENCES "public"."eval_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passage_embeddings" ADD CONSTRAINT "passage_embeddings_passage_id_passages_id_fk" FOREIGN KEY ("passage_id") REFERENCES "public"."passages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passages" ADD CONSTRAINT "passages_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passages" ADD CONSTRAINT "passages_corpus_id_corpora_id_fk" FOREIGN KEY ("corpus_id") REFERENCES "public"."corpora"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "turns" ADD CONSTRAINT "turns_debate_id_debates_id_fk" FOREIGN KEY ("debate_id") REFERENCES "public"."debates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verdicts" ADD CONSTRAINT "verdicts_debate_id_debates_id_fk" FOREIGN KEY ("debate_id") REFERENCES "public"."debates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "annotations_version_idx" ON "annotations" USING btree ("debate_id","annotator_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "claims_dataset_idx" ON "claims" USING btree ("dataset","dataset_claim_id");--> statement-breakpoint
CREATE INDEX "debates_status_idx" ON "debates" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "debates_claim_idx" ON "debates" USING btree ("claim_id");--> statement-breakpoint
CREATE INDEX "debates_eval_run_idx" ON "debates" USING btree ("eval_run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_corpus_external_idx" ON "documents" USING btree ("corpus_id","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "eval_items_run_claim_idx" ON "eval_items" USING btree ("run_id","claim_id");--> statement-breakpoint
CREATE INDEX "llm_calls_debate_idx" ON "llm_calls" USING btree ("debate_id");--> statement-breakpoint
CREATE UNIQUE INDEX "passages_corpus_external_idx" ON "passages" USING btree ("corpus_id","external_id");--> statement-breakpoint
CREATE INDEX "passages_document_idx" ON "passages" USING btree ("document_id","ordinal");--> statement-breakpoint
CREATE INDEX "passages_tsv_idx" ON "passages" USING gin ("tsv");--> statement-breakpoint
CREATE UNIQUE INDEX "turns_debate_seq_idx" ON "turns" USING btree ("debate_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "verdicts_final_idx" ON "verdicts" USING btree ("debate_id") WHERE "verdicts"."is_final";--> statement-breakpoint
CREATE INDEX "verdicts_label_idx" ON "verdicts" USING btree ("label");
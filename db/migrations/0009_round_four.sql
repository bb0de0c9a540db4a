CREATE TABLE "api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"token_hash" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"created_by" uuid,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "claim_index" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claim_index_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"source" text NOT NULL,
	"source_ref" text NOT NULL,
	"claim" text NOT NULL,
	"match_text" text NOT NULL,
	"rating" text,
	"scale" text,
	"publisher" text,
	"url" text,
	"claim_date" timestamp with time zone,
	"review_date" timestamp with time zone,
	"tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, "match_text")) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "claim_index_source_check" CHECK ("claim_index"."source" in ('debate', 'published', 'imported'))
);
--> statement-breakpoint
CREATE TABLE "claim_index_embeddings" (
	"claim_id" bigint NOT NULL,
	"model" text NOT NULL,
	"dim" integer NOT NULL,
	"embedding" vector NOT NULL,
	CONSTRAINT "claim_index_embeddings_claim_id_model_pk" PRIMARY KEY("claim_id","model"),
	CONSTRAINT "claim_index_embeddings_dim_check" CHECK (vector_dims("claim_index_embeddings"."embedding") = "claim_index_embeddings"."dim")
);
--> statement-breakpoint
CREATE TABLE "fact_check_versions" (
	"fact_check_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"event" text NOT NULL,
	"claim" text NOT NULL,
	"rating" text NOT NULL,
	"textual_rating" text NOT NULL,
	"explanation" text NOT NULL,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"claimant" text,
	"claimant_kind" text DEFAULT 'Person' NOT NULL,
	"where_said" text,
	"appearance_url" text,
	"claim_date" text,
	"show_debate_link" boolean DEFAULT false NOT NULL,
	"correction_note" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fact_check_versions_fact_check_id_version_pk" PRIMARY KEY("fact_check_id","version"),
	CONSTRAINT "fact_check_versions_rating_check" CHECK ("fact_check_versions"."rating" in ('TRUE', 'HALF-TRUE', 'FALSE'))
);
--> statement-breakpoint
CREATE TABLE "fact_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"debate_id" uuid,
	"comparison_id" uuid,
	"state" text DEFAULT 'draft' NOT NULL,
	"current_version" integer DEFAULT 1 NOT NULL,
	"published_version" integer,
	"published_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fact_checks_slug_unique" UNIQUE("slug"),
	CONSTRAINT "fact_checks_state_check" CHECK ("fact_checks"."state" in ('draft', 'in-review', 'published', 'corrected')),
	CONSTRAINT "fact_checks_one_source_check" CHECK (("fact_checks"."debate_id" is null) <> ("fact_checks"."comparison_id" is null))
);
--> statement-breakpoint
CREATE TABLE "imported_fact_checks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "imported_fact_checks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"claim" text NOT NULL,
	"title" text,
	"summary" text,
	"rating" text,
	"publisher" text,
	"url" text,
	"claim_date" timestamp with time zone,
	"review_date" timestamp with time zone,
	"language" text,
	"source_feed" text NOT NULL,
	"source_id" text,
	"raw" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "imported_fact_checks_url_unique" UNIQUE("url")
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "webhook_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"delivery_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"outcome" text NOT NULL,
	"response_status" integer,
	"error" text,
	"response_excerpt" text,
	"duration_ms" integer NOT NULL,
	"manual" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_attempts_outcome_check" CHECK ("webhook_attempts"."outcome" in ('delivered', 'failed', 'refused'))
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"subscription_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_attempt" integer NOT NULL,
	"resend" boolean DEFAULT false NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"leased_by" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_status_check" CHECK ("webhook_deliveries"."status" in ('pending', 'sending', 'delivered', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"key" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_events_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "webhook_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"events" text[] NOT NULL,
	"secret" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_roles" DROP CONSTRAINT "user_roles_role_check";--> statement-breakpoint
ALTER TABLE "debates" ADD COLUMN "match_decision" jsonb;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_index_embeddings" ADD CONSTRAINT "claim_index_embeddings_claim_id_claim_index_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claim_index"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fact_check_versions" ADD CONSTRAINT "fact_check_versions_fact_check_id_fact_checks_id_fk" FOREIGN KEY ("fact_check_id") REFERENCES "public"."fact_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fact_check_versions" ADD CONSTRAINT "fact_check_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fact_checks" ADD CONSTRAINT "fact_checks_debate_id_debates_id_fk" FOREIGN KEY ("debate_id") REFERENCES "public"."debates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fact_checks" ADD CONSTRAINT "fact_checks_comparison_id_comparisons_id_fk" FOREIGN KEY ("comparison_id") REFERENCES "public"."comparisons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fact_checks" ADD CONSTRAINT "fact_checks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_subscription_id_webhook_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."webhook_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_tokens_user_idx" ON "api_tokens" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "claim_index_source_idx" ON "claim_index" USING btree ("source","source_ref");--> statement-breakpoint
CREATE INDEX "claim_index_tsv_idx" ON "claim_index" USING gin ("tsv");--> statement-breakpoint
CREATE INDEX "fact_checks_state_idx" ON "fact_checks" USING btree ("state","published_at");--> statement-breakpoint
CREATE INDEX "fact_checks_debate_idx" ON "fact_checks" USING btree ("debate_id");--> statement-breakpoint
CREATE INDEX "fact_checks_comparison_idx" ON "fact_checks" USING btree ("comparison_id");--> statement-breakpoint
CREATE UNIQUE INDEX "imported_fact_checks_source_idx" ON "imported_fact_checks" USING btree ("source_feed","source_id");--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("delivery_id","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_subscription_idx" ON "webhook_deliveries" USING btree ("event_id","subscription_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "webhook_deliveries_subscription_idx" ON "webhook_deliveries" USING btree ("subscription_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_events_created_idx" ON "webhook_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_active_idx" ON "webhook_subscriptions" USING btree ("active");--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role_check" CHECK ("user_roles"."role" in ('admin', 'fact-checker', 'journalist', 'annotator', 'editor'));--> statement-breakpoint
-- Versions are append-only: a change, a publication or a correction is a new row. The database
-- refuses UPDATE (the function is 0004's, shared with annotations).
CREATE TRIGGER "fact_check_versions_append_only" BEFORE UPDATE ON "fact_check_versions" FOR EACH ROW EXECUTE FUNCTION "counterpoint_refuse_update"();

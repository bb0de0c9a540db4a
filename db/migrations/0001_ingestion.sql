CREATE TABLE "ingest_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"corpus_id" uuid NOT NULL,
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"bytes_total" bigint,
	"bytes_done" bigint DEFAULT 0 NOT NULL,
	"records_done" integer DEFAULT 0 NOT NULL,
	"docs_added" integer DEFAULT 0 NOT NULL,
	"docs_updated" integer DEFAULT 0 NOT NULL,
	"docs_unchanged" integer DEFAULT 0 NOT NULL,
	"docs_skipped_empty" integer DEFAULT 0 NOT NULL,
	"passages_added" integer DEFAULT 0 NOT NULL,
	"passages_removed" integer DEFAULT 0 NOT NULL,
	"errors" integer DEFAULT 0 NOT NULL,
	"recent_errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"resume" jsonb,
	"runner_id" text,
	"heartbeat_at" timestamp with time zone,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "ingest_jobs_status_check" CHECK ("ingest_jobs"."status" in ('running', 'completed', 'failed', 'cancelled', 'interrupted'))
);
--> statement-breakpoint
ALTER TABLE "corpora" ADD COLUMN "embedding_model" text DEFAULT 'local:use-lite' NOT NULL;--> statement-breakpoint
ALTER TABLE "corpora" ADD COLUMN "chunking" jsonb;--> statement-breakpoint
ALTER TABLE "ingest_jobs" ADD CONSTRAINT "ingest_jobs_corpus_id_corpora_id_fk" FOREIGN KEY ("corpus_id") REFERENCES "public"."corpora"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ingest_jobs_corpus_idx" ON "ingest_jobs" USING btree ("corpus_id","created_at");--> statement-breakpoint
CREATE INDEX "ingest_jobs_status_idx" ON "ingest_jobs" USING btree ("status");
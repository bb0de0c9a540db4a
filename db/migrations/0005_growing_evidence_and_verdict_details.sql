ALTER TABLE "corpora" ALTER COLUMN "embedding_model" SET DEFAULT 'local:minilm-l6';--> statement-breakpoint
ALTER TABLE "debate_evidence" ADD COLUMN "origin" text DEFAULT 'claim' NOT NULL;--> statement-breakpoint
ALTER TABLE "debate_evidence" ADD COLUMN "added_seq" integer;--> statement-breakpoint
ALTER TABLE "debate_evidence" ADD COLUMN "visible_to" jsonb;--> statement-breakpoint
ALTER TABLE "debate_evidence" ADD COLUMN "published_at" text;--> statement-breakpoint
ALTER TABLE "debate_evidence" ADD COLUMN "metadata" jsonb;--> statement-breakpoint
ALTER TABLE "verdicts" ADD COLUMN "details" jsonb;--> statement-breakpoint
CREATE INDEX "debate_evidence_added_idx" ON "debate_evidence" USING btree ("debate_id","added_seq");
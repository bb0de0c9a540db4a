ALTER TABLE "eval_items" ADD COLUMN "position" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "eval_items" ADD COLUMN "worker_id" text;--> statement-breakpoint
ALTER TABLE "eval_items" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "eval_items" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "eval_runs" ADD COLUMN "status_reason" text;--> statement-breakpoint
ALTER TABLE "eval_runs" ADD COLUMN "executor" text;--> statement-breakpoint
CREATE INDEX "eval_items_run_status_idx" ON "eval_items" USING btree ("run_id","status","position");
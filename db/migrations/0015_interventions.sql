CREATE TABLE "debate_interventions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"debate_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"summary" text NOT NULL,
	"created_by" uuid,
	"by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"refusal" text,
	"before_seq" integer,
	"before_step" text,
	"answered_by_seq" integer,
	"evidence_rank" integer,
	"applied_at" timestamp with time zone,
	CONSTRAINT "debate_interventions_status_check" CHECK ("debate_interventions"."status" in ('waiting', 'applied', 'refused'))
);
--> statement-breakpoint
ALTER TABLE "debate_interventions" ADD CONSTRAINT "debate_interventions_debate_id_debates_id_fk" FOREIGN KEY ("debate_id") REFERENCES "public"."debates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debate_interventions" ADD CONSTRAINT "debate_interventions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "debate_interventions_debate_idx" ON "debate_interventions" USING btree ("debate_id","created_at");
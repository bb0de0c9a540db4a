CREATE TABLE "comparison_shares" (
	"token" text PRIMARY KEY NOT NULL,
	"comparison_id" uuid NOT NULL,
	"created_by" uuid,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comparisons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"claim_id" uuid NOT NULL,
	"corpus_id" uuid,
	"methods" jsonb NOT NULL,
	"ensemble" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comparisons_ensemble_check" CHECK ("comparisons"."ensemble" is null or "comparisons"."ensemble" in ('majority', 'confidence-weighted'))
);
--> statement-breakpoint
ALTER TABLE "debates" ADD COLUMN "comparison_id" uuid;--> statement-breakpoint
ALTER TABLE "comparison_shares" ADD CONSTRAINT "comparison_shares_comparison_id_comparisons_id_fk" FOREIGN KEY ("comparison_id") REFERENCES "public"."comparisons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comparison_shares" ADD CONSTRAINT "comparison_shares_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comparisons" ADD CONSTRAINT "comparisons_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comparisons" ADD CONSTRAINT "comparisons_corpus_id_corpora_id_fk" FOREIGN KEY ("corpus_id") REFERENCES "public"."corpora"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comparisons" ADD CONSTRAINT "comparisons_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comparison_shares_comparison_idx" ON "comparison_shares" USING btree ("comparison_id");--> statement-breakpoint
CREATE INDEX "comparisons_created_idx" ON "comparisons" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "comparisons_created_by_idx" ON "comparisons" USING btree ("created_by","created_at");--> statement-breakpoint
ALTER TABLE "debates" ADD CONSTRAINT "debates_comparison_id_comparisons_id_fk" FOREIGN KEY ("comparison_id") REFERENCES "public"."comparisons"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "debates_comparison_idx" ON "debates" USING btree ("comparison_id");
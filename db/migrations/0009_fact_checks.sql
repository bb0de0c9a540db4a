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
ALTER TABLE "user_roles" DROP CONSTRAINT "user_roles_role_check";--> statement-breakpoint
ALTER TABLE "fact_check_versions" ADD CONSTRAINT "fact_check_versions_fact_check_id_fact_checks_id_fk" FOREIGN KEY ("fact_check_id") REFERENCES "public"."fact_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fact_check_versions" ADD CONSTRAINT "fact_check_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fact_checks" ADD CONSTRAINT "fact_checks_debate_id_debates_id_fk" FOREIGN KEY ("debate_id") REFERENCES "public"."debates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fact_checks" ADD CONSTRAINT "fact_checks_comparison_id_comparisons_id_fk" FOREIGN KEY ("comparison_id") REFERENCES "public"."comparisons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fact_checks" ADD CONSTRAINT "fact_checks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fact_checks_state_idx" ON "fact_checks" USING btree ("state","published_at");--> statement-breakpoint
CREATE INDEX "fact_checks_debate_idx" ON "fact_checks" USING btree ("debate_id");--> statement-breakpoint
CREATE INDEX "fact_checks_comparison_idx" ON "fact_checks" USING btree ("comparison_id");--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role_check" CHECK ("user_roles"."role" in ('admin', 'fact-checker', 'journalist', 'annotator', 'editor'));--> statement-breakpoint
-- Versions are append-only: a change, a publication or a correction is a new row. The database
-- refuses UPDATE (the function is 0004's, shared with annotations).
CREATE TRIGGER "fact_check_versions_append_only" BEFORE UPDATE ON "fact_check_versions" FOR EACH ROW EXECUTE FUNCTION "counterpoint_refuse_update"();

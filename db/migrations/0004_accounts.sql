CREATE TABLE "annotation_assignments" (
	"debate_id" uuid NOT NULL,
	"annotator_id" uuid NOT NULL,
	"status" text DEFAULT 'assigned' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "annotation_assignments_debate_id_annotator_id_pk" PRIMARY KEY("debate_id","annotator_id"),
	CONSTRAINT "annotation_assignments_status_check" CHECK ("annotation_assignments"."status" in ('assigned', 'submitted', 'skipped'))
);
--> statement-breakpoint
CREATE TABLE "annotation_audit" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "annotation_audit_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"annotation_id" uuid NOT NULL,
	"debate_id" uuid NOT NULL,
	"actor_id" uuid,
	"action" text NOT NULL,
	"old_value" jsonb,
	"new_value" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "debate_shares" (
	"token" text PRIMARY KEY NOT NULL,
	"debate_id" uuid NOT NULL,
	"created_by" uuid,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invites" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"email" text NOT NULL,
	"roles" jsonb NOT NULL,
	"created_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"used_by" uuid,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invites_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "annotation_assignments" ADD CONSTRAINT "annotation_assignments_debate_id_debates_id_fk" FOREIGN KEY ("debate_id") REFERENCES "public"."debates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_assignments" ADD CONSTRAINT "annotation_assignments_annotator_id_users_id_fk" FOREIGN KEY ("annotator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_audit" ADD CONSTRAINT "annotation_audit_annotation_id_annotations_id_fk" FOREIGN KEY ("annotation_id") REFERENCES "public"."annotations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_audit" ADD CONSTRAINT "annotation_audit_debate_id_debates_id_fk" FOREIGN KEY ("debate_id") REFERENCES "public"."debates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_audit" ADD CONSTRAINT "annotation_audit_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debate_shares" ADD CONSTRAINT "debate_shares_debate_id_debates_id_fk" FOREIGN KEY ("debate_id") REFERENCES "public"."debates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "debate_shares" ADD CONSTRAINT "debate_shares_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_used_by_users_id_fk" FOREIGN KEY ("used_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "annotation_assignments_annotator_idx" ON "annotation_assignments" USING btree ("annotator_id","status");--> statement-breakpoint
CREATE INDEX "annotation_audit_debate_idx" ON "annotation_audit" USING btree ("debate_id","created_at");--> statement-breakpoint
CREATE INDEX "debate_shares_debate_idx" ON "debate_shares" USING btree ("debate_id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
-- Annotations and their audit trail are append-only: an edit is a new version. The database refuses
-- UPDATE so no code path (or hand-written SQL) can rewrite a label in place; deletes stay possible
-- only through the cascade from a deleted debate.
CREATE OR REPLACE FUNCTION "counterpoint_refuse_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION '% rows are append-only; write a new version instead', TG_TABLE_NAME;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "annotations_append_only" BEFORE UPDATE ON "annotations" FOR EACH ROW EXECUTE FUNCTION "counterpoint_refuse_update"();--> statement-breakpoint
CREATE TRIGGER "annotation_audit_append_only" BEFORE UPDATE ON "annotation_audit" FOR EACH ROW EXECUTE FUNCTION "counterpoint_refuse_update"();

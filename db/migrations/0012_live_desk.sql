CREATE TABLE "live_card_actions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "live_card_actions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"card_id" uuid NOT NULL,
	"action" text NOT NULL,
	"detail" jsonb,
	"user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"rev" bigint NOT NULL,
	"line_id" text NOT NULL,
	"line_seq" integer NOT NULL,
	"sentence_index" integer NOT NULL,
	"speaker" text,
	"sentence" text NOT NULL,
	"at_ms" bigint NOT NULL,
	"score" real NOT NULL,
	"reason" text,
	"match" jsonb,
	"group_key" text NOT NULL,
	"group_of" uuid,
	"repeats" integer DEFAULT 1 NOT NULL,
	"state" text DEFAULT 'new' NOT NULL,
	"debate_id" uuid,
	"fact_check_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_cards_state_check" CHECK ("live_cards"."state" in ('new', 'debating', 'attached', 'dismissed', 'drafted'))
);
--> statement-breakpoint
CREATE TABLE "live_lines" (
	"session_id" uuid NOT NULL,
	"line_id" text NOT NULL,
	"seq" integer NOT NULL,
	"speaker" text,
	"text" text NOT NULL,
	"at_ms" bigint NOT NULL,
	"state" text DEFAULT 'ok' NOT NULL,
	"sentences" integer DEFAULT 0 NOT NULL,
	"cards" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_lines_session_id_line_id_pk" PRIMARY KEY("session_id","line_id"),
	CONSTRAINT "live_lines_state_check" CHECK ("live_lines"."state" in ('ok', 'empty', 'late'))
);
--> statement-breakpoint
CREATE TABLE "live_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"method" text NOT NULL,
	"corpus" text,
	"threshold" real NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"line_count" integer DEFAULT 0 NOT NULL,
	"rev" bigint DEFAULT 0 NOT NULL,
	"last_at_ms" bigint DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_sessions_status_check" CHECK ("live_sessions"."status" in ('open', 'closed'))
);
--> statement-breakpoint
ALTER TABLE "live_card_actions" ADD CONSTRAINT "live_card_actions_card_id_live_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."live_cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_card_actions" ADD CONSTRAINT "live_card_actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_cards" ADD CONSTRAINT "live_cards_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_cards" ADD CONSTRAINT "live_cards_debate_id_debates_id_fk" FOREIGN KEY ("debate_id") REFERENCES "public"."debates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_cards" ADD CONSTRAINT "live_cards_fact_check_id_fact_checks_id_fk" FOREIGN KEY ("fact_check_id") REFERENCES "public"."fact_checks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_lines" ADD CONSTRAINT "live_lines_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_sessions" ADD CONSTRAINT "live_sessions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_card_actions_card_idx" ON "live_card_actions" USING btree ("card_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "live_cards_sentence_idx" ON "live_cards" USING btree ("session_id","line_id","sentence_index");--> statement-breakpoint
CREATE INDEX "live_cards_rev_idx" ON "live_cards" USING btree ("session_id","rev");--> statement-breakpoint
CREATE INDEX "live_cards_group_idx" ON "live_cards" USING btree ("session_id","group_key");--> statement-breakpoint
CREATE UNIQUE INDEX "live_lines_seq_idx" ON "live_lines" USING btree ("session_id","seq");--> statement-breakpoint
CREATE INDEX "live_sessions_created_idx" ON "live_sessions" USING btree ("created_at");
CREATE TABLE "live_feeds" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"taken" integer DEFAULT 0 NOT NULL,
	"last_line_id" text,
	"last_line_text" text,
	"bytes" integer DEFAULT 0 NOT NULL,
	"state" text DEFAULT 'waiting' NOT NULL,
	"message" text,
	"restarts" integer DEFAULT 0 NOT NULL,
	"last_growth_at" timestamp with time zone,
	"polled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_feeds_state_check" CHECK ("live_feeds"."state" in ('waiting', 'growing', 'stalled', 'failing', 'stopped'))
);
--> statement-breakpoint
ALTER TABLE "live_cards" ADD COLUMN "unreadable" text;--> statement-breakpoint
ALTER TABLE "live_feeds" ADD CONSTRAINT "live_feeds_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE cascade ON UPDATE no action;
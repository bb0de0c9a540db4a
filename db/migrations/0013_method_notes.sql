CREATE TABLE "debate_notes" (
	"debate_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"value" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "debate_notes_debate_id_kind_key_pk" PRIMARY KEY("debate_id","kind","key")
);
--> statement-breakpoint
ALTER TABLE "debate_notes" ADD CONSTRAINT "debate_notes_debate_id_debates_id_fk" FOREIGN KEY ("debate_id") REFERENCES "public"."debates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written: RADAR's checkpoints become method notes (kind "checkpoint", keyed by the phase they
-- follow), the value in the shape RADAR's checkpointSchema reads; one set-based statement, whatever the row count.
INSERT INTO "debate_notes" ("debate_id", "kind", "key", "value", "created_at")
SELECT "debate_id", 'checkpoint', "after", jsonb_build_object(
	'after', "after", 'round', "round", 'pStop', "p_stop", 'pContinue', "p_continue", 'stopMargin', "stop_margin",
	'labelProbs', "label_probs", 'confidence', "confidence", 'confidenceEmitted', "confidence_emitted",
	'verdict', "verdict", 'tauS', "tau_s", 'tauV', "tau_v", 'decision', "decision",
	'scoringMethod', "scoring_method", 'tokensSoFar', "tokens_so_far"
), "created_at" FROM "checkpoints"
ON CONFLICT DO NOTHING;

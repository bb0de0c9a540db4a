CREATE TABLE "claim_index" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claim_index_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"source" text NOT NULL,
	"source_ref" text NOT NULL,
	"claim" text NOT NULL,
	"match_text" text NOT NULL,
	"rating" text,
	"scale" text,
	"publisher" text,
	"url" text,
	"claim_date" timestamp with time zone,
	"review_date" timestamp with time zone,
	"tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, "match_text")) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "claim_index_source_check" CHECK ("claim_index"."source" in ('debate', 'published', 'imported'))
);
--> statement-breakpoint
CREATE TABLE "claim_index_embeddings" (
	"claim_id" bigint NOT NULL,
	"model" text NOT NULL,
	"dim" integer NOT NULL,
	"embedding" vector NOT NULL,
	CONSTRAINT "claim_index_embeddings_claim_id_model_pk" PRIMARY KEY("claim_id","model"),
	CONSTRAINT "claim_index_embeddings_dim_check" CHECK (vector_dims("claim_index_embeddings"."embedding") = "claim_index_embeddings"."dim")
);
--> statement-breakpoint
CREATE TABLE "imported_fact_checks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "imported_fact_checks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"claim" text NOT NULL,
	"title" text,
	"summary" text,
	"rating" text,
	"publisher" text,
	"url" text,
	"claim_date" timestamp with time zone,
	"review_date" timestamp with time zone,
	"language" text,
	"source_feed" text NOT NULL,
	"source_id" text,
	"raw" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "imported_fact_checks_url_unique" UNIQUE("url")
);
--> statement-breakpoint
ALTER TABLE "claim_index_embeddings" ADD CONSTRAINT "claim_index_embeddings_claim_id_claim_index_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claim_index"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "claim_index_source_idx" ON "claim_index" USING btree ("source","source_ref");--> statement-breakpoint
CREATE INDEX "claim_index_tsv_idx" ON "claim_index" USING gin ("tsv");--> statement-breakpoint
CREATE UNIQUE INDEX "imported_fact_checks_source_idx" ON "imported_fact_checks" USING btree ("source_feed","source_id");
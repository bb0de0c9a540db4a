CREATE TABLE "provider_slots" (
	"key" text NOT NULL,
	"slot" integer NOT NULL,
	"holder" text,
	"leased_until" timestamp with time zone,
	CONSTRAINT "provider_slots_key_slot_pk" PRIMARY KEY("key","slot")
);

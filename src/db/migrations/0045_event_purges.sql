CREATE TABLE "platform_event_purges" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"purged_through" bigint NOT NULL,
	"purged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platform_event_purges_one_row" CHECK ("platform_event_purges"."id" = 1)
);

CREATE TABLE "platform_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"company_id" text NOT NULL,
	"data" jsonb NOT NULL,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platform_events_type_check" CHECK (type in ('decision', 'trade', 'score', 'season'))
);
--> statement-breakpoint
CREATE INDEX "platform_events_company_id_idx" ON "platform_events" USING btree ("company_id","id");--> statement-breakpoint
CREATE INDEX "platform_events_timestamp_idx" ON "platform_events" USING btree ("timestamp");
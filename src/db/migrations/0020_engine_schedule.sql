CREATE TABLE "decision_schedule" (
	"company_id" text PRIMARY KEY NOT NULL,
	"next_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "engine_replicas" (
	"id" text PRIMARY KEY NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL,
	"capacity" integer NOT NULL,
	"running" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "decision_rounds" ALTER COLUMN "llm_tokens_used" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "decision_rounds" ADD COLUMN "scheduled_for" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "decision_schedule" ADD CONSTRAINT "decision_schedule_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "decision_schedule_next_idx" ON "decision_schedule" USING btree ("next_at");--> statement-breakpoint
CREATE INDEX "agent_actions_round_idx" ON "agent_actions" USING btree ("round_id") WHERE "agent_actions"."round_id" is not null;
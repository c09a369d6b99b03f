CREATE TABLE "decision_budgets" (
	"round_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"role" text NOT NULL,
	"allocated" bigint NOT NULL,
	"spent" bigint DEFAULT 0 NOT NULL,
	"llm_calls" integer DEFAULT 0 NOT NULL,
	"llm_cost" bigint DEFAULT 0 NOT NULL,
	"scrape_calls" integer DEFAULT 0 NOT NULL,
	"scrape_cost" bigint DEFAULT 0 NOT NULL,
	"chain_reads" integer DEFAULT 0 NOT NULL,
	"chain_read_cost" bigint DEFAULT 0 NOT NULL,
	"tool_calls" integer DEFAULT 0 NOT NULL,
	"refused" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "decision_budgets_round_id_agent_id_pk" PRIMARY KEY("round_id","agent_id")
);
--> statement-breakpoint
CREATE TABLE "decision_rounds" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"cycle" integer NOT NULL,
	"status" text DEFAULT 'RUNNING' NOT NULL,
	"trigger" text NOT NULL,
	"phase" text DEFAULT 'context' NOT NULL,
	"error" text,
	"directive" text,
	"actions" jsonb,
	"actions_executed" jsonb,
	"phases" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"decision_hash" text,
	"anchor_tx_hash" text,
	"anchored_at" timestamp with time zone,
	"total_duration_ms" integer,
	"llm_tokens_used" integer DEFAULT 0 NOT NULL,
	"llm_cost" bigint DEFAULT 0 NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "decision_budgets" ADD CONSTRAINT "decision_budgets_round_id_decision_rounds_id_fk" FOREIGN KEY ("round_id") REFERENCES "public"."decision_rounds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decision_budgets" ADD CONSTRAINT "decision_budgets_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decision_rounds" ADD CONSTRAINT "decision_rounds_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "decision_rounds_company_cycle_unique" ON "decision_rounds" USING btree ("company_id","cycle");--> statement-breakpoint
CREATE UNIQUE INDEX "decision_rounds_one_running_unique" ON "decision_rounds" USING btree ("company_id") WHERE "decision_rounds"."status" = 'RUNNING';--> statement-breakpoint
CREATE INDEX "decision_rounds_company_created_idx" ON "decision_rounds" USING btree ("company_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "decision_rounds_running_idx" ON "decision_rounds" USING btree ("heartbeat_at") WHERE "decision_rounds"."status" = 'RUNNING';--> statement-breakpoint
CREATE INDEX "decision_rounds_unanchored_idx" ON "decision_rounds" USING btree ("created_at") WHERE "decision_rounds"."status" = 'COMPLETE' and "decision_rounds"."decision_hash" is not null and "decision_rounds"."anchor_tx_hash" is null;
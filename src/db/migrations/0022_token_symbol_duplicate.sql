ALTER TABLE "agent_actions" ADD COLUMN "token_company_id" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "token_symbol_duplicate" boolean DEFAULT false NOT NULL;
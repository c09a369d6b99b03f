ALTER TABLE "agent_actions" ADD COLUMN "token_company_id" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "ceo_prompt_signer" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "master_directive_signer" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "directive_set_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "token_symbol_duplicate" boolean DEFAULT false NOT NULL;

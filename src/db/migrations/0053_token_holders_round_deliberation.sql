ALTER TABLE "decision_rounds" ADD COLUMN "proposals" jsonb;--> statement-breakpoint
ALTER TABLE "decision_rounds" ADD COLUMN "ceo_reasoning" text;--> statement-breakpoint
CREATE INDEX "token_balances_token_balance_idx" ON "token_balances" USING btree ("token_address","balance" DESC NULLS LAST);
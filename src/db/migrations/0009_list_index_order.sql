DROP INDEX "agents_created_idx";--> statement-breakpoint
DROP INDEX "agents_status_created_idx";--> statement-breakpoint
DROP INDEX "agents_creator_created_idx";--> statement-breakpoint
DROP INDEX "companies_token_list_idx";--> statement-breakpoint
DROP INDEX "companies_token_status_list_idx";--> statement-breakpoint
DROP INDEX "reward_claims_company_epoch_idx";--> statement-breakpoint
CREATE INDEX "agents_created_idx" ON "agents" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "agents_status_created_idx" ON "agents" USING btree ("status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "agents_creator_created_idx" ON "agents" USING btree ("creator_address","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "companies_token_list_idx" ON "companies" USING btree ("token_public_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "companies"."token_status" <> 'PRE_PUBLIC';--> statement-breakpoint
CREATE INDEX "companies_token_status_list_idx" ON "companies" USING btree ("token_status","token_public_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "companies"."token_status" <> 'PRE_PUBLIC';--> statement-breakpoint
CREATE INDEX "reward_claims_company_epoch_idx" ON "reward_claims" USING btree ("company_id","epoch" DESC NULLS FIRST);
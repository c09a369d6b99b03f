DROP INDEX "agents_created_idx";--> statement-breakpoint
DROP INDEX "agents_status_created_idx";--> statement-breakpoint
DROP INDEX "agents_creator_created_idx";--> statement-breakpoint
CREATE INDEX "agents_list_idx" ON "agents" USING btree (("company_id" is null),"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "agents_status_list_idx" ON "agents" USING btree ("status",("company_id" is null),"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "agents_creator_list_idx" ON "agents" USING btree ("creator_address",("company_id" is null),"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);
ALTER TABLE "companies" ADD COLUMN "daily_model_spend_cap" bigint;--> statement-breakpoint
CREATE INDEX "decision_rounds_created_idx" ON "decision_rounds" USING btree ("created_at");
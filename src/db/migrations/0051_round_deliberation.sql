ALTER TABLE "decision_rounds" ADD COLUMN "proposals" jsonb;--> statement-breakpoint
ALTER TABLE "decision_rounds" ADD COLUMN "ceo_reasoning" text;
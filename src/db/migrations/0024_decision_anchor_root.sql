ALTER TABLE "decision_rounds" ADD COLUMN "anchor_root" text;--> statement-breakpoint
ALTER TABLE "decision_rounds" ADD COLUMN "anchor_proof" jsonb;
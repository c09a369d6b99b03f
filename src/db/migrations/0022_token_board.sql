ALTER TABLE "companies" ADD COLUMN "token_curve_usdc" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "score_snapshots" ADD COLUMN "league" text DEFAULT 'MACHINE' NOT NULL;--> statement-breakpoint
ALTER TABLE "score_snapshots" ADD COLUMN "league_rank" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "score_snapshots_date_league_rank_idx" ON "score_snapshots" USING btree ("snapshot_date","league","league_rank");--> statement-breakpoint
CREATE INDEX "score_snapshots_date_category_league_rank_idx" ON "score_snapshots" USING btree ("snapshot_date","category","league","league_rank");
-- The score history now shows the raw values each snapshot was scored from (and the referral boost): the covering
-- index holds them too, so the route still reads the index alone (0017). The v1 Fortune List reads a company's latest
-- snapshot from the same index.
DROP INDEX IF EXISTS "score_snapshots_company_date_idx";--> statement-breakpoint
CREATE INDEX "score_snapshots_company_date_idx" ON "score_snapshots" USING btree ("company_id","snapshot_date" DESC) INCLUDE ("rank","overall","treasury_score","trading_score","volume_score","activity_score","completeness_score","treasury_raw","trading_raw","volume_raw","activity_raw","completeness_raw","referral_boost");

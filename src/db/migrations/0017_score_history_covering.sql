-- GET /api/companies/{id}/scores reads a company's history from the index alone: a company's snapshots lie one per
-- day on as many heap pages, so reading them from the heap cost a page each (25 ms for a year, cold). DESC with
-- PostgreSQL's default NULLS FIRST, as the route's ORDER BY says: the index order then needs no sort.
DROP INDEX IF EXISTS "score_snapshots_company_date_idx";--> statement-breakpoint
CREATE INDEX "score_snapshots_company_date_idx" ON "score_snapshots" USING btree ("company_id","snapshot_date" DESC) INCLUDE ("rank","overall","treasury_score","trading_score","volume_score","activity_score","completeness_score");

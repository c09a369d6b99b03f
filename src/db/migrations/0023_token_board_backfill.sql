-- Snapshots taken before score_snapshots.league existed: the company's league now, and the rank within it.
UPDATE "score_snapshots" s SET "league" = c."league" FROM "companies" c WHERE c."id" = s."company_id";--> statement-breakpoint
UPDATE "score_snapshots" s SET "league_rank" = r."league_rank"
FROM (
  SELECT "snapshot_date", "company_id",
    row_number() OVER (PARTITION BY "snapshot_date", "league" ORDER BY "rank") AS "league_rank"
  FROM "score_snapshots"
) r
WHERE r."snapshot_date" = s."snapshot_date" AND r."company_id" = s."company_id";--> statement-breakpoint
-- The token board's cached reads hear holder counts and balances change (src/db/changes.ts).
CREATE TRIGGER "token_holder_counts_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "token_holder_counts" FOR EACH STATEMENT EXECUTE FUNCTION "read_model_changed"();--> statement-breakpoint
CREATE TRIGGER "token_balances_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "token_balances" FOR EACH STATEMENT EXECUTE FUNCTION "read_model_changed"();

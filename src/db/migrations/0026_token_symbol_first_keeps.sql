-- Symbols become unique among launched tokens, ignoring case, so that one launched token cannot pass for another. Of tokens that already share a symbol,
-- the first launched keeps it (by launch block time, then launch request, then id); every later one is marked a
-- duplicate, named by its company's slug or its address only from now on.
UPDATE "companies" c SET "token_symbol_duplicate" = true
FROM (
  SELECT "id", row_number() OVER (
    PARTITION BY lower("token_symbol")
    ORDER BY "token_public_at" NULLS LAST, "token_launch_requested_at" NULLS LAST, "id"
  ) AS place
  FROM "companies"
  WHERE "token_symbol" IS NOT NULL
) ranked
WHERE c."id" = ranked."id" AND ranked.place > 1;
--> statement-breakpoint
-- A directive set before its time was recorded counts from the company's last update: a token launched after that
-- is not one it can have named.
UPDATE "companies" SET "directive_set_at" = "updated_at"
WHERE "directive_set_at" IS NULL AND ("ceo_prompt" IS NOT NULL OR "master_directive" IS NOT NULL);
--> statement-breakpoint
-- Only now, with every older duplicate marked, can the index that keeps symbols unique be built (drizzle-kit's
-- 0025 snapshot already names it; its statement is here, after the marking).
CREATE UNIQUE INDEX "companies_token_symbol_unique" ON "companies" USING btree (lower("token_symbol")) WHERE "companies"."token_symbol" is not null and not "companies"."token_symbol_duplicate";

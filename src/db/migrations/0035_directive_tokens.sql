ALTER TABLE "companies" ADD COLUMN "ceo_prompt_tokens" jsonb;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "master_directive_tokens" jsonb;--> statement-breakpoint
-- A directive set before these columns names the launched tokens its symbols meant when it was last set
-- (the block order the buy checks used until now), so no later edit can re-date it.
UPDATE "companies" AS c SET "ceo_prompt_tokens" = COALESCE((
  SELECT jsonb_object_agg(upper(t."token_symbol"), t."token_address")
  FROM "companies" AS t
  WHERE t."token_symbol" IS NOT NULL AND t."token_address" IS NOT NULL AND NOT t."token_symbol_duplicate"
    AND t."token_status" <> 'PRE_PUBLIC'
    AND c."ceo_prompt" ~* ('(^|[^A-Za-z0-9])\$?' || t."token_symbol" || '([^A-Za-z0-9]|$)')
    AND (CASE WHEN c."directive_set_block" IS NOT NULL AND t."token_launch_block" IS NOT NULL
              THEN t."token_launch_block" <= c."directive_set_block"
              ELSE t."token_public_at" <= c."directive_set_at" END)
), '{}'::jsonb)
WHERE c."ceo_prompt" IS NOT NULL AND c."directive_set_at" IS NOT NULL;--> statement-breakpoint
UPDATE "companies" AS c SET "master_directive_tokens" = COALESCE((
  SELECT jsonb_object_agg(upper(t."token_symbol"), t."token_address")
  FROM "companies" AS t
  WHERE t."token_symbol" IS NOT NULL AND t."token_address" IS NOT NULL AND NOT t."token_symbol_duplicate"
    AND t."token_status" <> 'PRE_PUBLIC'
    AND c."master_directive" ~* ('(^|[^A-Za-z0-9])\$?' || t."token_symbol" || '([^A-Za-z0-9]|$)')
    AND (CASE WHEN c."directive_set_block" IS NOT NULL AND t."token_launch_block" IS NOT NULL
              THEN t."token_launch_block" <= c."directive_set_block"
              ELSE t."token_public_at" <= c."directive_set_at" END)
), '{}'::jsonb)
WHERE c."master_directive" IS NOT NULL AND c."directive_set_at" IS NOT NULL;

ALTER TABLE "companies" ADD COLUMN "unsigned_settings" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- A directive set before this column without a recorded signer (COMPANY_PATCH_AUTH=ip) stays without effect on money until signed.
UPDATE "companies" SET "unsigned_settings" = '{ceoPrompt}'::text[] WHERE "ceo_prompt" IS NOT NULL AND "ceo_prompt_signer" IS NULL;

ALTER TABLE "companies" ADD COLUMN "safe_address" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "roles_module_address" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "safe_owner_address" text;
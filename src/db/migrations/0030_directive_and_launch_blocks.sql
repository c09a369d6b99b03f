ALTER TABLE "companies" ADD COLUMN "directive_set_block" bigint;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "token_launch_block" bigint;
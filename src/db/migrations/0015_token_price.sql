ALTER TABLE "companies" ADD COLUMN "token_price" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "token_market_cap" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "token_price_block" bigint;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "token_price_log" integer;
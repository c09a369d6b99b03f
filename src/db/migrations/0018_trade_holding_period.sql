ALTER TABLE "token_trades" ADD COLUMN "held_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "token_trades" ADD COLUMN "last_buy_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trader_positions" ADD COLUMN "opened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trader_positions" ADD COLUMN "last_buy_at" timestamp with time zone;
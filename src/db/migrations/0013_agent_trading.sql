CREATE TABLE "agent_actions" (
	"key" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"round_id" text,
	"tool" text NOT NULL,
	"token_address" text,
	"notional_usdc" numeric(78, 0) NOT NULL,
	"day" date NOT NULL,
	"tx_hash" text,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trader_positions" (
	"trader" text NOT NULL,
	"token_address" text NOT NULL,
	"company_id" text NOT NULL,
	"quantity" numeric(78, 0) NOT NULL,
	"cost_usdc" numeric(78, 0) NOT NULL,
	"realized_pnl_usdc" numeric(78, 0) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trader_positions_trader_token_address_pk" PRIMARY KEY("trader","token_address")
);
--> statement-breakpoint
ALTER TABLE "token_trades" ADD COLUMN "realized_pnl" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "trader_positions" ADD CONSTRAINT "trader_positions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_actions_company_day_idx" ON "agent_actions" USING btree ("company_id","day");--> statement-breakpoint
CREATE INDEX "agents_wallet_address_idx" ON "agents" USING btree (lower("on_chain_address"));
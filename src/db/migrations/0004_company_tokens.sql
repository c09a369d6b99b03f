CREATE TABLE "token_trades" (
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"company_id" text NOT NULL,
	"token_address" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	"trader" text NOT NULL,
	"side" text NOT NULL,
	"usdc_amount" numeric(78, 0) NOT NULL,
	"token_amount" numeric(78, 0) NOT NULL,
	"fee_amount" numeric(78, 0) DEFAULT 0 NOT NULL,
	"venue" text NOT NULL,
	CONSTRAINT "token_trades_tx_hash_log_index_pk" PRIMARY KEY("tx_hash","log_index")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "token_graduation_threshold" bigint;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "token_launch_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "token_launch_tx_hash" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "token_public_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "token_graduated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "token_pool_id" text;--> statement-breakpoint
ALTER TABLE "token_trades" ADD CONSTRAINT "token_trades_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "token_trades_company_time_idx" ON "token_trades" USING btree ("company_id","block_time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "token_trades_time_idx" ON "token_trades" USING btree ("block_time");--> statement-breakpoint
CREATE UNIQUE INDEX "companies_token_address_unique" ON "companies" USING btree ("token_address");--> statement-breakpoint
CREATE INDEX "companies_token_list_idx" ON "companies" USING btree ("token_public_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "companies"."token_status" <> 'PRE_PUBLIC';--> statement-breakpoint
CREATE INDEX "companies_token_status_list_idx" ON "companies" USING btree ("token_status","token_public_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "companies"."token_status" <> 'PRE_PUBLIC';--> statement-breakpoint
CREATE INDEX "companies_token_launch_pending_idx" ON "companies" USING btree ("token_launch_requested_at") WHERE "companies"."token_status" = 'PRE_PUBLIC' and "companies"."token_launch_requested_at" is not null;
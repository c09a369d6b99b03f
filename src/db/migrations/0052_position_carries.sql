CREATE TABLE "position_carries" (
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"token_address" text NOT NULL,
	"company_id" text NOT NULL,
	"from_trader" text NOT NULL,
	"to_trader" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"quantity" numeric(78, 0) NOT NULL,
	"cost_usdc" numeric(78, 0) NOT NULL,
	CONSTRAINT "position_carries_tx_hash_log_index_pk" PRIMARY KEY("tx_hash","log_index")
);
--> statement-breakpoint
ALTER TABLE "position_carries" ADD CONSTRAINT "position_carries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE TRIGGER "position_carries_journal" AFTER INSERT OR UPDATE OR DELETE ON "position_carries" FOR EACH ROW EXECUTE FUNCTION "chain_journal_write"('tx_hash', 'log_index');--> statement-breakpoint
CREATE TRIGGER "position_carries_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "position_carries" FOR EACH STATEMENT EXECUTE FUNCTION "read_model_changed"();
CREATE TABLE "company_gas_days" (
	"company_id" text NOT NULL,
	"day" date NOT NULL,
	"gas_used" numeric(78, 0) NOT NULL,
	"cost_wei" numeric(78, 0) NOT NULL,
	"transactions" integer NOT NULL,
	CONSTRAINT "company_gas_days_company_id_day_pk" PRIMARY KEY("company_id","day")
);
--> statement-breakpoint
ALTER TABLE "chain_txs" ADD COLUMN "charged_to" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "chain_txs" ADD COLUMN "gas_used" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "chain_txs" ADD COLUMN "gas_price" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "decision_rounds" ADD COLUMN "anchor_batch_key" text;--> statement-breakpoint
CREATE INDEX "decision_rounds_anchor_batch_idx" ON "decision_rounds" USING btree ("anchor_batch_key") WHERE "decision_rounds"."anchor_batch_key" is not null and "decision_rounds"."anchor_tx_hash" is null;--> statement-breakpoint
CREATE INDEX "decision_rounds_manual_idx" ON "decision_rounds" USING btree ("company_id","created_at" DESC NULLS FIRST) WHERE "decision_rounds"."trigger" = 'MANUAL';
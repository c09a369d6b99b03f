CREATE TABLE "reward_claims" (
	"epoch" integer NOT NULL,
	"company_id" text NOT NULL,
	"leaf_index" integer NOT NULL,
	"company_key" text NOT NULL,
	"claim_to" text NOT NULL,
	"score" numeric(78, 0) NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"proof" jsonb NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"claim_tx_hash" text,
	"claimed_at" timestamp with time zone,
	CONSTRAINT "reward_claims_epoch_company_id_pk" PRIMARY KEY("epoch","company_id"),
	CONSTRAINT "reward_claims_status_check" CHECK (status in ('PENDING', 'CLAIMED'))
);
--> statement-breakpoint
CREATE TABLE "reward_epochs" (
	"epoch" integer PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"window_end" timestamp with time zone NOT NULL,
	"merkle_root" text NOT NULL,
	"total_score" numeric(78, 0) NOT NULL,
	"reward_pool" numeric(78, 0) NOT NULL,
	"company_count" integer NOT NULL,
	"status" text DEFAULT 'PREPARED' NOT NULL,
	"finalize_tx_hash" text,
	"finalized_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reward_epochs_status_check" CHECK (status in ('PREPARED', 'FINALIZED'))
);
--> statement-breakpoint
ALTER TABLE "reward_claims" ADD CONSTRAINT "reward_claims_epoch_reward_epochs_epoch_fk" FOREIGN KEY ("epoch") REFERENCES "public"."reward_epochs"("epoch") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_claims" ADD CONSTRAINT "reward_claims_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reward_claims_company_epoch_idx" ON "reward_claims" USING btree ("company_id","epoch" DESC NULLS LAST);
CREATE TABLE "company_treasuries" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"address" text NOT NULL,
	"from_time" timestamp with time zone NOT NULL,
	"until_time" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "treasury_accounts" (
	"address" text PRIMARY KEY NOT NULL,
	"synced_block" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "treasury_observations" (
	"address" text NOT NULL,
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	"balance" numeric(78, 0) NOT NULL,
	"cumulative" numeric(78, 0) NOT NULL,
	CONSTRAINT "treasury_observations_address_block_number_log_index_pk" PRIMARY KEY("address","block_number","log_index")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "treasury_proven_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "company_treasuries" ADD CONSTRAINT "company_treasuries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "company_treasuries_current_unique" ON "company_treasuries" USING btree ("company_id") WHERE "company_treasuries"."until_time" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "company_treasuries_current_address_unique" ON "company_treasuries" USING btree (lower("address")) WHERE "company_treasuries"."until_time" is null;--> statement-breakpoint
CREATE INDEX "company_treasuries_company_idx" ON "company_treasuries" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "treasury_accounts_catching_up_idx" ON "treasury_accounts" USING btree ("synced_block") WHERE "treasury_accounts"."synced_block" is not null;--> statement-breakpoint
CREATE INDEX "treasury_observations_address_time_idx" ON "treasury_observations" USING btree ("address","observed_at","block_number","log_index");--> statement-breakpoint
CREATE INDEX "companies_treasury_idx" ON "companies" USING btree ("treasury_address");
CREATE TABLE "signer_wallets" (
	"wallet_index" integer PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "signer_wallets_address_idx" ON "signer_wallets" USING btree ("address");
CREATE TABLE "token_balances" (
	"token_address" text NOT NULL,
	"holder" text NOT NULL,
	"balance" numeric(78, 0) NOT NULL,
	CONSTRAINT "token_balances_token_address_holder_pk" PRIMARY KEY("token_address","holder")
);
--> statement-breakpoint
CREATE TABLE "token_holder_counts" (
	"token_address" text PRIMARY KEY NOT NULL,
	"holders" integer DEFAULT 0 NOT NULL,
	"supply" numeric(78, 0) DEFAULT 0 NOT NULL,
	"applied_block" bigint DEFAULT -1 NOT NULL,
	"applied_log" integer DEFAULT -1 NOT NULL
);

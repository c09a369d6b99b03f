CREATE TABLE "idempotency_keys" (
	"signer" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"locked_at" timestamp with time zone,
	"status" integer,
	"headers" jsonb,
	"body" text,
	CONSTRAINT "idempotency_keys_pk" PRIMARY KEY("signer","key")
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");
CREATE SEQUENCE "public"."agent_wallet_index_seq" INCREMENT BY 1 MINVALUE 0 MAXVALUE 9223372036854775807 START WITH 0 CACHE 1;--> statement-breakpoint
CREATE TABLE "chain_cursors" (
	"name" text PRIMARY KEY NOT NULL,
	"block" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_txs" (
	"key" text PRIMARY KEY NOT NULL,
	"from_address" text NOT NULL,
	"nonce" integer NOT NULL,
	"raw_tx" text NOT NULL,
	"hash" text NOT NULL,
	"status" text DEFAULT 'SENT' NOT NULL,
	"block_number" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text,
	"name" text NOT NULL,
	"description" text,
	"role" text,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"creator_address" text NOT NULL,
	"wallet_index" integer,
	"on_chain_address" text,
	"erc8004_token_id" text,
	"trust_registry_address" text,
	"persona" jsonb NOT NULL,
	"skills" jsonb NOT NULL,
	"strategy" jsonb NOT NULL,
	"decisions_count" integer DEFAULT 0 NOT NULL,
	"llm_calls_total" integer DEFAULT 0 NOT NULL,
	"tool_calls_total" integer DEFAULT 0 NOT NULL,
	"last_active_at" timestamp with time zone,
	"last_errors" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text,
	"category" text NOT NULL,
	"status" text DEFAULT 'INCORPORATING' NOT NULL,
	"autonomy_level" text DEFAULT 'STRATEGY_AUTONOMOUS' NOT NULL,
	"league" text DEFAULT 'MACHINE' NOT NULL,
	"ceo_prompt" text,
	"engine_preset" text DEFAULT 'BALANCED' NOT NULL,
	"engine_config" jsonb,
	"toolkit_config" jsonb,
	"master_directive" text,
	"token_status" text DEFAULT 'PRE_PUBLIC' NOT NULL,
	"token_name" text,
	"token_symbol" text,
	"token_address" text,
	"treasury_address" text,
	"creator_address" text NOT NULL,
	"logo_url" text,
	"card_token_id" integer NOT NULL,
	"card_locked_at" timestamp with time zone,
	"referrer_company_id" text,
	"platform_score" double precision DEFAULT 0 NOT NULL,
	"machine_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_referrer_company_id_companies_id_fk" FOREIGN KEY ("referrer_company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chain_txs_pending_idx" ON "chain_txs" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "agents_company_role_active_unique" ON "agents" USING btree ("company_id","role") WHERE "agents"."status" <> 'TERMINATED' and "agents"."company_id" is not null and "agents"."role" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "agents_wallet_index_unique" ON "agents" USING btree ("wallet_index");--> statement-breakpoint
CREATE INDEX "agents_company_idx" ON "agents" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "agents_created_idx" ON "agents" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "agents_status_created_idx" ON "agents" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "agents_creator_created_idx" ON "agents" USING btree ("creator_address","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "companies_slug_unique" ON "companies" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "companies_card_token_id_unique" ON "companies" USING btree ("card_token_id");--> statement-breakpoint
CREATE INDEX "companies_creator_idx" ON "companies" USING btree ("creator_address");--> statement-breakpoint
CREATE INDEX "companies_card_pending_idx" ON "companies" USING btree ("card_token_id") WHERE "companies"."card_locked_at" is null;--> statement-breakpoint
CREATE INDEX "companies_referrer_idx" ON "companies" USING btree ("referrer_company_id");
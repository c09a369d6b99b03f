CREATE TABLE "score_snapshots" (
	"snapshot_date" date NOT NULL,
	"company_id" text NOT NULL,
	"category" text NOT NULL,
	"treasury_raw" numeric(78, 0) NOT NULL,
	"trading_raw" numeric(78, 0) NOT NULL,
	"volume_raw" numeric(78, 0) NOT NULL,
	"activity_raw" integer NOT NULL,
	"completeness_raw" double precision NOT NULL,
	"treasury_score" numeric(5, 2) NOT NULL,
	"trading_score" numeric(5, 2) NOT NULL,
	"volume_score" numeric(5, 2) NOT NULL,
	"activity_score" numeric(5, 2) NOT NULL,
	"completeness_score" numeric(5, 2) NOT NULL,
	"referral_boost" numeric(3, 2) NOT NULL,
	"overall" numeric(6, 2) NOT NULL,
	"rank" integer NOT NULL,
	"treasury_block" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "score_snapshots_snapshot_date_company_id_pk" PRIMARY KEY("snapshot_date","company_id")
);
--> statement-breakpoint
ALTER TABLE "score_snapshots" ADD CONSTRAINT "score_snapshots_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "score_snapshots_date_rank_idx" ON "score_snapshots" USING btree ("snapshot_date","rank");--> statement-breakpoint
CREATE INDEX "score_snapshots_date_category_rank_idx" ON "score_snapshots" USING btree ("snapshot_date","category","rank");--> statement-breakpoint
CREATE INDEX "companies_fortune_idx" ON "companies" USING btree ("platform_score" DESC NULLS LAST,"created_at","id");--> statement-breakpoint
CREATE INDEX "companies_fortune_category_idx" ON "companies" USING btree ("category","platform_score" DESC NULLS LAST,"created_at","id");--> statement-breakpoint
CREATE INDEX "companies_fortune_league_idx" ON "companies" USING btree ("league","platform_score" DESC NULLS LAST,"created_at","id");
-- Every replica's read cache hears which table of the read model changed (src/db/changes.ts): one NOTIFY per
-- statement with the table's name, delivered at commit (PostgreSQL sends one per transaction for equal payloads).
CREATE FUNCTION "read_model_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('read_model_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "companies_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "companies" FOR EACH STATEMENT EXECUTE FUNCTION "read_model_changed"();--> statement-breakpoint
CREATE TRIGGER "agents_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "agents" FOR EACH STATEMENT EXECUTE FUNCTION "read_model_changed"();--> statement-breakpoint
CREATE TRIGGER "company_gas_days_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "company_gas_days" FOR EACH STATEMENT EXECUTE FUNCTION "read_model_changed"();--> statement-breakpoint
CREATE TRIGGER "score_snapshots_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "score_snapshots" FOR EACH STATEMENT EXECUTE FUNCTION "read_model_changed"();--> statement-breakpoint
CREATE TRIGGER "token_trades_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "token_trades" FOR EACH STATEMENT EXECUTE FUNCTION "read_model_changed"();

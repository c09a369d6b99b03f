ALTER TABLE "chain_cursors" ADD COLUMN "finalized" bigint;--> statement-breakpoint
-- The trades list says whether each trade is finalized from its stream's cursor: a cached list is read again when it moves.
CREATE TRIGGER "chain_cursors_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "chain_cursors" FOR EACH STATEMENT EXECUTE FUNCTION "read_model_changed"();

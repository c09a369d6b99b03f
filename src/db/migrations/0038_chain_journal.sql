CREATE TABLE "chain_journal" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"stream" text NOT NULL,
	"from_block" bigint NOT NULL,
	"to_block" bigint NOT NULL,
	"table_name" text NOT NULL,
	"key" jsonb NOT NULL,
	"op" text NOT NULL,
	"old" jsonb
);
--> statement-breakpoint
CREATE INDEX "chain_journal_stream_to_idx" ON "chain_journal" USING btree ("stream","to_block");--> statement-breakpoint
-- The chain streams' undo log (src/chain/journal.ts): while a stream applies a batch above the finalized block it sets
-- chain.stream, chain.from_block and chain.to_block for its transaction, and every row written to a table it
-- declares is journaled with its primary key (the trigger's arguments) and what undoes it.
CREATE FUNCTION "chain_journal_write"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s text := current_setting('chain.stream', true);
  src jsonb;
  k jsonb;
  changed jsonb;
BEGIN
  IF s IS NULL OR s = '' THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN src := to_jsonb(NEW); ELSE src := to_jsonb(OLD); END IF;
  SELECT jsonb_object_agg(c, src -> c) INTO k FROM unnest(TG_ARGV) AS c;
  IF TG_OP = 'UPDATE' THEN
    SELECT jsonb_object_agg(o.key, o.value) INTO changed
    FROM jsonb_each(src) o WHERE o.value IS DISTINCT FROM (to_jsonb(NEW) -> o.key);
    IF changed IS NULL THEN RETURN NULL; END IF;
  ELSIF TG_OP = 'DELETE' THEN
    changed := src;
  END IF;
  INSERT INTO chain_journal (stream, from_block, to_block, table_name, key, op, old)
  VALUES (s, current_setting('chain.from_block')::bigint, current_setting('chain.to_block')::bigint, TG_TABLE_NAME, k,
    left(TG_OP, 1), changed);
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Undoes every journaled write of the stream's batches that reach past `ancestor`, newest first, and answers the
-- block the stream's state is then at: the block before the first of those batches (or `ancestor`).
CREATE FUNCTION "chain_journal_rollback"(p_stream text, p_ancestor bigint) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  e record;
  target bigint := p_ancestor;
  keys text;
  cols text;
BEGIN
  FOR e IN SELECT * FROM chain_journal WHERE stream = p_stream AND to_block > p_ancestor ORDER BY id DESC LOOP
    IF e.from_block - 1 < target THEN target := e.from_block - 1; END IF;
    SELECT string_agg(format('t.%I = k.%I', c, c), ' AND ') INTO keys FROM jsonb_object_keys(e.key) AS c;
    IF e.op = 'I' THEN
      EXECUTE format('DELETE FROM %I t USING jsonb_populate_record(null::%I, $1) k WHERE %s',
        e.table_name, e.table_name, keys) USING e.key;
    ELSIF e.op = 'U' THEN
      SELECT string_agg(format('%I = o.%I', c, c), ', ') INTO cols FROM jsonb_object_keys(e.old) AS c;
      EXECUTE format('UPDATE %I t SET %s FROM jsonb_populate_record(null::%I, $1) k, jsonb_populate_record(null::%I, $2) o WHERE %s',
        e.table_name, cols, e.table_name, e.table_name, keys) USING e.key, e.old;
    ELSE
      EXECUTE format('INSERT INTO %I SELECT * FROM jsonb_populate_record(null::%I, $1)', e.table_name, e.table_name)
        USING e.old;
    END IF;
  END LOOP;
  DELETE FROM chain_journal WHERE stream = p_stream AND to_block > p_ancestor;
  RETURN target;
END
$$;--> statement-breakpoint
CREATE TRIGGER "companies_journal" AFTER INSERT OR UPDATE OR DELETE ON "companies" FOR EACH ROW EXECUTE FUNCTION "chain_journal_write"('id');--> statement-breakpoint
CREATE TRIGGER "agents_journal" AFTER INSERT OR UPDATE OR DELETE ON "agents" FOR EACH ROW EXECUTE FUNCTION "chain_journal_write"('id');--> statement-breakpoint
CREATE TRIGGER "token_trades_journal" AFTER INSERT OR UPDATE OR DELETE ON "token_trades" FOR EACH ROW EXECUTE FUNCTION "chain_journal_write"('tx_hash', 'log_index');--> statement-breakpoint
CREATE TRIGGER "trader_positions_journal" AFTER INSERT OR UPDATE OR DELETE ON "trader_positions" FOR EACH ROW EXECUTE FUNCTION "chain_journal_write"('trader', 'token_address');--> statement-breakpoint
CREATE TRIGGER "token_holder_counts_journal" AFTER INSERT OR UPDATE OR DELETE ON "token_holder_counts" FOR EACH ROW EXECUTE FUNCTION "chain_journal_write"('token_address');--> statement-breakpoint
CREATE TRIGGER "token_balances_journal" AFTER INSERT OR UPDATE OR DELETE ON "token_balances" FOR EACH ROW EXECUTE FUNCTION "chain_journal_write"('token_address', 'holder');--> statement-breakpoint
CREATE TRIGGER "treasury_accounts_journal" AFTER INSERT OR UPDATE OR DELETE ON "treasury_accounts" FOR EACH ROW EXECUTE FUNCTION "chain_journal_write"('address');--> statement-breakpoint
CREATE TRIGGER "treasury_observations_journal" AFTER INSERT OR UPDATE OR DELETE ON "treasury_observations" FOR EACH ROW EXECUTE FUNCTION "chain_journal_write"('address', 'block_number', 'log_index');

CREATE INDEX "token_trades_company_block_idx" ON "token_trades" USING btree ("company_id","block_number","log_index");--> statement-breakpoint
CREATE INDEX "token_trades_block_idx" ON "token_trades" USING btree ("block_number","log_index");--> statement-breakpoint
CREATE INDEX "token_trades_trader_block_idx" ON "token_trades" USING btree ("trader","block_number","log_index");
// Which key of a remote signer is which agent wallet. The remote signer (WALLET_PROVIDER=remote) holds keys the
// platform cannot derive: each wallet index is given one of the signer's addresses the first time it is asked for,
// once and for ever, so adding keys to the signer never moves a wallet to another key. Only
// domain/wallets/remote.ts writes this table (docs/architecture.md).
import { integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const signerWallets = pgTable(
  'signer_wallets',
  {
    walletIndex: integer('wallet_index').primaryKey(),
    /** Lower-case 0x address, as the signer's eth_accounts listed it. */
    address: text('address').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('signer_wallets_address_idx').on(t.address)],
);

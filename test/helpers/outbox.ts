// The outbox as the chain tests build it: on a test database and a test chain, sending from the platform wallet.
import { createOutbox, type Outbox, type OutboxOptions } from '../../src/chain/outbox.ts';
import type { Database } from '../../src/db/client.ts';
import type { TestChain } from './chain.ts';

/** An outbox on `database` and `chain` (platform wallet, 10 s receipt timeout); `extra` adds or overrides options. */
export function testOutbox(database: Database, chain: TestChain, extra: Partial<OutboxOptions> = {}): Outbox {
  return createOutbox({
    db: database.db,
    chain: chain.chain,
    wallet: chain.chain.platform,
    receiptTimeoutMs: 10_000,
    ...extra,
  });
}

/** Outbox options under which a send throws Error('crash') after recording its transaction and before broadcasting. */
export const crashBeforeBroadcast = {
  beforeBroadcast: () => {
    throw new Error('crash');
  },
} satisfies Partial<OutboxOptions>;

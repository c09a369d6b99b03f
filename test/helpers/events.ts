// Fixtures of the event tests: company rows written directly (the stream only needs their ids and slugs) and
// event payloads shaped as docs/api/events.md "Payloads".
import { createId } from '@paralleldrive/cuid2';
import type { EventType } from '../../src/constants.ts';
import type { Tx } from '../../src/db/client.ts';
import { companies } from '../../src/db/schema/companies.ts';

let card = 9000;

export async function insertCompany(db: Tx, slug: string): Promise<{ id: string; slug: string }> {
  const id = createId();
  await db.insert(companies).values({
    id,
    name: slug,
    slug,
    category: 'AI_TOKENS',
    creatorAddress: `0x${'1'.repeat(40)}`,
    cardTokenId: card++,
  });
  return { id, slug };
}

export const payloads: Record<EventType, Record<string, unknown>> = {
  decision: {
    roundId: 'r1',
    cycle: 3,
    directive: 'grow the treasury',
    actionsCount: 4,
    decisionHash: `0x${'ab'.repeat(32)}`,
  },
  trade: {
    tokenSymbol: 'ACME',
    side: 'buy',
    amount: '1500000000000000000',
    price: '12345',
    txHash: `0x${'cd'.repeat(32)}`,
    trader: `0x${'2'.repeat(40)}`,
  },
  score: { platformScore: 71.5, previousScore: 70.25, rank: 3 },
  season: { kind: 'epoch_finalized', epoch: 7 },
};

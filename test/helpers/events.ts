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
    kind: 'trade',
    tokenSymbol: 'ACME',
    companySlug: 'acme',
    tokenAddress: `0x${'3'.repeat(40)}`,
    txHash: `0x${'cd'.repeat(32)}`,
    logIndex: 3,
    blockNumber: 1042,
    blockTime: '2026-11-26T03:01:57.000Z',
    time: '2026-11-26T03:01:57.000Z',
    transactionHash: `0x${'cd'.repeat(32)}`,
    side: 'buy',
    amount: '2000000000000000000',
    usdcAmount: '24690',
    price: '12345',
    tokenAmount: '2',
    usdcAmountRaw: '24690',
    usdcAmountDecimal: '0.02469',
    priceRaw: '12345',
    priceDecimal: '0.012345',
    priceExact: '0.012345',
    trader: `0x${'2'.repeat(40)}`,
    venue: 'CURVE',
  },
  score: { platformScore: 71.5, previousScore: 70.25, rank: 3, snapshotDate: '2026-11-29' },
  season: {
    kind: 'epoch_finalized',
    epoch: 7,
    participantCount: 2,
    rewardPool: '1000000000000000000000',
    txHash: null,
  },
};

// Ownership follows the card: whoever holds a company's access card is its creator. The access card's Transfer
// events, followed by this stream (registered in src/domain/streams/registry.ts), move the bound company and all its agents to the new holder.
import { type SQL, sql } from 'drizzle-orm';
import { type Address, getAddress, zeroAddress } from 'viem';
import { cardTransferEvent } from '../../chain/contracts/access-card.ts';
import { defineStream } from '../../chain/streams.ts';
import type { Tx } from '../../db/client.ts';
import { agents } from '../../db/schema/agents.ts';
import { companies } from '../../db/schema/companies.ts';
import { moveToCardHolders } from '../agents/store.ts';
import { moveCompaniesToCardHolders, resetCardOwnerBlocks } from './store.ts';

/** The part of a decoded Transfer log this module reads. */
export interface CardTransferLog {
  args: { from: Address; to: Address; tokenId: bigint };
  blockNumber: bigint;
}

/** `companies.card_token_id` is an integer column: an id beyond it cannot be bound to any company. */
const MAX_BOUND_TOKEN_ID = 2_147_483_647n;

export interface OwnershipChanges {
  /** Companies whose creator changed. */
  companies: number;
  /** Agents whose creator changed. */
  agents: number;
}

/**
 * Moves each company whose card changed hands to the card's last holder in `logs` (given in chain order), and
 * its agents with it, whatever their status. Mints bind nothing, and a burn leaves the last holder in place;
 * cards bound to no company are ignored. Two statements per batch; a row already held by the new holder is left
 * untouched, so applying a batch again changes nothing.
 */
export async function applyCardTransfers(tx: Tx, logs: readonly CardTransferLog[]): Promise<OwnershipChanges> {
  const holders = new Map<number, { holder: Address; block: bigint }>();
  for (const log of logs) {
    const { args } = log;
    if (args.from === zeroAddress || args.to === zeroAddress) continue;
    if (args.tokenId < 1n || args.tokenId > MAX_BOUND_TOKEN_ID) continue;
    // Later transfers of one card win: the map keeps the last holder.
    holders.set(Number(args.tokenId), { holder: getAddress(args.to), block: log.blockNumber });
  }
  if (holders.size === 0) return { companies: 0, agents: 0 };

  const moves: SQL = sql`(values ${sql.join(
    [...holders].map(([tokenId, { holder, block }]) => sql`(${tokenId}::integer, ${holder}::text, ${block}::bigint)`),
    sql`, `,
  )}) as moves (card_token_id, holder, block)`;

  const agentRows = await moveToCardHolders(tx, moves);
  const companyRows = await moveCompaniesToCardHolders(tx, moves);
  return { companies: companyRows.filter((r) => r.changed).length, agents: agentRows.length };
}

/** The access card's Transfer events: the card's holder is its company's creator, and its agents'. */
export const accessCardTransfers = defineStream({
  name: 'access-card-transfers',
  events: [cardTransferEvent],
  address: (chain) => chain.contracts.accessCard,
  startBlock: (chain) => chain.deployBlocks?.accessCard,
  writes: [companies, agents],
  apply: (_deps, tx, logs) => applyCardTransfers(tx, logs),
  reset: resetCardOwnerBlocks,
  // Where the creator was last known right: the creation's block or the last transfer's, whichever is later.
  unchecked: { companies: ['owner_block'] },
});

// Ownership follows the card: whoever holds a company's access card is its creator. The access card's Transfer
// events, followed by the chain indexer, move the bound company and all its agents to the new holder.
import { type SQL, sql } from 'drizzle-orm';
import { type Address, getAddress, zeroAddress } from 'viem';
import { cardTransferEvent } from '../../chain/contracts/access-card.ts';
import { createLogFollower, type FollowerLogger, type LogFollower } from '../../chain/indexer.ts';
import type { Tx } from '../../db/client.ts';
import { moveToCardHolders } from '../agents/store.ts';
import type { LogStreamDeps } from '../deps.ts';
import { moveCompaniesToCardHolders } from './store.ts';

export const CARD_TRANSFERS_STREAM = 'access-card-transfers';

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

/** The follower of the access card's Transfer events; call `start(config.indexerPollMs)` to run it. */
export function followCardTransfers(
  deps: LogStreamDeps,
  options: { log?: FollowerLogger; confirmations?: number; batchSize?: number } = {},
): LogFollower {
  const card = deps.chain.contracts.accessCard;
  if (!card) throw new Error('the access card address is unknown: the contracts file has no accessCard');
  const fromBlock = deps.chain.deployBlocks?.accessCard;
  if (fromBlock === undefined) {
    options.log?.warn(
      { follower: CARD_TRANSFERS_STREAM },
      'the contracts file has no deploy block for accessCard: following its transfers from block 0',
    );
  }
  return createLogFollower({
    name: CARD_TRANSFERS_STREAM,
    db: deps.database.db,
    client: deps.chain.publicClient,
    address: card,
    events: [cardTransferEvent],
    fromBlock: fromBlock ?? 0n,
    confirmations: options.confirmations ?? deps.config.chainConfirmations,
    ...(options.batchSize !== undefined && { batchSize: options.batchSize }),
    ...(options.log && { log: options.log }),
    apply: (tx, logs) => applyCardTransfers(tx, logs),
  });
}

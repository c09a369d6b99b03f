// The company-token stream: follows the launcher (TokenLaunched, CurveTrade, Graduated) and the pool fee hook
// (PoolTrade: every swap of every graduated pool, whichever router made it) with one persisted cursor, and writes
// them with apply.ts and launches.ts. Block timestamps are read before the database transaction, in one JSON-RPC
// batch, and so are the pool prices: PoolTrade does not carry the price (the hook reads no pool state, to keep a swap's gas low), the PoolManager's
// Swap log of the same pool, just before it in the same transaction, does; one eth_getLogs of the PoolManager's
// Swap logs filtered by the batch's pool ids reads them all. On a reorg its rollback tells clients each announced
// trade, launch and graduation that left the chain (announced.ts). It also reads the company tokens' transfers into
// companies' Safes: one from an agent's wallet into its own company's Safe (the sweep of a move into custody) carries
// the wallet's position to the Safe, in chain order with the trades (apply.ts applyPositions), once per log.
import { isNotNull, or } from 'drizzle-orm';
import { type Address, getAddress, type Hex } from 'viem';
import type { Chain } from '../../chain/client.ts';
import {
  COMPANY_TOKEN_SUPPLY,
  companyTokenTransfersTo,
  poolIdOf,
  poolSwaps,
  TOKEN_STREAM_EVENTS,
  tokenEventsIn,
} from '../../chain/contracts/launcher.ts';
import type { FollowedLog } from '../../chain/indexer.ts';
import { defineStream, type StreamDeps } from '../../chain/streams.ts';
import type { Tx } from '../../db/client.ts';
import { companies } from '../../db/schema/companies.ts';
import { positionCarries, tokenTrades, traderPositions } from '../../db/schema/tokens.ts';
import { publishRemovedAbove } from './announced.ts';
import { applyTrades, resetTokenTables } from './apply.ts';
import { applyGraduations, applyLaunches } from './launches.ts';
import { curveSpot, poolSpot } from './prices.ts';
import type { TradeRecord, TransferRecord } from './records.ts';

export type TokenLog = FollowedLog<typeof TOKEN_STREAM_EVENTS>;

/** What a batch needs besides its logs: block times, and the pool price after each PoolTrade (by tx hash and index). */
export interface TokenLogContext {
  blockTimes: Map<bigint, Date>;
  poolPrices: Map<string, bigint>;
}

const tradeKey = (txHash: Hex, logIndex: number) => `${txHash.toLowerCase()}:${logIndex}`;

/**
 * The pool price (sqrtPriceX96) after each PoolTrade of `logs`: the PoolManager's Swap log of the trade's pool that
 * comes last before it in its transaction (v4 emits Swap, then calls afterSwap, whose fee claim and PoolTrade follow).
 * One eth_getLogs over the blocks of the trades, filtered by their pool ids. A trade without its Swap log throws, so
 * the batch is read again rather than applied without a price.
 */
export async function readPoolPrices(
  client: Pick<Chain['publicClient'], 'getLogs'>,
  poolManager: Address,
  usdc: Address,
  logs: readonly TokenLog[],
): Promise<Map<string, bigint>> {
  const trades = logs.filter((l): l is Extract<TokenLog, { eventName: 'PoolTrade' }> => l.eventName === 'PoolTrade');
  const prices = new Map<string, bigint>();
  if (trades.length === 0) return prices;
  const idOf = (l: (typeof trades)[number]) => poolIdOf(l.args.token as Address, usdc, l.address);
  const ids = [...new Set(trades.map(idOf))];
  let fromBlock = trades[0]!.blockNumber;
  let toBlock = fromBlock;
  for (const t of trades) {
    if (t.blockNumber < fromBlock) fromBlock = t.blockNumber;
    if (t.blockNumber > toBlock) toBlock = t.blockNumber;
  }
  const swaps = await poolSwaps(client, poolManager, ids, fromBlock, toBlock);
  for (const trade of trades) {
    const id = idOf(trade).toLowerCase();
    let best: (typeof swaps)[number] | undefined;
    for (const swap of swaps) {
      if (swap.transactionHash.toLowerCase() !== trade.transactionHash.toLowerCase()) continue;
      if (swap.args.id.toLowerCase() !== id || swap.logIndex >= trade.logIndex) continue;
      if (!best || swap.logIndex > best.logIndex) best = swap;
    }
    if (!best) {
      throw new Error(`no PoolManager Swap log before PoolTrade ${trade.transactionHash}:${trade.logIndex}`);
    }
    prices.set(tradeKey(trade.transactionHash, trade.logIndex), best.args.sqrtPriceX96);
  }
  return prices;
}

/** Applies one batch of token logs (in chain order) given each block's time and each pool trade's price. */
export async function applyTokenLogs(tx: Tx, logs: readonly TokenLog[], context: TokenLogContext, usdc?: Address) {
  const { blockTimes, poolPrices } = context;
  const timeOf = (log: TokenLog) => {
    const time = blockTimes.get(log.blockNumber);
    if (!time) throw new Error(`no timestamp read for block ${log.blockNumber}`);
    return time;
  };
  const trades: TradeRecord[] = [];
  const transfers: TransferRecord[] = [];
  const launches = [];
  const graduations = [];
  for (const log of logs) {
    const base = { txHash: log.transactionHash, logIndex: log.logIndex, blockNumber: log.blockNumber };
    switch (log.eventName) {
      case 'TokenLaunched':
        launches.push({
          ...base,
          token: log.args.token,
          graduationThreshold: log.args.graduationThreshold,
          blockTime: timeOf(log),
        });
        break;
      case 'Graduated':
        graduations.push({ ...base, token: log.args.token, poolId: log.args.poolId, blockTime: timeOf(log) });
        break;
      case 'CurveTrade':
      case 'PoolTrade':
        trades.push({
          ...base,
          blockHash: log.blockHash,
          blockTime: timeOf(log),
          token: log.args.token,
          trader: log.args.trader,
          isBuy: log.args.isBuy,
          usdcAmount: log.args.usdcAmount,
          tokenAmount: log.args.tokenAmount,
          fee: log.args.fee,
          venue: log.eventName === 'PoolTrade' ? 'POOL' : 'CURVE',
          ...spotOf(log, usdc, poolPrices),
        });
        break;
      case 'Transfer':
        transfers.push({
          ...base,
          token: log.address,
          from: log.args.from,
          to: log.args.to,
          value: log.args.value,
        });
        break;
    }
  }
  // Chain order within a batch: a token's launch precedes its trades (and the transfers that carry positions),
  // which precede its graduation.
  const launched = await applyLaunches(tx, launches);
  const traded = await applyTrades(tx, trades, transfers);
  const graduated = await applyGraduations(tx, graduations);
  return { launched: launched.length, trades: traded, graduated: graduated.length };
}

/**
 * The price a trade leaves the token at: the curve's reserves, or the pool's price from the PoolManager's Swap log
 * (needs USDC's address).
 */
function spotOf(log: TokenLog, usdc: Address | undefined, poolPrices: Map<string, bigint>): Pick<TradeRecord, 'spot'> {
  if (log.eventName === 'CurveTrade') {
    const spot = curveSpot(log.args.virtualUsdc, log.args.virtualTokens, COMPANY_TOKEN_SUPPLY);
    return { spot: { ...spot, virtualUsdc: log.args.virtualUsdc } };
  }
  const sqrtPriceX96 = poolPrices.get(tradeKey(log.transactionHash, log.logIndex));
  if (log.eventName === 'PoolTrade' && usdc && sqrtPriceX96 !== undefined) {
    const currency0 = log.args.token.toLowerCase() < usdc.toLowerCase();
    return { spot: poolSpot(sqrtPriceX96, currency0, COMPANY_TOKEN_SUPPLY) };
  }
  return {};
}

/** Block times and pool prices for a batch's logs (a transfer needs neither). */
async function prepareTokenLogs(deps: StreamDeps, logs: readonly TokenLog[]): Promise<TokenLogContext> {
  const client = deps.chain.publicClient;
  const numbers = [...new Set(logs.filter((l) => l.eventName !== 'Transfer').map((l) => l.blockNumber))];
  const { usdc, poolManager } = deps.chain.contracts;
  const [blocks, poolPrices] = await Promise.all([
    Promise.all(numbers.map((blockNumber) => client.getBlock({ blockNumber }))),
    usdc && poolManager
      ? readPoolPrices(client, poolManager as Address, usdc as Address, logs)
      : Promise.resolve(new Map<string, bigint>()),
  ]);
  return { blockTimes: new Map(blocks.map((b) => [b.number!, new Date(Number(b.timestamp) * 1000)])), poolPrices };
}

/**
 * The launcher and the pool fee hook, followed with one cursor: launches, curve and pool trades, graduations; and
 * the company tokens' transfers into the companies' Safes (filtered by recipient), for the positions they carry.
 */
export const companyTokens = defineStream({
  name: 'company-tokens',
  events: TOKEN_STREAM_EVENTS,
  writes: [tokenTrades, traderPositions, positionCarries, companies],
  publishes: true,
  scored: true,
  address: (chain) => {
    const { tokenLauncher, feeHook } = chain.contracts;
    return tokenLauncher && feeHook ? [tokenLauncher, feeHook] : undefined;
  },
  startBlock: (chain) => {
    const launcher = chain.deployBlocks?.tokenLauncher;
    const hook = chain.deployBlocks?.feeHook;
    if (launcher === undefined || hook === undefined) return undefined;
    return launcher < hook ? launcher : hook;
  },
  read: async (deps, range) => {
    // Safes and tokens as the database knows them: a Safe is recorded before anything is swept into it, a token's
    // address before its launch.
    const rows = await deps.database.db
      .select({ token: companies.tokenAddress, safe: companies.safeAddress })
      .from(companies)
      .where(or(isNotNull(companies.tokenAddress), isNotNull(companies.safeAddress)));
    const tokens = rows.flatMap((r) => (r.token ? [getAddress(r.token)] : []));
    const safes = rows.flatMap((r) => (r.safe ? [getAddress(r.safe)] : []));
    const [events, transfers] = await Promise.all([
      tokenEventsIn(deps.chain, range.from, range.to),
      tokens.length > 0 && safes.length > 0
        ? companyTokenTransfersTo(deps.chain, tokens, safes, range.from, range.to)
        : [],
    ]);
    const logs = [...events, ...transfers] as TokenLog[];
    const prepared =
      logs.length > 0 ? await prepareTokenLogs(deps, logs) : { blockTimes: new Map(), poolPrices: new Map() };
    return { logs, prepared };
  },
  apply: (deps, tx, logs, context) => applyTokenLogs(tx, logs, context, deps.chain.contracts.usdc),
  // Before the journal undoes the orphaned blocks: clients are told each trade, launch and graduation that left.
  rollback: (_deps, tx, ancestor) => publishRemovedAbove(tx, ancestor),
  reset: resetTokenTables,
});

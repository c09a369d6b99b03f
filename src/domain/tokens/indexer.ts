// The company-token indexer: follows the launcher (TokenLaunched, CurveTrade, Graduated) and the pool fee hook
// (PoolTrade: every swap of every graduated pool, whichever router made it) with one persisted cursor, and writes
// them with apply.ts. Block timestamps are read before the database transaction, in one JSON-RPC batch.
import type { Address } from 'viem';
import { COMPANY_TOKEN_SUPPLY, TOKEN_EVENTS } from '../../chain/contracts/launcher.ts';
import { createLogFollower, type FollowedLog, type FollowerLogger, type LogFollower } from '../../chain/indexer.ts';
import type { Tx } from '../../db/client.ts';
import type { LogStreamDeps } from '../deps.ts';
import { applyGraduations, applyLaunches, applyTrades, curveSpot, poolSpot, type TradeRecord } from './apply.ts';

export const COMPANY_TOKENS_STREAM = 'company-tokens';

export const tokenEvents = TOKEN_EVENTS;

export type TokenLog = FollowedLog<typeof tokenEvents>;

/** Applies one batch of token logs (in chain order) given each block's time. */
export async function applyTokenLogs(tx: Tx, logs: readonly TokenLog[], blockTimes: Map<bigint, Date>, usdc?: Address) {
  const timeOf = (log: TokenLog) => {
    const time = blockTimes.get(log.blockNumber);
    if (!time) throw new Error(`no timestamp read for block ${log.blockNumber}`);
    return time;
  };
  const trades: TradeRecord[] = [];
  const launches = [];
  const graduations = [];
  for (const log of logs) {
    const base = { txHash: log.transactionHash, logIndex: log.logIndex, blockNumber: log.blockNumber };
    switch (log.eventName) {
      case 'TokenLaunched':
        launches.push({ ...base, token: log.args.token, blockTime: timeOf(log) });
        break;
      case 'Graduated':
        graduations.push({ ...base, token: log.args.token, poolId: log.args.poolId, blockTime: timeOf(log) });
        break;
      case 'CurveTrade':
      case 'PoolTrade':
        trades.push({
          ...base,
          blockTime: timeOf(log),
          token: log.args.token,
          trader: log.args.trader,
          isBuy: log.args.isBuy,
          usdcAmount: log.args.usdcAmount,
          tokenAmount: log.args.tokenAmount,
          fee: log.args.fee,
          venue: log.eventName === 'PoolTrade' ? 'POOL' : 'CURVE',
          ...spotOf(log, usdc),
        });
        break;
    }
  }
  // Chain order within a batch: a token's launch precedes its trades, which precede its graduation.
  const launched = await applyLaunches(tx, launches);
  const traded = await applyTrades(tx, trades);
  const graduated = await applyGraduations(tx, graduations);
  return { launched: launched.length, trades: traded, graduated: graduated.length };
}

/** The price a trade leaves the token at: the curve's reserves, or the pool's price (needs USDC's address). */
function spotOf(log: TokenLog, usdc: Address | undefined): Pick<TradeRecord, 'spot'> {
  if (log.eventName === 'CurveTrade') {
    const spot = curveSpot(log.args.virtualUsdc, log.args.virtualTokens, COMPANY_TOKEN_SUPPLY);
    return { spot: { ...spot, virtualUsdc: log.args.virtualUsdc } };
  }
  if (log.eventName === 'PoolTrade' && usdc) {
    const currency0 = log.args.token.toLowerCase() < usdc.toLowerCase();
    return { spot: poolSpot(log.args.sqrtPriceX96, currency0, COMPANY_TOKEN_SUPPLY) };
  }
  return {};
}

/** The follower of the launcher and the fee hook; call `start(config.indexerPollMs)` to run it. */
export function followCompanyTokens(
  deps: LogStreamDeps,
  options: { log?: FollowerLogger; confirmations?: number; batchSize?: number } = {},
): LogFollower | undefined {
  const { tokenLauncher, feeHook } = deps.chain.contracts;
  if (!tokenLauncher || !feeHook) {
    options.log?.warn({ follower: COMPANY_TOKENS_STREAM }, 'no token launcher or fee hook configured: not followed');
    return undefined;
  }
  const blocks = [deps.chain.deployBlocks?.tokenLauncher, deps.chain.deployBlocks?.feeHook].filter(
    (b): b is bigint => b !== undefined,
  );
  const fromBlock = blocks.length === 2 ? (blocks[0]! < blocks[1]! ? blocks[0]! : blocks[1]!) : 0n;
  const client = deps.chain.publicClient;
  return createLogFollower({
    name: COMPANY_TOKENS_STREAM,
    db: deps.database.db,
    client,
    address: [tokenLauncher, feeHook] as Address[],
    events: tokenEvents,
    fromBlock,
    confirmations: options.confirmations ?? deps.config.chainConfirmations,
    ...(options.batchSize !== undefined && { batchSize: options.batchSize }),
    ...(options.log && { log: options.log }),
    prepare: async (logs) => {
      const numbers = [...new Set(logs.map((l) => l.blockNumber))];
      const blocks = await Promise.all(numbers.map((blockNumber) => client.getBlock({ blockNumber })));
      return new Map(blocks.map((b) => [b.number!, new Date(Number(b.timestamp) * 1000)]));
    },
    apply: (tx, logs, blockTimes) => applyTokenLogs(tx, logs, blockTimes, deps.chain.contracts.usdc),
  });
}

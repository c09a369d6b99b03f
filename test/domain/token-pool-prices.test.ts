// The company-token stream's pool prices (src/domain/tokens/indexer.ts readPoolPrices): PoolTrade carries no price,
// each one takes the sqrtPriceX96 of the PoolManager's Swap log of its pool that comes last before it in its
// transaction. A fake client answers the one eth_getLogs and records its filter.
import type { Address, Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { poolIdOf } from '../../src/chain/contracts/launcher.ts';
import { readPoolPrices, type TokenLog } from '../../src/domain/tokens/company-tokens.stream.ts';

const USDC = '0x00000000000000000000000000000000000000c0' as Address;
const HOOK = '0x00000000000000000000000000000000000010c4' as Address;
const MANAGER = '0x0000000000000000000000000000000000000b0b' as Address;
const TOKEN_A = '0x000000000000000000000000000000000000000a' as Address;
const TOKEN_B = '0x00000000000000000000000000000000000000fb' as Address;
const TX1 = `0x${'11'.repeat(32)}` as Hex;
const TX2 = `0x${'22'.repeat(32)}` as Hex;

const trade = (token: Address, transactionHash: Hex, logIndex: number, blockNumber: bigint) =>
  ({
    eventName: 'PoolTrade',
    address: HOOK,
    transactionHash,
    logIndex,
    blockNumber,
    args: { token, trader: USDC, isBuy: true, usdcAmount: 1n, tokenAmount: 1n, fee: 0n, feeInUsdc: false },
  }) as unknown as TokenLog;

const swap = (id: Hex, transactionHash: Hex, logIndex: number, sqrtPriceX96: bigint) => ({
  transactionHash,
  logIndex,
  args: { id, sqrtPriceX96 },
});

describe('readPoolPrices', () => {
  const idA = poolIdOf(TOKEN_A, USDC, HOOK);
  const idB = poolIdOf(TOKEN_B, USDC, HOOK);

  it('orders the pool key by address, as the launcher does', () => {
    expect(idA).not.toBe(poolIdOf(TOKEN_A, USDC, MANAGER));
    expect(poolIdOf(TOKEN_B, USDC, HOOK)).toBe(poolIdOf(TOKEN_B, USDC, HOOK.toLowerCase() as Address));
  });

  it('gives each PoolTrade the last Swap of its pool before it in its transaction, from one filtered read', async () => {
    const calls: unknown[] = [];
    const client = {
      getLogs: async (args: unknown) => {
        calls.push(args);
        return [
          swap(idA, TX1, 3, 100n), // a first swap of pool A in tx 1
          swap(idB, TX1, 6, 200n), // pool B, between the two trades of A
          swap(idA, TX1, 8, 300n), // a second swap of pool A in tx 1
          swap(idA, TX2, 1, 400n),
        ];
      },
    };
    const logs = [
      trade(TOKEN_A, TX1, 5, 10n),
      trade(TOKEN_B, TX1, 7, 10n),
      trade(TOKEN_A, TX1, 10, 10n),
      trade(TOKEN_A, TX2, 3, 12n),
    ];
    const prices = await readPoolPrices(client as never, MANAGER, USDC, logs);
    expect([...prices.entries()]).toEqual([
      [`${TX1}:5`, 100n],
      [`${TX1}:7`, 200n],
      [`${TX1}:10`, 300n],
      [`${TX2}:3`, 400n],
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ address: MANAGER, args: { id: [idA, idB] }, fromBlock: 10n, toBlock: 12n });
  });

  it('reads nothing for a batch without pool trades, and refuses a pool trade without its Swap log', async () => {
    let reads = 0;
    const empty = {
      getLogs: async () => {
        reads++;
        return [];
      },
    };
    expect((await readPoolPrices(empty as never, MANAGER, USDC, [])).size).toBe(0);
    expect(reads).toBe(0);
    // a Swap of the pool after the trade, or in another transaction, is not its Swap
    const wrong = { getLogs: async () => [swap(idA, TX1, 9, 1n), swap(idA, TX2, 1, 2n)] };
    await expect(readPoolPrices(wrong as never, MANAGER, USDC, [trade(TOKEN_A, TX1, 5, 10n)])).rejects.toThrow(
      /no PoolManager Swap log before PoolTrade/,
    );
  });
});

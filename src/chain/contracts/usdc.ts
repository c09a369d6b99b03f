// USDC (the chain's own, or the mock on a development chain): balances, one or many at one pinned block. Many
// balances go out in chunks of concurrent calls, which the batching transport packs into JSON-RPC batches
// (src/chain/client.ts), so 100,000 accounts cost a few hundred HTTP round trips, not 100,000. An unreachable node
// is CHAIN_UNAVAILABLE.
import { type Address, erc20Abi } from 'viem';
import type { Chain } from '../client.ts';
import { onChain } from '../errors.ts';
import { requireContract } from './addresses.ts';

type UsdcChain = Pick<Chain, 'publicClient' | 'contracts'>;

/** Concurrent balance reads in flight at once. */
export const BALANCE_READ_CHUNK = 500;

/** USDC (base units) held by `account` at the latest block. */
export function usdcBalanceOf(chain: UsdcChain, account: Address): Promise<bigint> {
  return onChain(() =>
    chain.publicClient.readContract({
      address: requireContract(chain.contracts, 'usdc'),
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [account],
    }),
  );
}

/** The USDC balance of each account (lower-case address -> base units), all at the latest block, and that block. */
export function usdcBalancesAt(
  chain: UsdcChain,
  accounts: readonly Address[],
  chunk = BALANCE_READ_CHUNK,
): Promise<{ balances: Map<string, bigint>; block: bigint }> {
  const usdc = requireContract(chain.contracts, 'usdc');
  const client = chain.publicClient;
  return onChain(async () => {
    const block = await client.getBlockNumber({ cacheTime: 0 });
    const balances = new Map<string, bigint>();
    for (let i = 0; i < accounts.length; i += chunk) {
      const slice = accounts.slice(i, i + chunk);
      const values = await Promise.all(
        slice.map((account) =>
          client.readContract({
            address: usdc,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [account],
            blockNumber: block,
          }),
        ),
      );
      for (const [j, account] of slice.entries()) balances.set(account.toLowerCase(), values[j]!);
    }
    return { balances, block };
  });
}

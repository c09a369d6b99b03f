// USDC (the chain's own, or the mock on a development chain): balances, one or many at one pinned block, and the
// Transfer logs the treasury stream follows. Many balances are read by contracts/lens/BalanceReader.sol, whose
// creation code runs inside an eth_call (nothing is deployed, on any chain) and answers 500 balances at once; those
// calls travel in JSON-RPC batches (src/chain/client.ts), so 100,000 accounts cost 200 calls in 50 HTTP round trips,
// not 100,000 calls. An unreachable node is CHAIN_UNAVAILABLE.
import { type Address, decodeAbiParameters, encodeAbiParameters, erc20Abi, type Hex, parseAbiItem } from 'viem';
import { loadArtifact } from '../artifacts.ts';
import type { Chain } from '../client.ts';
import { onChain } from '../errors.ts';
import { requireContract } from './addresses.ts';

type UsdcChain = Pick<Chain, 'publicClient' | 'contracts'>;

/**
 * Accounts read by one eth_call: 16 KB of answer, where what creation code returns may be at most 24,576 bytes
 * (EIP-170; 766 balances), and about 5 M gas, inside the usual eth_call gas caps (50 M on geth).
 */
export const BALANCES_PER_CALL = 500;
/** eth_calls in flight at once (one JSON-RPC batch of about 130 KB). */
const CALLS_IN_FLIGHT = 4;

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
  perCall = BALANCES_PER_CALL,
): Promise<{ balances: Map<string, bigint>; block: bigint }> {
  const usdc = requireContract(chain.contracts, 'usdc');
  const client = chain.publicClient;
  return onChain(async () => {
    const block = await client.getBlockNumber({ cacheTime: 0 });
    const balances = new Map<string, bigint>();
    const code = loadArtifact('BalanceReader').bytecode;
    const readSlice = async (slice: readonly Address[]) => {
      const args = encodeAbiParameters([{ type: 'address' }, { type: 'address[]' }], [usdc, slice]);
      const { data } = await client.call({ data: `${code}${args.slice(2)}` as Hex, blockNumber: block });
      const [values] = decodeAbiParameters([{ type: 'uint256[]' }], data ?? '0x');
      if (values.length !== slice.length) throw new Error(`BalanceReader answered ${values.length} of ${slice.length}`);
      for (const [j, account] of slice.entries()) balances.set(account.toLowerCase(), values[j]!);
    };
    const step = perCall * CALLS_IN_FLIGHT;
    for (let i = 0; i < accounts.length; i += step) {
      const slices = [];
      for (let j = i; j < Math.min(i + step, accounts.length); j += perCall)
        slices.push(accounts.slice(j, j + perCall));
      await Promise.all(slices.map(readSlice));
    }
    return { balances, block };
  });
}

/** The USDC balance of `account` at the latest block, that block's number and its time (seconds). */
export function usdcBalanceNow(
  chain: UsdcChain,
  account: Address,
): Promise<{ balance: bigint; block: bigint; time: bigint }> {
  const usdc = requireContract(chain.contracts, 'usdc');
  const client = chain.publicClient;
  return onChain(async () => {
    const block = await client.getBlock({ blockTag: 'latest' });
    const balance = await client.readContract({
      address: usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [account],
      blockNumber: block.number,
    });
    return { balance, block: block.number, time: block.timestamp };
  });
}

/** USDC's `Transfer` event: what the treasury stream follows. */
export const USDC_TRANSFER_EVENTS = [
  parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
] as const;

/** Accounts named by one eth_getLogs topic filter: within what public RPC providers accept. */
const ACCOUNTS_PER_FILTER = 500;

/** Every USDC `Transfer` of blocks [fromBlock, toBlock]: one eth_getLogs. */
export function usdcTransfers(chain: UsdcChain, fromBlock: bigint, toBlock: bigint) {
  const usdc = requireContract(chain.contracts, 'usdc');
  return onChain(() =>
    chain.publicClient.getLogs({ address: usdc, events: USDC_TRANSFER_EVENTS, fromBlock, toBlock, strict: true }),
  );
}

/**
 * The USDC `Transfer`s of blocks [fromBlock, toBlock] from or to any of `accounts`: eth_getLogs filtered by topic,
 * two per 500 accounts (a transfer between two of them comes twice: callers key logs by block and index).
 */
export function usdcTransfersOf(chain: UsdcChain, accounts: readonly Address[], fromBlock: bigint, toBlock: bigint) {
  const usdc = requireContract(chain.contracts, 'usdc');
  const event = USDC_TRANSFER_EVENTS[0];
  return onChain(async () => {
    const calls = [];
    for (let i = 0; i < accounts.length; i += ACCOUNTS_PER_FILTER) {
      const slice = accounts.slice(i, i + ACCOUNTS_PER_FILTER) as Address[];
      const filter = { address: usdc, event, fromBlock, toBlock, strict: true } as const;
      calls.push(chain.publicClient.getLogs({ ...filter, args: { from: slice } }));
      calls.push(chain.publicClient.getLogs({ ...filter, args: { to: slice } }));
    }
    return (await Promise.all(calls)).flat();
  });
}

// The token launcher (contracts/tokens/TokenLauncher.sol) and its pool hook: the launch transaction, where a
// company's token lands before it is launched, its price, the launch found again after a crash, and the events the
// token index follows. Every read maps an unreachable node to CHAIN_UNAVAILABLE.

import { CompanyTokenAbi, PlatformFeeHookAbi, PoolManagerAbi, TokenLauncherAbi } from '@ai-economy/shared/abis';
import { INITIAL_VIRTUAL_TOKENS, TOTAL_SUPPLY } from '@ai-economy/shared/curve';
import {
  type Address,
  encodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  getAbiItem,
  getContractAddress,
  type Hex,
  isAddressEqual,
  keccak256,
  parseEventLogs,
  type TransactionReceipt,
  toBytes,
  zeroAddress,
} from 'viem';
import { loadArtifact } from '../artifacts.ts';
import type { Chain } from '../client.ts';
import { onChain } from '../errors.ts';
import type { TxRequest } from '../outbox.ts';
import { requireContract } from './addresses.ts';

type LauncherChain = Pick<Chain, 'publicClient' | 'contracts' | 'deployBlocks'>;

/** The fixed supply the launcher mints (TokenLauncher.TOTAL_SUPPLY): 1,000,000 tokens of 18 decimals. */
export const COMPANY_TOKEN_SUPPLY = TOTAL_SUPPLY;

/** The curve's opening virtual token reserve, floor(4/3 x supply): for a threshold G it opens at (floor(G/3), this). */
export const OPENING_VIRTUAL_TOKENS = INITIAL_VIRTUAL_TOKENS;

/** The events of company tokens the index follows: launches and curve trades, graduations, pool trades. */
export const TOKEN_EVENTS = [
  getAbiItem({ abi: TokenLauncherAbi, name: 'TokenLaunched' }),
  getAbiItem({ abi: TokenLauncherAbi, name: 'CurveTrade' }),
  getAbiItem({ abi: TokenLauncherAbi, name: 'Graduated' }),
  getAbiItem({ abi: PlatformFeeHookAbi, name: 'PoolTrade' }),
] as const;

/** TokenLauncher's pool parameters: fee 0, tick spacing 60 (POOL_FEE, TICK_SPACING). */
const POOL_FEE = 0;
const TICK_SPACING = 60;

/**
 * The v4 pool id of a company token's pool (the launcher's `poolKeyOf(token).toId()`): keccak256 of the ABI-encoded
 * pool key {currency0, currency1, fee 0, tick spacing 60, hooks = the fee hook}, currencies in address order.
 */
export function poolIdOf(token: Address, usdc: Address, hook: Address): Hex {
  const [currency0, currency1] = token.toLowerCase() < usdc.toLowerCase() ? [token, usdc] : [usdc, token];
  return keccak256(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }],
      [currency0, currency1, POOL_FEE, TICK_SPACING, hook],
    ),
  );
}

export const launcherAddress = (chain: Pick<Chain, 'contracts'>): Address =>
  requireContract(chain.contracts, 'tokenLauncher');

/** keccak256 of the company id: one token per company, ever (the CREATE2 salt and the launcher's index). */
export const companyKey = (companyId: string): Hex => keccak256(toBytes(companyId));

/** The launcher's token deployer: the contract its constructor creates, so CREATE from the launcher at nonce 1. */
export const tokenDeployerAddress = (launcher: Address): Address => getContractAddress({ from: launcher, nonce: 1n });

/** Where `launch` deploys the token: CREATE2 from the launcher's token deployer, salted with the company key. */
export function predictTokenAddress(launcher: Address, key: Hex, name: string, symbol: string): Address {
  const bytecode = encodeDeployData({
    abi: CompanyTokenAbi,
    bytecode: loadArtifact('CompanyToken').bytecode,
    args: [name, symbol, COMPANY_TOKEN_SUPPLY, launcher],
  });
  return getContractAddress({ opcode: 'CREATE2', from: tokenDeployerAddress(launcher), salt: key, bytecode });
}

/** The platform's launch transaction of a company's token. */
export function launchCall(
  chain: Pick<Chain, 'contracts'>,
  token: { key: Hex; name: string; symbol: string; creator: Address; graduationThreshold: bigint },
): TxRequest {
  return {
    to: launcherAddress(chain),
    data: encodeFunctionData({
      abi: TokenLauncherAbi,
      functionName: 'launch',
      args: [token.key, token.name, token.symbol, token.creator, token.graduationThreshold],
    }),
  };
}

/** A token's price (USDC per whole token) and market cap, one call (from the v4 pool once graduated). */
export async function readMarket(
  chain: Pick<Chain, 'publicClient' | 'contracts'>,
  token: Address,
  blockNumber?: bigint,
) {
  const [price, marketCap] = await onChain(() =>
    chain.publicClient.readContract({
      address: launcherAddress(chain),
      abi: TokenLauncherAbi,
      functionName: 'priceOf',
      args: [token],
      ...(blockNumber === undefined ? {} : { blockNumber }),
    }),
  );
  return { price, marketCap };
}

/**
 * What a buy of `amount` USDC (or a sale of `amount` tokens) of `token` gives at the chain's head, read in one block
 * with what a quote shows beside it: the spot price (USDC base units per whole token), whether the token trades in
 * its pool, and the curve's fee.
 */
export async function readQuote(
  chain: Pick<Chain, 'publicClient' | 'contracts'>,
  token: Address,
  side: 'buy' | 'sell',
  amount: bigint,
) {
  const client = chain.publicClient;
  const address = launcherAddress(chain);
  const blockNumber = await onChain(() => client.getBlockNumber({ cacheTime: 0 }));
  const at = { address, abi: TokenLauncherAbi, blockNumber } as const;
  const [out, [spot], graduated, curveFeeBps] = await onChain(() =>
    Promise.all([
      client.readContract({ ...at, functionName: side === 'buy' ? 'quoteBuy' : 'quoteSell', args: [token, amount] }),
      client.readContract({ ...at, functionName: 'priceOf', args: [token] }),
      client.readContract({ ...at, functionName: 'graduated', args: [token] }),
      client.readContract({ ...at, functionName: 'curveFeeBps' }),
    ]),
  );
  return { blockNumber, out, spot, graduated, curveFeeBps: Number(curveFeeBps) };
}

export interface FoundLaunch {
  token: Address;
  graduationThreshold: bigint;
  txHash: Hex;
  blockNumber: bigint;
  logIndex: number;
}

/** The launch a receipt of the launcher holds, if it succeeded. */
export function launchIn(chain: Pick<Chain, 'contracts'>, receipt: TransactionReceipt): FoundLaunch | undefined {
  if (receipt.status !== 'success') return undefined;
  const launcher = launcherAddress(chain);
  const [log] = parseEventLogs({
    abi: TokenLauncherAbi,
    eventName: 'TokenLaunched',
    logs: receipt.logs.filter((l) => isAddressEqual(l.address, launcher)),
  });
  return (
    log && {
      token: log.args.token,
      graduationThreshold: log.args.graduationThreshold,
      txHash: receipt.transactionHash,
      blockNumber: receipt.blockNumber,
      logIndex: log.logIndex,
    }
  );
}

/** The launch of a company key made by any transaction (a crash lost which), from the launcher's logs. */
export async function findLaunch(chain: LauncherChain, key: Hex): Promise<FoundLaunch | undefined> {
  const launcher = launcherAddress(chain);
  const client = chain.publicClient;
  const token = await onChain(() =>
    client.readContract({ address: launcher, abi: TokenLauncherAbi, functionName: 'tokenOfCompany', args: [key] }),
  );
  if (token === zeroAddress) return undefined;
  const [log] = await onChain(() =>
    client.getContractEvents({
      address: launcher,
      abi: TokenLauncherAbi,
      eventName: 'TokenLaunched',
      args: { companyKey: key },
      fromBlock: chain.deployBlocks?.tokenLauncher ?? 0n,
      strict: true,
    }),
  );
  return (
    log && {
      token: log.args.token,
      graduationThreshold: log.args.graduationThreshold,
      txHash: log.transactionHash,
      blockNumber: log.blockNumber,
      logIndex: log.logIndex,
    }
  );
}

/** What the holder stream follows: the launcher's launches (which tokens exist) and each company token's transfers. */
export const TOKEN_HOLDER_EVENTS = [
  getAbiItem({ abi: TokenLauncherAbi, name: 'TokenLaunched' }),
  getAbiItem({ abi: CompanyTokenAbi, name: 'Transfer' }),
] as const;

/** Token contracts named by one eth_getLogs address filter: within what public RPC providers accept. */
const TOKENS_PER_FILTER = 500;

/** The tokens the launcher launched in blocks [fromBlock, toBlock]: one eth_getLogs. */
export function launchesIn(chain: LauncherChain, fromBlock: bigint, toBlock: bigint) {
  const launcher = launcherAddress(chain);
  return onChain(() =>
    chain.publicClient.getLogs({
      address: launcher,
      event: TOKEN_HOLDER_EVENTS[0],
      fromBlock,
      toBlock,
      strict: true,
    }),
  );
}

/** Every `Transfer` of the given company tokens in blocks [fromBlock, toBlock]: one eth_getLogs per 500 tokens. */
export function companyTokenTransfers(
  chain: LauncherChain,
  tokens: readonly Address[],
  fromBlock: bigint,
  toBlock: bigint,
) {
  return onChain(async () => {
    const calls = [];
    for (let i = 0; i < tokens.length; i += TOKENS_PER_FILTER) {
      const address = tokens.slice(i, i + TOKENS_PER_FILTER) as Address[];
      calls.push(
        chain.publicClient.getLogs({ address, event: TOKEN_HOLDER_EVENTS[1], fromBlock, toBlock, strict: true }),
      );
    }
    return (await Promise.all(calls)).flat();
  });
}

/**
 * The token stream's events: those of TOKEN_EVENTS, and a company token's Transfer (one into a company's Safe from
 * one of its agents' wallets carries the wallet's position to the Safe: the sweep of a move into custody).
 */
export const TOKEN_STREAM_EVENTS = [...TOKEN_EVENTS, TOKEN_HOLDER_EVENTS[1]] as const;

/** The launcher's and the fee hook's logs of TOKEN_EVENTS in blocks [fromBlock, toBlock]: one eth_getLogs. */
export function tokenEventsIn(chain: LauncherChain, fromBlock: bigint, toBlock: bigint) {
  const address = [launcherAddress(chain), requireContract(chain.contracts, 'feeHook')];
  return onChain(() => chain.publicClient.getLogs({ address, events: TOKEN_EVENTS, fromBlock, toBlock, strict: true }));
}

/**
 * The `Transfer`s of the given company tokens to any of `recipients` in blocks [fromBlock, toBlock]: eth_getLogs
 * filtered by the recipient's topic, one per 500 tokens and 500 recipients.
 */
export function companyTokenTransfersTo(
  chain: LauncherChain,
  tokens: readonly Address[],
  recipients: readonly Address[],
  fromBlock: bigint,
  toBlock: bigint,
) {
  return onChain(async () => {
    const calls = [];
    for (let i = 0; i < tokens.length; i += TOKENS_PER_FILTER) {
      const address = tokens.slice(i, i + TOKENS_PER_FILTER) as Address[];
      for (let j = 0; j < recipients.length; j += TOKENS_PER_FILTER) {
        const to = recipients.slice(j, j + TOKENS_PER_FILTER) as Address[];
        calls.push(
          chain.publicClient.getLogs({
            address,
            event: TOKEN_HOLDER_EVENTS[1],
            args: { to },
            fromBlock,
            toBlock,
            strict: true,
          }),
        );
      }
    }
    return (await Promise.all(calls)).flat();
  });
}

const erc20BalanceAbi = [
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'owner', type: 'address' }],
    outputs: [{ name: '', type: 'uint256' }],
  },
] as const;

/** The USDC behind a token's price: what its curve holds, or the USDC side of its pool once graduated. */
export async function readLiquidity(
  chain: Pick<Chain, 'publicClient' | 'contracts'>,
  token: Address,
  graduated: boolean,
): Promise<bigint> {
  const launcher = launcherAddress(chain);
  if (!graduated) {
    const curve = await onChain(() =>
      chain.publicClient.readContract({
        address: launcher,
        abi: TokenLauncherAbi,
        functionName: 'curveOf',
        args: [token],
      }),
    );
    return BigInt(curve.realUsdc);
  }
  // One full-range position holds equal value on both sides: the USDC side is the tokens the pool holds at its price.
  // Only the token's one pool holds the token inside the PoolManager.
  const manager = requireContract(chain.contracts, 'poolManager');
  const [pooled, [price]] = await onChain(() =>
    Promise.all([
      chain.publicClient.readContract({
        address: token,
        abi: erc20BalanceAbi,
        functionName: 'balanceOf',
        args: [manager],
      }),
      chain.publicClient.readContract({
        address: launcher,
        abi: TokenLauncherAbi,
        functionName: 'priceOf',
        args: [token],
      }),
    ]),
  );
  return (pooled * price) / 10n ** 18n;
}

const POOL_SWAP_EVENT = getAbiItem({ abi: PoolManagerAbi, name: 'Swap' });

/**
 * The PoolManager's Swap logs of the given pools between two blocks: each carries the pool's price (sqrtPriceX96)
 * after the swap, which the fee hook's PoolTrade does not repeat.
 */
export function poolSwaps(
  client: Pick<Chain['publicClient'], 'getLogs'>,
  poolManager: Address,
  poolIds: Hex[],
  fromBlock: bigint,
  toBlock: bigint,
) {
  return client.getLogs({
    address: poolManager,
    event: POOL_SWAP_EVENT,
    args: { id: poolIds },
    fromBlock,
    toBlock,
    strict: true,
  });
}

// The chain reads of the trade form, each pinned to one block so that its parts agree: the wallet's balances and
// allowances, and a quote (the launcher's own quote with the curve, fee and price it was made on). The block is the
// latest one asked afresh (`cacheTime: 0`): viem otherwise answers with a block number up to 4 s old, and a quote
// made just after a trade would read the curve before it.

import { TokenLauncherAbi } from '@ai-economy/shared/abis';
import { type Address, erc20Abi, type PublicClient } from 'viem';
import { buyQuote, type Quote, sellQuote, usdcToGraduation } from './quote.ts';

export interface TradeContracts {
  launcher: Address;
  usdc: Address;
  token: Address;
}

export interface Holdings {
  usdc: bigint;
  tokens: bigint;
  usdcAllowance: bigint;
  tokenAllowance: bigint;
}

/** The wallet's USDC and token balances and what the launcher may take of each, at one block. */
export async function readHoldings(client: PublicClient, c: TradeContracts, wallet: Address): Promise<Holdings> {
  const blockNumber = await client.getBlockNumber({ cacheTime: 0 });
  const read = (token: Address, functionName: 'balanceOf' | 'allowance') =>
    client.readContract({
      address: token,
      abi: erc20Abi,
      functionName,
      args: (functionName === 'balanceOf' ? [wallet] : [wallet, c.launcher]) as never,
      blockNumber,
    }) as Promise<bigint>;
  const [usdc, tokens, usdcAllowance, tokenAllowance] = await Promise.all([
    read(c.usdc, 'balanceOf'),
    read(c.token, 'balanceOf'),
    read(c.usdc, 'allowance'),
    read(c.token, 'allowance'),
  ]);
  return { usdc, tokens, usdcAllowance, tokenAllowance };
}

/** The quote of a buy (USDC in) or a sale (tokens in), with the curve, fee and price it was made on. */
export async function readQuote(
  client: PublicClient,
  c: TradeContracts,
  side: 'buy' | 'sell',
  amountIn: bigint,
): Promise<Quote> {
  const blockNumber = await client.getBlockNumber({ cacheTime: 0 });
  const launcher = { address: c.launcher, abi: TokenLauncherAbi, blockNumber } as const;
  const [quoted, curve, feeBps, [price]] = await Promise.all([
    client.readContract({
      ...launcher,
      functionName: side === 'buy' ? 'quoteBuy' : 'quoteSell',
      args: [c.token, amountIn],
    }) as Promise<bigint>,
    client.readContract({ ...launcher, functionName: 'curveOf', args: [c.token] }),
    client.readContract({ ...launcher, functionName: 'curveFeeBps' }),
    client.readContract({ ...launcher, functionName: 'priceOf', args: [c.token] }),
  ]);
  const make = side === 'buy' ? buyQuote : sellQuote;
  return make(curve, BigInt(feeBps), price, amountIn, quoted);
}

/** The chain's clock in seconds: the pending block's time when the node has one later than the latest block's. */
export async function chainSeconds(client: PublicClient): Promise<bigint> {
  const [latest, pending] = await Promise.all([
    client.getBlock({ blockTag: 'latest' }),
    client.getBlock({ blockTag: 'pending' }).catch(() => undefined),
  ]);
  return pending && pending.timestamp > latest.timestamp ? pending.timestamp : latest.timestamp;
}

/** The USDC a buy must pay now for `token` to graduate (0 once it has), from the curve and fee at one block. */
export async function readToGraduation(client: PublicClient, launcher: Address, token: Address): Promise<bigint> {
  const blockNumber = await client.getBlockNumber({ cacheTime: 0 });
  const at = { address: launcher, abi: TokenLauncherAbi, blockNumber } as const;
  const [curve, feeBps] = await Promise.all([
    client.readContract({ ...at, functionName: 'curveOf', args: [token] }),
    client.readContract({ ...at, functionName: 'curveFeeBps' }),
  ]);
  return usdcToGraduation(curve, BigInt(feeBps));
}

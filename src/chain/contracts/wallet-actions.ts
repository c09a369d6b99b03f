// What an agent wallet can do on the platform's own contracts, as transaction requests for the outbox, and what it
// holds, in one block. The only targets are the launcher (curve and pool trades), the staking contract, and the ERC-20
// tokens approved to them (USDC, the primary token, company tokens) or sent to a company's treasury by a withdrawal:
// every address comes from the contracts file or the database, never from the caller's text. Reads map an
// unreachable node to CHAIN_UNAVAILABLE.

import { StakingAbi, TokenLauncherAbi } from '@ai-economy/shared/abis';
import { type Address, encodeFunctionData, erc20Abi } from 'viem';
import type { Chain } from '../client.ts';
import { onChain } from '../errors.ts';
import type { TxRequest } from '../outbox.ts';
import { requireContract } from './addresses.ts';
import { launcherAddress } from './launcher.ts';
import { PRIMARY_POOL_ID } from './staking.ts';

type ReadChain = Pick<Chain, 'publicClient' | 'contracts'>;

/** `spender` may take `amount` of `token` from the signer. */
export const approveCall = (token: Address, spender: Address, amount: bigint): TxRequest => ({
  to: token,
  data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }),
});

/** Sends `amount` of `token` to `to`. */
export const transferCall = (token: Address, to: Address, amount: bigint): TxRequest => ({
  to: token,
  data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
});

/** A buy (`usdcIn` for at least `minOut` tokens) or a sale (`amountIn` tokens for at least `minOut` USDC). */
export function tradeCall(
  chain: Pick<Chain, 'contracts'>,
  side: 'buy' | 'sell',
  token: Address,
  amountIn: bigint,
  minOut: bigint,
  deadline: bigint,
): TxRequest {
  return {
    to: launcherAddress(chain),
    data: encodeFunctionData({ abi: TokenLauncherAbi, functionName: side, args: [token, amountIn, minOut, deadline] }),
  };
}

/** What a trade of `amountIn` gives at block `blockNumber` (the latest when absent): tokens for a buy, USDC for a sale. */
export function quoteTrade(
  chain: ReadChain,
  side: 'buy' | 'sell',
  token: Address,
  amountIn: bigint,
  blockNumber?: bigint,
) {
  return onChain(() =>
    chain.publicClient.readContract({
      address: launcherAddress(chain),
      abi: TokenLauncherAbi,
      functionName: side === 'buy' ? 'quoteBuy' : 'quoteSell',
      args: [token, amountIn],
      ...(blockNumber === undefined ? {} : { blockNumber }),
    }),
  );
}

/**
 * The least gas each staking call is sent with, above its measured worst case (a first deposit or harvest that
 * creates the position's slots, in a block where the pool's accumulator moves for the first time, with a card's
 * boost to settle): the node's estimate, made in another block, can fall short of it.
 */
export const STAKING_GAS_FLOOR = { deposit: 220_000n, withdraw: 180_000n, harvest: 180_000n } as const;

/** Stakes (`deposit`) or unstakes (`withdraw`) `amount` of the primary token in pool 0, or harvests its emission. */
export function stakingCall(chain: Pick<Chain, 'contracts'>, action: 'deposit' | 'withdraw' | 'harvest', amount = 0n) {
  const to = requireContract(chain.contracts, 'staking');
  const data =
    action === 'harvest'
      ? encodeFunctionData({ abi: StakingAbi, functionName: 'harvest', args: [PRIMARY_POOL_ID] })
      : encodeFunctionData({ abi: StakingAbi, functionName: action, args: [PRIMARY_POOL_ID, amount] });
  return { to, data, gasFloor: STAKING_GAS_FLOOR[action] } satisfies TxRequest;
}

export interface WalletHoldings {
  /** The block all figures were read at. */
  block: bigint;
  native: bigint;
  usdc: bigint;
  primary: bigint;
  emission: bigint;
  staked: bigint;
  pendingEmission: bigint;
  /** Balance of each token asked for, by address as given. */
  tokens: Map<Address, bigint>;
  /** Allowance of each (token -> spender) asked for, keyed `token|spender`. */
  allowances: Map<string, bigint>;
}

/**
 * Everything `wallet` holds on the platform at one block: native currency, USDC, the primary and emission tokens,
 * its stake and pending emission in pool 0, the given company tokens, and the given allowances. One JSON-RPC batch.
 */
export function readHoldings(
  chain: ReadChain,
  wallet: Address,
  tokens: readonly Address[] = [],
  allowances: readonly { token: Address; spender: Address }[] = [],
  /** The block to read at; the latest when absent. */
  at?: bigint,
): Promise<WalletHoldings> {
  const client = chain.publicClient;
  const c = chain.contracts;
  const balance = (token: Address | undefined, blockNumber: bigint) =>
    token
      ? client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [wallet], blockNumber })
      : Promise.resolve(0n);
  return onChain(async () => {
    const blockNumber = at ?? (await client.getBlockNumber({ cacheTime: 0 }));
    const staking = c.staking;
    const [native, usdc, primary, emission, user, pending, tokenBalances, allowed] = await Promise.all([
      client.getBalance({ address: wallet, blockNumber }),
      balance(c.usdc, blockNumber),
      balance(c.primaryToken, blockNumber),
      balance(c.emissionToken, blockNumber),
      staking
        ? client.readContract({
            address: staking,
            abi: StakingAbi,
            functionName: 'userInfo',
            args: [PRIMARY_POOL_ID, wallet],
            blockNumber,
          })
        : undefined,
      staking
        ? client.readContract({
            address: staking,
            abi: StakingAbi,
            functionName: 'pendingEmission',
            args: [PRIMARY_POOL_ID, wallet],
            blockNumber,
          })
        : 0n,
      Promise.all(tokens.map((token) => balance(token, blockNumber))),
      Promise.all(
        allowances.map(({ token, spender }) =>
          client.readContract({
            address: token,
            abi: erc20Abi,
            functionName: 'allowance',
            args: [wallet, spender],
            blockNumber,
          }),
        ),
      ),
    ]);
    return {
      block: blockNumber,
      native,
      usdc,
      primary,
      emission,
      staked: user?.[0] ?? 0n,
      pendingEmission: pending,
      tokens: new Map(tokens.map((token, i) => [token, tokenBalances[i]!])),
      allowances: new Map(allowances.map((a, i) => [`${a.token}|${a.spender}`, allowed[i]!])),
    };
  });
}

/** How much of `token` each wallet holds, at the latest block (one JSON-RPC batch). */
export function tokenBalances(chain: ReadChain, token: Address, wallets: readonly Address[]): Promise<bigint[]> {
  return onChain(() =>
    Promise.all(
      wallets.map((wallet) =>
        chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] }),
      ),
    ),
  );
}

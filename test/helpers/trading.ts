// Trading company tokens on a test chain as users do: dev accounts buy and sell through the token launcher (the
// curve, or the Uniswap v4 pool once graduated), and the token indexer turns the logs into token_trades rows.

import { AccessCardAbi, TokenLauncherAbi } from '@ai-economy/shared/abis';
import { eq } from 'drizzle-orm';
import {
  type Address,
  createTestClient,
  erc20Abi,
  type Hash,
  http,
  type LocalAccount,
  maxUint256,
  type TransactionReceipt,
} from 'viem';
import { expect } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { followStream } from '../../src/chain/streams.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { utcDateOf } from '../../src/domain/scores/dates.ts';
import { companyTokenHolders } from '../../src/domain/tokens/company-token-holders.stream.ts';
import { companyTokens } from '../../src/domain/tokens/company-tokens.stream.ts';
import { launchToken } from '../../src/domain/tokens/launch.ts';
import type { TestEnv } from './app.ts';
import { mintCard } from './companies.ts';

/** A deadline far in the future for the launcher's trades. */
const DEADLINE = 2n ** 40n;
const DAY_S = 86_400n;

export interface TokenTrading {
  /** Waits for a transaction and expects it to succeed; returns its receipt. */
  send(hash: Promise<Hash>): Promise<TransactionReceipt>;
  /** Dev account `account` (or any local account holding ETH for gas) pays `usdcIn` (base units) for `token`. */
  buy(account: Trader, token: Address, usdcIn: bigint): Promise<TransactionReceipt>;
  /** Dev account `account` (or any local account) sells `tokensIn` (base units) of `token`. */
  sell(account: Trader, token: Address, tokensIn: bigint): Promise<TransactionReceipt>;
  /** The token balance of dev account `account` (or any local account). */
  balanceOf(account: Trader, token: Address): Promise<bigint>;
  /** The USDC balance of any address. */
  usdcOf(address: Address): Promise<bigint>;
  /** Dev account `from` sends `amount` USDC (base units) to `to`, as anyone funding an agent wallet does. */
  fund(from: number, to: Address, amount: bigint): Promise<TransactionReceipt>;
  /** Runs the token indexer until it has caught up with the chain. */
  index(): Promise<void>;
  /** Launches the token of a company created by dev account `creator`; returns its address. */
  launch(companyId: string, symbol: string, creator?: number): Promise<Address>;
  /**
   * Moves the chain's clock to 01:00 UTC of the next day, so the trades that follow share one UTC day; returns
   * the date of the snapshot that covers that day (the day after it).
   */
  startTradingDay(): Promise<string>;
}

/** A dev account's index, or any local account (an agent wallet's key, a fresh key). */
export type Trader = number | LocalAccount;

export function tokenTrading(t: TestEnv): TokenTrading {
  const launcher = () => t.chain.chain.contracts.tokenLauncher!;
  const client = () => t.chain.chain.publicClient;
  const approved = new Set<string>();

  const send: TokenTrading['send'] = async (hash) => {
    const receipt = await client().waitForTransactionReceipt({ hash: await hash });
    expect(receipt.status).toBe('success');
    return receipt;
  };

  const walletOf = (account: Trader) =>
    typeof account === 'number' ? t.chain.wallet(account) : t.chain.chain.walletOf(account);
  const addressOf = (account: Trader) => (typeof account === 'number' ? devAccount(account).address : account.address);

  /** Account `account` approves the launcher for USDC and `token`, once. */
  async function approve(account: Trader, token: Address) {
    const key = `${addressOf(account)}:${token}`;
    if (approved.has(key)) return;
    const wallet = walletOf(account);
    for (const address of [t.chain.chain.contracts.usdc!, token]) {
      await send(
        wallet.writeContract({ address, abi: erc20Abi, functionName: 'approve', args: [launcher(), maxUint256] }),
      );
    }
    approved.add(key);
  }

  const trade = async (account: Trader, token: Address, side: 'buy' | 'sell', amountIn: bigint) => {
    await approve(account, token);
    return send(
      walletOf(account).writeContract({
        address: launcher(),
        abi: TokenLauncherAbi,
        functionName: side,
        args: [token, amountIn, 0n, DEADLINE],
        gas: 3_000_000n,
      }),
    );
  };

  return {
    send,
    buy: (account, token, usdcIn) => trade(account, token, 'buy', usdcIn),
    sell: (account, token, tokensIn) => trade(account, token, 'sell', tokensIn),
    usdcOf: (address) =>
      client().readContract({
        address: t.chain.chain.contracts.usdc!,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address],
      }),
    fund: (from, to, amount) =>
      send(
        t.chain.wallet(from).writeContract({
          address: t.chain.chain.contracts.usdc!,
          abi: erc20Abi,
          functionName: 'transfer',
          args: [to, amount],
        }),
      ),
    balanceOf: (account, token) =>
      client().readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [addressOf(account)],
      }),
    async index() {
      // The token stream, then the holder stream (its own cursor: docs/indexer.md).
      for (const follower of [
        followStream(t.container, companyTokens, { confirmations: 0 })!,
        followStream(t.container, companyTokenHolders, { confirmations: 0 })!,
      ]) {
        let caughtUp = false;
        for (let i = 0; i < 20 && !caughtUp; i++) caughtUp = (await follower.pollOnce()).caughtUp;
        if (!caughtUp) throw new Error(`the ${follower.name} indexer did not catch up`);
      }
    },
    async startTradingDay() {
      const testClient = createTestClient({ mode: 'anvil', transport: http(t.chain.node.rpcUrl) });
      const latest = await client().getBlock({ blockTag: 'latest' });
      const day = (latest.timestamp / DAY_S + 1n) * DAY_S;
      await testClient.setNextBlockTimestamp({ timestamp: day + 3_600n });
      await testClient.mine({ blocks: 1 });
      return utcDateOf(Number(day + DAY_S) * 1000);
    },
    async launch(companyId, symbol, creator = 1) {
      // launchToken asks the chain who holds the company's card: give a fixture company a real card of its creator.
      const [row] = await t.database.db.select().from(companies).where(eq(companies.id, companyId));
      const holds = await t.chain.chain.publicClient
        .readContract({
          address: t.chain.chain.contracts.accessCard!,
          abi: AccessCardAbi,
          functionName: 'ownerOf',
          args: [BigInt(row!.cardTokenId)],
        })
        .then((owner) => owner === devAccount(creator).address)
        .catch(() => false);
      if (!holds) {
        const card = await mintCard(t.chain, creator);
        await t.database.db
          .update(companies)
          .set({ cardTokenId: Number(card) })
          .where(eq(companies.id, companyId));
      }
      const token = await launchToken(t.container, companyId, devAccount(creator).address, {
        name: `${symbol} token`,
        symbol,
      });
      expect(token.status).toBe('BONDING');
      return token.tokenAddress as Address;
    },
  };
}

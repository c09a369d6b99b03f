// Shared set-up for the access card contract tests: one anvil node per test file (USDC + AccessCard deployed by
// the platform's own deployment code), every test isolated by an anvil snapshot taken before it and reverted
// after it, and small helpers for sending transactions, reading state and asserting reverts on mined transactions.
// The other contract tests use it too: contractHelpers for any one contract, token-fixture.ts for the token launcher.

import { AccessCardAbi, MockUSDCAbi, ReentrantCardBuyerAbi } from '@ai-economy/shared/abis';
import {
  type Abi,
  type Address,
  createTestClient,
  type Hex,
  http,
  isAddressEqual,
  numberToHex,
  parseEventLogs,
  publicActions,
  type TransactionReceipt,
} from 'viem';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { storageSlot } from '../../src/chain/artifacts.ts';
import type { Wallet } from '../../src/chain/client.ts';
import { startTestChain, type TestChain } from '../helpers/chain.ts';
import { expectRevert } from '../helpers/revert.ts';

export const usdc = (whole: number | bigint) => BigInt(whole) * 1_000_000n;
/** 100 USDC (6 decimals), the price docs/api/README.md "Limits" fixes and the deployment sets. */
export const PRICE = usdc(100);
/** The card's MINT_PRICE_DELAY: a price set by setMintPrice or activateTranche takes effect this long after. */
export const MINT_PRICE_DELAY = 86_400n;
export const ZERO = '0x0000000000000000000000000000000000000000' as Address;

/** Every custom error the card, the mock USDC and the test buyer can raise, to decode errors that bubble up. */
export const ALL_ERRORS = [...AccessCardAbi, ...MockUSDCAbi, ...ReentrantCardBuyerAbi].filter(
  (item) => item.type === 'error',
) as Abi;

function makeClient(rpcUrl: string, chain: TestChain['chain']['viemChain']) {
  return createTestClient({ mode: 'anvil', chain, transport: http(rpcUrl), pollingInterval: 20 }).extend(publicActions);
}
export type Client = ReturnType<typeof makeClient>;

/** A write to revert on purpose; address and ABI default to the access card's. */
export interface WriteCall {
  address?: Address;
  abi?: Abi;
  functionName: string;
  args?: readonly unknown[];
}

export interface CardFixture {
  chain: TestChain;
  client: Client;
  card: Address;
  usdcToken: Address;
  /** Wallet of dev account i, without a nonce cache (nonces must follow the chain back after a snapshot revert). */
  wallet(i: number): Wallet;
  addr(i: number): Address;
  /** Waits for the transaction and expects it to have succeeded. */
  send(hash: Promise<Hex>): Promise<TransactionReceipt>;
  approve(i: number, amount: bigint): Promise<TransactionReceipt>;
  /** Approves the price and mints one card for account i. */
  mint(i: number): Promise<TransactionReceipt>;
  /** Approves price * quantity and mints a batch for account i. */
  mintBatch(i: number, quantity: number): Promise<TransactionReceipt>;
  usdcOf(account: Address): Promise<bigint>;
  views(): Promise<Views>;
  /** Cards and money in one object, to compare before and after a reverted transaction. */
  ledger(...accounts: Address[]): Promise<Ledger>;
  /** Writes the card's totalMinted counter directly (anvil_setStorageAt). */
  setTotalMinted(n: bigint): Promise<void>;
  /** Minting on or off, as the owner. */
  setMintActive(active: boolean): Promise<TransactionReceipt>;
  /** Runs an owner's price change with minting paused (the card requires it), then opens minting again. */
  whilePaused<T>(admin: () => Promise<T>): Promise<T>;
  /**
   * Sells the current tranche out on paper and activates the next one at `price`, as the owner (minting paused),
   * then moves the chain's clock past MINT_PRICE_DELAY so that its cards can be minted. Returns the activation.
   */
  openTranche(tranche: 2 | 3, price?: bigint): Promise<TransactionReceipt>;
  /** Moves the chain's clock `seconds` forward (default MINT_PRICE_DELAY) and mines a block at the new time. */
  advance(seconds?: bigint): Promise<void>;
  /** The latest block's timestamp (the chain's time). */
  now(): Promise<bigint>;
  /** The timestamp of the block that mined `receipt`. */
  blockTime(receipt: TransactionReceipt): Promise<bigint>;
  cardEvents(receipt: TransactionReceipt): ReturnType<typeof parseCardEvents>;
  usdcEvents(receipt: TransactionReceipt): ReturnType<typeof parseUsdcEvents>;
  /**
   * Sends `call` from account i with a fixed gas limit (so it is mined instead of failing gas estimation), expects
   * the receipt to say reverted, and replays the same call on the state before its block to check the error.
   */
  minedRevert(i: number, call: WriteCall, errorName: string, args?: readonly unknown[]): Promise<TransactionReceipt>;
}

export interface Ledger {
  totalSupply: bigint;
  totalMinted: bigint;
  cardUsdc: bigint;
  /** USDC balance and card count of each account asked for, in order. */
  accounts: { usdc: bigint; cards: bigint }[];
}

export interface Views {
  totalSupply: bigint;
  totalMinted: bigint;
  trancheRemaining: bigint;
  currentTranche: number;
  mintPrice: bigint;
  mintActive: boolean;
}

function parseCardEvents(card: Address, receipt: TransactionReceipt) {
  const logs = receipt.logs.filter((l) => isAddressEqual(l.address, card));
  return parseEventLogs({ abi: AccessCardAbi, logs });
}

function parseUsdcEvents(token: Address, receipt: TransactionReceipt) {
  const logs = receipt.logs.filter((l) => isAddressEqual(l.address, token));
  return parseEventLogs({ abi: MockUSDCAbi, logs });
}

/**
 * Registers the hooks of a contract test file: the worker's chain for the file (test/helpers/chain.ts), a snapshot
 * around every test.
 * The returned object is filled in by the time the tests run.
 */
export function useCardChain(): CardFixture {
  const f = {} as CardFixture;
  let snapshot: Hex | undefined;

  beforeAll(async () => {
    const chain = await startTestChain();
    const client = makeClient(chain.node.rpcUrl, chain.chain.viemChain);
    const card = chain.chain.contracts.accessCard!;
    const usdcToken = chain.chain.contracts.usdc!;
    const totalMintedSlot = numberToHex(storageSlot('AccessCard', 'totalMinted'), { size: 32 });

    const send = async (hash: Promise<Hex>) => {
      const receipt = await client.waitForTransactionReceipt({ hash: await hash });
      expect(receipt.status).toBe('success');
      return receipt;
    };
    const approve = (i: number, amount: bigint) =>
      send(
        chain.wallet(i).writeContract({
          address: usdcToken,
          abi: MockUSDCAbi,
          functionName: 'approve',
          args: [card, amount],
        }),
      );
    const views = async (): Promise<Views> => {
      const read = { address: card, abi: AccessCardAbi } as const;
      const [totalSupply, totalMinted, trancheRemaining, currentTranche, mintPrice, mintActive] = await Promise.all([
        client.readContract({ ...read, functionName: 'totalSupply' }),
        client.readContract({ ...read, functionName: 'totalMinted' }),
        client.readContract({ ...read, functionName: 'trancheRemaining' }),
        client.readContract({ ...read, functionName: 'currentTranche' }),
        client.readContract({ ...read, functionName: 'mintPrice' }),
        client.readContract({ ...read, functionName: 'mintActive' }),
      ]);
      return { totalSupply, totalMinted, trancheRemaining, currentTranche, mintPrice, mintActive };
    };
    const usdcOf = (account: Address) =>
      client.readContract({ address: usdcToken, abi: MockUSDCAbi, functionName: 'balanceOf', args: [account] });
    const cardsOf = (account: Address) =>
      client.readContract({ address: card, abi: AccessCardAbi, functionName: 'balanceOf', args: [account] });
    /** Minting on or off, as the owner. */
    const setMintActive = (active: boolean) =>
      send(
        chain
          .wallet(0)
          .writeContract({ address: card, abi: AccessCardAbi, functionName: 'setMintActive', args: [active] }),
      );
    /** Runs an owner's price change with minting paused, as the card requires, then opens minting again. */
    async function whilePaused<T>(admin: () => Promise<T>): Promise<T> {
      await setMintActive(false);
      try {
        return await admin();
      } finally {
        await setMintActive(true);
      }
    }
    const ledger = async (...accounts: Address[]): Promise<Ledger> => {
      const [v, cardUsdc, rows] = await Promise.all([
        views(),
        usdcOf(card),
        Promise.all(accounts.map(async (a) => ({ usdc: await usdcOf(a), cards: await cardsOf(a) }))),
      ]);
      return { totalSupply: v.totalSupply, totalMinted: v.totalMinted, cardUsdc, accounts: rows };
    };
    const advance = async (seconds = MINT_PRICE_DELAY) => {
      await client.increaseTime({ seconds: Number(seconds) });
      await client.mine({ blocks: 1 });
    };
    const setTotalMinted = (n: bigint) =>
      client.setStorageAt({ address: card, index: totalMintedSlot, value: numberToHex(n, { size: 32 }) });

    Object.assign(f, {
      chain,
      client,
      card,
      usdcToken,
      wallet: (i: number) => chain.wallet(i),
      addr: (i: number) => chain.wallet(i).account.address,
      send,
      approve,
      async mint(i: number) {
        await approve(i, PRICE);
        return send(chain.wallet(i).writeContract({ address: card, abi: AccessCardAbi, functionName: 'mint' }));
      },
      async mintBatch(i: number, quantity: number) {
        await approve(i, PRICE * BigInt(quantity));
        return send(
          chain
            .wallet(i)
            .writeContract({ address: card, abi: AccessCardAbi, functionName: 'mintBatch', args: [BigInt(quantity)] }),
        );
      },
      usdcOf,
      views,
      ledger,
      setTotalMinted,
      setMintActive,
      whilePaused,
      async openTranche(tranche: 2 | 3, price = PRICE) {
        await setTotalMinted(tranche === 2 ? 1_000n : 4_000n);
        const receipt = await whilePaused(() =>
          send(
            chain.wallet(0).writeContract({
              address: card,
              abi: AccessCardAbi,
              functionName: 'activateTranche',
              args: [tranche, price],
            }),
          ),
        );
        await advance();
        return receipt;
      },
      advance,
      now: async () => (await client.getBlock()).timestamp,
      blockTime: async (receipt: TransactionReceipt) =>
        (await client.getBlock({ blockNumber: receipt.blockNumber })).timestamp,
      cardEvents: (receipt: TransactionReceipt) => parseCardEvents(card, receipt),
      usdcEvents: (receipt: TransactionReceipt) => parseUsdcEvents(usdcToken, receipt),
      async minedRevert(i: number, call: WriteCall, errorName: string, args?: readonly unknown[]) {
        const wallet = chain.wallet(i);
        // Loosely typed on purpose: one helper for any contract and function.
        const request = {
          address: call.address ?? card,
          abi: call.abi ?? AccessCardAbi,
          functionName: call.functionName,
          args: call.args ?? [],
        } as any;
        const hash = await wallet.writeContract({ ...request, gas: 3_000_000n });
        const receipt = await client.waitForTransactionReceipt({ hash });
        expect(receipt.status).toBe('reverted');
        // A receipt carries no revert data: replay the call on the state the transaction ran against (automine puts
        // each transaction in a block of its own) to read the error.
        await expectRevert(
          client.simulateContract({ ...request, account: wallet.account, blockNumber: receipt.blockNumber - 1n }),
          errorName,
          args,
          ALL_ERRORS,
        );
        return receipt;
      },
    } satisfies CardFixture);
  });

  afterAll(async () => {
    await f.chain?.stop();
  });

  beforeEach(async () => {
    snapshot = await f.client.snapshot();
  });

  afterEach(async () => {
    if (snapshot) await f.client.revert({ id: snapshot });
    snapshot = undefined;
  });

  return f;
}

/**
 * Helpers for one contract of the fixture's chain (`address` is read when called, once the chain is up), loosely typed
 * on purpose (overloaded functions, any function name): the assertions check the results.
 */
export function contractHelpers(f: CardFixture, address: () => Address, abi: Abi) {
  return {
    /** Sends `functionName` from account i and expects it to succeed. */
    write: (i: number, functionName: string, args: readonly unknown[] = []) =>
      f.send(f.wallet(i).writeContract({ address: address(), abi, functionName, args } as any)),
    /** Simulates `functionName` from account i: the result it would return, or the revert it would raise. */
    simulate: (i: number, functionName: string, args: readonly unknown[] = []) =>
      f.client.simulateContract({ account: f.wallet(i).account, address: address(), abi, functionName, args } as any),
    read: <T>(functionName: string, args: readonly unknown[] = []): Promise<T> =>
      f.client.readContract({ address: address(), abi, functionName, args }) as Promise<T>,
    /** The contract's own events in `receipt`, as [eventName, args] pairs. */
    events: (receipt: TransactionReceipt) => {
      const logs = receipt.logs.filter((l) => isAddressEqual(l.address, address()));
      return parseEventLogs({ abi, logs }).map((e) => [e.eventName, e.args]);
    },
  };
}

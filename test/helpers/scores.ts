// Fixtures of the score tests: companies, agents, decision rounds, trades and proven treasuries with their balance
// histories written as the platform writes them, and a snapshot read back by company.

import { MockUSDCAbi } from '@ai-economy/shared/abis';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { type Address, getAddress } from 'viem';
import { expect } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { type AnyChainStream, followStream } from '../../src/chain/streams.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { decisionRounds } from '../../src/db/schema/decisions.ts';
import { scoreSnapshots } from '../../src/db/schema/scores.ts';
import { tokenTrades } from '../../src/db/schema/tokens.ts';
import { companyTreasuries, treasuryAccounts } from '../../src/db/schema/treasuries.ts';
import { applyPositions } from '../../src/domain/tokens/apply.ts';
import { companyTokens } from '../../src/domain/tokens/company-tokens.stream.ts';
import { recordBalanceChanges, recordOpeningBalance } from '../../src/domain/treasuries/observations.ts';
import { treasuryTransfers } from '../../src/domain/treasuries/treasury-transfers.stream.ts';
import type { TestEnv } from './app.ts';
import { anvilTestClient } from './chain.ts';

/** One USDC in base units. */
export const USDC = 1_000_000n;

export interface TradeRow {
  /** The company whose token was traded. */
  token: string;
  trader: string;
  side: 'buy' | 'sell';
  /** USDC paid or received, base units. */
  usdc: bigint;
  /** Tokens received or sold, base units (1 unless the test is about positions). */
  tokens?: bigint;
  at: string;
}

export function scoreFixtures(t: TestEnv, { firstCard = 5000 } = {}) {
  const db = () => t.database.db;
  let card = firstCard;
  let agentSeq = 0;
  let logIndex = 0;
  let treasuryBlock = 0n;
  const cycles = new Map<string, number>();

  /**
   * token_trades rows as the indexer writes them (one log per transaction here, in the order of their times), in one
   * statement, and the traders' positions and realised PnL moved through them as the indexer does.
   */
  async function trades(rows: readonly TradeRow[]) {
    if (rows.length === 0) return;
    const ordered = [...rows].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    const values = ordered.map(({ token, trader, side, usdc, tokens = 1n, at }) => {
      logIndex++;
      return {
        txHash: `0x${logIndex.toString(16).padStart(64, '0')}` as const,
        logIndex,
        companyId: token,
        // One address per company token, so positions follow each trader's trades of it.
        tokenAddress: getAddress(`0x${Buffer.from(token.padEnd(20, '_')).toString('hex').slice(0, 40)}`),
        blockNumber: BigInt(logIndex),
        blockTime: new Date(at),
        trader,
        side,
        usdcAmount: usdc,
        tokenAmount: tokens,
        venue: 'CURVE' as const,
      };
    });
    await db().transaction(async (tx) => {
      await tx.insert(tokenTrades).values(values);
      await applyPositions(
        tx,
        values.map((v) => ({
          ...v,
          token: v.tokenAddress,
          trader: v.trader as Address,
          isBuy: v.side === 'buy',
          fee: 0n,
        })),
      );
    });
  }

  return {
    /** A company created by dev account 1, its card locked (the start-up card-lock repair leaves it alone). */
    async company(id: string, values: Partial<typeof companies.$inferInsert> = {}) {
      await db()
        .insert(companies)
        .values({
          id,
          name: `Company ${id}`,
          slug: id,
          category: 'AI_TOKENS',
          creatorAddress: devAccount(1).address,
          cardTokenId: card++,
          cardLockedAt: new Date('2026-01-01T00:00:00Z'),
          ...values,
        });
    },

    async agent(companyId: string, role: string | null, status = 'ACTIVE', onChainAddress?: Address) {
      agentSeq++;
      await db()
        .insert(agents)
        .values({
          id: `agent${agentSeq}`,
          companyId,
          name: `Agent ${agentSeq}`,
          role,
          status,
          creatorAddress: devAccount(1).address,
          onChainAddress: onChainAddress ?? null,
          persona: { role: role ?? 'Analyst', description: 'test agent' },
          skills: ['testing'],
          strategy: { type: 'test', preset: 'BALANCED' },
        });
    },

    trades,

    /** A decision round of the company, numbered after its last, as the engine records it. */
    async round(
      companyId: string,
      status: 'COMPLETE' | 'FAILED',
      at: string,
      trigger: 'SCHEDULED' | 'MANUAL' = 'SCHEDULED',
    ) {
      const cycle = (cycles.get(companyId) ?? 0) + 1;
      cycles.set(companyId, cycle);
      await db()
        .insert(decisionRounds)
        .values({ id: `${companyId}r${cycle}`, companyId, cycle, status, trigger, createdAt: new Date(at) });
    },

    /**
     * A treasury the company proved at `from` (ISO), as PUT /api/companies/{id}/treasury records it, holding
     * `balance` then and changed by `changes` later (each `delta` in base units at `at`), as the treasury stream
     * records the USDC transfers it sees. An address followed already keeps its history and gets the changes.
     */
    async treasury(
      companyId: string,
      address: Address,
      from: string,
      balance = 0n,
      changes: readonly { at: string; delta: bigint }[] = [],
    ) {
      const fromTime = new Date(from);
      await db().transaction(async (tx) => {
        await tx
          .update(companyTreasuries)
          .set({ untilTime: fromTime })
          .where(and(eq(companyTreasuries.companyId, companyId), isNull(companyTreasuries.untilTime)));
        await tx.insert(companyTreasuries).values({ id: `${companyId}-${from}`, companyId, address, fromTime });
        await tx
          .update(companies)
          .set({ treasuryAddress: address, treasuryProvenAt: fromTime })
          .where(eq(companies.id, companyId));
        const added = await tx
          .insert(treasuryAccounts)
          .values({ address })
          .onConflictDoNothing()
          .returning({ address: treasuryAccounts.address });
        if (added.length > 0) await recordOpeningBalance(tx, address, ++treasuryBlock, fromTime, balance);
        await recordBalanceChanges(
          tx,
          changes.map((c) => ({
            address,
            blockNumber: ++treasuryBlock,
            logIndex: 0,
            time: new Date(c.at),
            delta: c.delta,
          })),
        );
      });
    },

    /** USDC moving in or out of a followed address at `at`, as the treasury stream records a transfer. */
    async transfer(address: Address, at: string, delta: bigint) {
      await db().transaction((tx) =>
        recordBalanceChanges(tx, [{ address, blockNumber: ++treasuryBlock, logIndex: 0, time: new Date(at), delta }]),
      );
    },

    /** Mints USDC on the test chain (dev account 0 owns the mock). */
    async mintUsdc(to: Address, amount: bigint) {
      const hash = await t.chain.wallet(0).writeContract({
        address: t.chain.chain.contracts.usdc!,
        abi: MockUSDCAbi,
        functionName: 'mint',
        args: [to, amount],
      });
      expect((await t.chain.chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');
    },

    /** The rows of a snapshot date by company id, in rank order. */
    async snapshotOf(date: string) {
      const rows = await db()
        .select()
        .from(scoreSnapshots)
        .where(eq(scoreSnapshots.snapshotDate, date))
        .orderBy(asc(scoreSnapshots.rank));
      return new Map(rows.map((r) => [r.companyId, r]));
    },
  };
}

/**
 * Mines the chain's finality depth (CHAIN_FINALITY_DEPTH of the app's configuration) of empty blocks, one second
 * apart, and lets both scored streams apply them: every block before is then finalized, as the snapshot waits for
 * (docs/indexer.md "Finality and money").
 */
export async function finalizeScored(t: TestEnv): Promise<void> {
  const depth = t.container.config.chainFinalityDepth ?? 12;
  await anvilTestClient(t.chain.node.rpcUrl).mine({ blocks: depth });
  for (const stream of [companyTokens, treasuryTransfers] as AnyChainStream[]) {
    const follower = followStream(t.container, stream, { confirmations: 0 })!;
    let caughtUp = false;
    for (let i = 0; i < 20 && !caughtUp; i++) caughtUp = (await follower.pollOnce()).caughtUp;
    if (!caughtUp) throw new Error(`the ${stream.name} stream did not catch up`);
  }
}

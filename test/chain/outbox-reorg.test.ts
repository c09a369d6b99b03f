// The outbox after a reorg: a transaction the platform (or an agent wallet) sent and saw mined, whose block a reorg
// orphaned, is found by recheckMined and sent again exactly once: its own signed bytes while its nonce is free, the
// same call signed anew when another transaction took the nonce, or recorded FAILED with the reason when that call
// would now revert. Checked on the chain: each anchoring, stake and trade is there once, none twice, none lost, and
// its gas is charged once.

import { DecisionAnchorAbi, MockUSDCAbi, StakingAbi, TokenLauncherAbi } from '@ai-economy/shared/abis';
import { eq, sql } from 'drizzle-orm';
import { encodeFunctionData, getAbiItem, type Hex, keccak256, toHex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { type AnchorEntry, anchorDecisionRoot, decisionTree } from '../../src/chain/contracts/anchor.ts';
import { approveCall, stakingCall, tradeCall } from '../../src/chain/contracts/wallet-actions.ts';
import { createOutbox, type Outbox } from '../../src/chain/outbox.ts';
import { rowsOf } from '../../src/db/client.ts';
import { chainTxs } from '../../src/db/schema/chain.ts';
import { jobs, runJobOnce } from '../../src/jobs/scheduler.ts';
import { useTestApp } from '../helpers/app.ts';
import { anvilTestClient } from '../helpers/chain.ts';
import { disagreementsWithChain } from '../helpers/exactly-once.ts';
import { scoreFixtures, USDC } from '../helpers/scores.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const f = scoreFixtures(t);
const trading = tokenTrading(t);
const client = () => t.chain.chain.publicClient;
const anvil = () => anvilTestClient(t.chain.node.rpcUrl, t.chain.chain.viemChain);
const STAKE = 1_000n * 10n ** 18n;
const DEADLINE = 2n ** 40n;

let token: `0x${string}`;
/** Outboxes of the platform, of a staking wallet (dev account 1) and of a trading wallet (dev account 2). */
let platform: Outbox;
let staker: Outbox;
let trader: Outbox;
let seq = 0;

const walletOutbox = (account: number) =>
  createOutbox({ db: t.database.db, chain: t.chain.chain, wallet: t.chain.wallet(account), receiptTimeoutMs: 10_000 });

const entries = (): AnchorEntry[] =>
  [1, 2].map(() => ({ companyKey: keccak256(toHex('reorg-company')), decisionHash: keccak256(toHex(`d${++seq}`)) }));

const row = async (key: string) => (await t.database.db.select().from(chainTxs).where(eq(chainTxs.key, key)))[0]!;

const nonces = () =>
  Promise.all([0, 1, 2].map((i) => client().getTransactionCount({ address: devAccount(i).address })));

/** Every BatchAnchored log of `root` on the chain. */
const rootLogs = (root: Hex) =>
  client().getContractEvents({
    address: t.chain.chain.contracts.decisionAnchor!,
    abi: DecisionAnchorAbi,
    eventName: 'BatchAnchored',
    args: { root },
    fromBlock: 0n,
  });

/** The CurveTrade logs of dev account 2 from `fromBlock`. */
const tradesOf2 = async (fromBlock: bigint) =>
  (
    await client().getLogs({
      address: t.chain.chain.contracts.tokenLauncher!,
      event: getAbiItem({ abi: TokenLauncherAbi, name: 'CurveTrade' }),
      fromBlock,
    })
  ).filter((l) => l.args.trader === devAccount(2).address);

const staked = async () =>
  (
    await client().readContract({
      address: t.chain.chain.contracts.staking!,
      abi: StakingAbi,
      functionName: 'userInfo',
      args: [0n, devAccount(1).address],
    })
  )[0];

const gasDays = async (company: string) =>
  rowsOf<{ transactions: number }>(
    await t.database.db.execute(sql`select transactions from company_gas_days where company_id = ${company}`),
  ).reduce((n, r) => n + r.transactions, 0);

/** Every outbox's orphaned rows, rechecked against a finalized block below the test's activity. */
const recheck = async (finalized: bigint) => [
  ...(await platform.recheckMined(finalized)),
  ...(await staker.recheckMined(finalized)),
  ...(await trader.recheckMined(finalized)),
];

beforeAll(async () => {
  await f.company('oa');
  token = await trading.launch('oa', 'ORG');
  platform = t.container.outbox;
  staker = walletOutbox(1);
  trader = walletOutbox(2);
  const { staking, primaryToken, usdc, tokenLauncher } = t.chain.chain.contracts;
  await staker.send('reorg:approve-stake', () => approveCall(primaryToken!, staking!, 10n * STAKE));
  await trader.send('reorg:approve-trade', () => approveCall(usdc!, tokenLauncher!, 1_000n * USDC));
});

describe('the outbox after a reorg', () => {
  it('evm_revert drops an anchoring, a stake and a trade: each is sent again once (its bytes, or signed anew when its nonce went)', async () => {
    const start = await client().getBlockNumber({ cacheTime: 0 });
    const stakedBefore = await staked();
    const charged = await gasDays('oa');
    const batch = entries();
    const { root } = decisionTree(batch);
    const snapshot = await anvil().snapshot();
    const anchored = await anchorDecisionRoot({ outbox: platform, chain: t.chain.chain }, 'reorg:anchor', batch);
    const stake = await staker.send('reorg:stake', () => stakingCall(t.chain.chain, 'deposit', STAKE), {
      chargedTo: ['oa'],
    });
    const trade = await trader.send('reorg:trade', () =>
      tradeCall(t.chain.chain, 'buy', token, 5n * USDC, 0n, DEADLINE),
    );
    expect(await gasDays('oa')).toBe(charged + 1);
    expect(await recheck(start)).toEqual([]);

    await anvil().revert({ id: snapshot });
    await anvil().mine({ blocks: 3 });
    for (const hash of [anchored.txHash, stake.transactionHash, trade.transactionHash]) {
      await expect(client().getTransactionReceipt({ hash })).rejects.toThrow();
    }
    // The platform's next transaction takes the orphaned anchoring's nonce: those bytes can never be mined now.
    await platform.send('reorg:unrelated', () => ({
      to: t.chain.chain.contracts.usdc!,
      data: encodeFunctionData({ abi: MockUSDCAbi, functionName: 'mint', args: [devAccount(8).address, 1n] }),
    }));

    const found = await recheck(start);
    expect(found.map((r) => [r.key, r.status]).sort()).toEqual([
      ['reorg:anchor', 'MINED'],
      ['reorg:stake', 'MINED'],
      ['reorg:trade', 'MINED'],
    ]);
    const again = Object.fromEntries(found.map((r) => [r.key, r]));
    expect(again['reorg:anchor']!.hash).not.toBe(anchored.txHash);
    expect(again['reorg:stake']!.hash).toBe(stake.transactionHash);
    expect(again['reorg:trade']!.hash).toBe(trade.transactionHash);
    for (const key of ['reorg:anchor', 'reorg:stake', 'reorg:trade']) {
      const r = await row(key);
      const receipt = await client().getTransactionReceipt({ hash: r.hash as Hex });
      expect(r).toMatchObject({ status: 'MINED', blockNumber: receipt.blockNumber });
      expect(r.note).toMatch(/^its block \d+ left the chain \(a reorg\): sent again$/);
    }

    // Exactly once on the chain: the root anchored once, the stake made once, the trade made once.
    expect(await rootLogs(root)).toHaveLength(1);
    expect(await staked()).toBe(stakedBefore + STAKE);
    const trades = await tradesOf2(start + 1n);
    expect(trades.map((l) => l.transactionHash)).toEqual([trade.transactionHash]);
    // Its gas charged once, when first mined.
    expect(await gasDays('oa')).toBe(charged + 1);

    // Nothing more to do: a second run sends nothing.
    const before = await nonces();
    expect(await recheck(start)).toEqual([]);
    expect(await nonces()).toEqual(before);
    expect(await disagreementsWithChain(t.database.db, client() as never, start + 1n)).toEqual([]);
  });

  it('anvil_rollback drops an anchoring: the settle-outbox job has the same bytes mined again, once', async () => {
    const start = await client().getBlockNumber({ cacheTime: 0 });
    const batch = entries();
    const anchored = await anchorDecisionRoot({ outbox: platform, chain: t.chain.chain }, 'reorg:anchor-2', batch);
    expect(anchored.blockNumber).toBe(start + 1n);
    await anvil().request({ method: 'anvil_rollback' as never, params: [1] as never });
    await expect(client().getTransactionReceipt({ hash: anchored.txHash })).rejects.toThrow();
    await anvil().mine({ blocks: 2 });
    // The settle-outbox job does it, against the finalized block CHAIN_FINALITY_DEPTH (12) under the head.
    expect(t.container.config.chainFinalityDepth).toBe(12);
    expect(await runJobOnce(jobs.find((j) => j.name === 'settle-outbox')!, t.container)).toBe(true);
    expect(await row('reorg:anchor-2')).toMatchObject({
      status: 'MINED',
      hash: anchored.txHash,
      note: expect.stringMatching(/left the chain/),
    });
    const receipt = await client().getTransactionReceipt({ hash: anchored.txHash });
    expect((await row('reorg:anchor-2')).blockNumber).toBe(receipt.blockNumber);
    expect(await rootLogs(decisionTree(batch).root)).toHaveLength(1);
    expect(await recheck(start)).toEqual([]);
  });

  it('anvil_reorg drops a trade whose nonce went and which would now revert: recorded FAILED with the reason, never traded', async () => {
    const start = await client().getBlockNumber({ cacheTime: 0 });
    const latest = await client().getBlock();
    const trade = await trader.send('reorg:late-trade', () =>
      tradeCall(t.chain.chain, 'buy', token, 3n * USDC, 0n, latest.timestamp + 60n),
    );
    expect(trade.blockNumber).toBe(start + 1n);
    await anvil().request({ method: 'anvil_reorg' as never, params: [2, []] as never });
    await expect(client().getTransactionReceipt({ hash: trade.transactionHash })).rejects.toThrow();
    // The wallet's next transaction takes the nonce; the trade's deadline passes.
    await trader.send('reorg:approve-again', () =>
      approveCall(t.chain.chain.contracts.usdc!, t.chain.chain.contracts.tokenLauncher!, 2_000n * USDC),
    );
    await anvil().increaseTime({ seconds: 3_600 });
    await anvil().mine({ blocks: 1 });
    const before = await nonces();

    const found = await recheck(start);
    expect(found).toEqual([
      {
        key: 'reorg:late-trade',
        status: 'FAILED',
        hash: trade.transactionHash,
        // The revert decoded by name: the node's own rendering of a custom error carries NUL bytes, which PostgreSQL
        // refuses to store.
        note: expect.stringMatching(
          /^its block \d+ left the chain \(a reorg\), and sent again it would revert: execution reverted: [A-Z]\w*\(/,
        ),
      },
    ]);
    expect(await row('reorg:late-trade')).toMatchObject({ status: 'FAILED', note: found[0]!.note });
    expect(await tradesOf2(start + 1n)).toEqual([]);
    expect(await nonces()).toEqual(before);
    // Settled for good: later runs leave it.
    expect(await recheck(start)).toEqual([]);
  });
});

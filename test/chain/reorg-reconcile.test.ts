// Reorgs of depth 1, 3 and 10 on the local chain (anvil_reorg, anvil_rollback, evm_revert), each while trades, a
// launch, a graduation (and a trade in the pool after it), treasury transfers and a card transfer happen, the
// streams indexing part of it before the chain reorganises; each followed by `cli reconcile` (src/chain/reconcile.ts,
// a fresh index of the final chain) finding no difference. Then a property: random sequences of trades, transfers,
// indexing and reorgs leave the database equal to a fresh index of the final chain.

import { AccessCardAbi, TokenLauncherAbi } from '@ai-economy/shared/abis';
import fc from 'fast-check';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import type { LogFollower } from '../../src/chain/indexer.ts';
import { describeDifference, reconcile } from '../../src/chain/reconcile.ts';
import { followStream } from '../../src/chain/streams.ts';
import { CHAIN_STREAMS } from '../../src/domain/streams/registry.ts';
import { followTreasury } from '../../src/domain/treasuries/treasury-transfers.stream.ts';
import { useTestApp } from '../helpers/app.ts';
import { anvilTestClient } from '../helpers/chain.ts';
import { mintCard } from '../helpers/companies.ts';
import { scoreFixtures, USDC } from '../helpers/scores.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const f = scoreFixtures(t);
const trading = tokenTrading(t);
const client = () => t.chain.chain.publicClient;
const anvil = () => anvilTestClient(t.chain.node.rpcUrl, t.chain.chain.viemChain);

let followers: LogFollower[];
let reorgs: string[] = [];
let ra: Address;
let treasury: Address;
/** A company whose card the activity passes from holder to holder. */
let card: bigint;
let seq = 0;

async function sync() {
  for (const follower of followers) {
    for (let i = 0; ; i++) {
      if (i > 300) throw new Error(`${follower.name} never caught up`);
      const result = await follower.pollOnce();
      if (result.reorg) reorgs.push(follower.name);
      if (result.caughtUp) break;
    }
  }
}

/** Reconcile's verdict: every difference in words (none when the database equals a fresh index of the chain). */
async function differences(): Promise<string[]> {
  const report = await reconcile(t.container, CHAIN_STREAMS);
  expect(report.streams.every((s) => s.at !== undefined)).toBe(true);
  return report.differences.map(describeDifference);
}

const head = () => client().getBlockNumber({ cacheTime: 0 });

/** The card passes to the next of dev accounts 1, 4, 6, 7. */
async function passCard() {
  const holder = (await client().readContract({
    address: t.chain.chain.contracts.accessCard!,
    abi: AccessCardAbi,
    functionName: 'ownerOf',
    args: [card],
  })) as Address;
  const ring = [1, 4, 6, 7];
  const from = ring.find((i) => devAccount(i).address === holder)!;
  const to = ring[(ring.indexOf(from) + 1) % ring.length]!;
  await trading.send(
    t.chain.wallet(from).writeContract({
      address: t.chain.chain.contracts.accessCard!,
      abi: AccessCardAbi,
      functionName: 'transferFrom',
      args: [holder, devAccount(to).address, card],
    }),
  );
}

/** What the curve of `token` still needs to graduate, with the 1% curve fee a buy pays on top. */
async function toGraduate(token: Address): Promise<bigint> {
  const curve = await client().readContract({
    address: t.chain.chain.contracts.tokenLauncher!,
    abi: TokenLauncherAbi,
    functionName: 'curveOf',
    args: [token],
  });
  const rest = curve.graduationVirtualUsdc - curve.virtualUsdc;
  return rest + (rest + 99n) / 100n;
}

/**
 * One block each: a trade of `ra`, a launch, a treasury transfer, a card transfer, a buy of the new token, its
 * graduation, a trade in its pool, a sale of `ra`.
 */
async function activity() {
  await trading.buy(2, ra, 7n * USDC);
  const id = `rr${++seq}`;
  await f.company(id);
  const token = await trading.launch(id, `RR${seq}`);
  await trading.fund(5, treasury, 3n * USDC);
  await passCard();
  await trading.buy(3, token, 5n * USDC);
  await f.mintUsdc(devAccount(3).address, 20_000n * USDC);
  await trading.buy(3, token, await toGraduate(token));
  await trading.buy(2, token, 4n * USDC);
  await trading.sell(2, ra, (await trading.balanceOf(2, ra)) / 5n);
  return token;
}

/** The branch the chain takes instead: other trades, a treasury transfer, a card transfer. */
async function newBranch() {
  await trading.buy(4, ra, 2n * USDC);
  await trading.fund(6, treasury, 1n * USDC);
  await passCard();
  await trading.sell(3, ra, (await trading.balanceOf(3, ra)) / 7n);
}

beforeAll(async () => {
  await f.company('ra');
  ra = await trading.launch('ra', 'RRA');
  await trading.buy(2, ra, 40n * USDC);
  await trading.buy(3, ra, 10n * USDC);
  card = await mintCard(t.chain, 1);
  await f.company('rz', { cardTokenId: Number(card) });
  treasury = privateKeyToAccount(generatePrivateKey()).address;
  await followTreasury(t.container, treasury);
  // Small batches, so reorgs cut through batches; nothing finalized, so every batch is journaled.
  followers = CHAIN_STREAMS.map(
    (s) => followStream(t.container, s, { confirmations: 0, finality: { depth: 1000 }, batchSize: 3 })!,
  );
  await sync();
  expect(await differences()).toEqual([]);
});

describe('reorgs while the platform trades, launches, graduates and transfers, then reconcile', () => {
  it.each([
    { depth: 1, how: 'anvil_reorg' },
    { depth: 3, how: 'anvil_rollback' },
    { depth: 10, how: 'evm_revert' },
  ] as const)('a reorg of depth $depth ($how) leaves nothing for reconcile to find', async ({ depth, how }) => {
    reorgs = [];
    const snapshot = await anvil().snapshot();
    const start = await head();
    const token = await activity();
    // The streams see part of it, then the rest, which the reorg then takes away.
    await sync();
    while ((await head()) < start + BigInt(depth)) await anvil().mine({ blocks: 1 });
    const before = await head();
    if (how === 'anvil_reorg') {
      await anvil().request({ method: 'anvil_reorg' as never, params: [depth, []] as never });
    } else if (how === 'anvil_rollback') {
      await anvil().request({ method: 'anvil_rollback' as never, params: [depth] as never });
    } else {
      // Back to the snapshot, `depth` blocks (or more) under the head.
      await anvil().revert({ id: snapshot });
      expect(before - (await head())).toBeGreaterThanOrEqual(BigInt(depth));
    }
    await newBranch();
    await sync();
    expect(reorgs.length).toBeGreaterThan(0);
    expect(await differences()).toEqual([]);
    if (how === 'evm_revert') {
      // The launch the streams had indexed left the chain with the rest.
      const rows = await t.database.db.execute(`select token_status from companies where token_address = '${token}'`);
      expect((rows as unknown as { rows: { token_status: string }[] }).rows[0]?.token_status).toBe('PRE_PUBLIC');
    }
    // 2 to 4 s each alone; beside other chain-heavy files on two cores, six times that and more.
  }, 60_000);

  it('property: random trades, transfers, indexing and reorgs leave the database equal to a fresh index of the chain', async () => {
    const action = fc.oneof(
      fc.record({
        kind: fc.constant('buy' as const),
        account: fc.constantFrom(2, 3, 4),
        usdc: fc.integer({ min: 1, max: 9 }),
      }),
      fc.record({
        kind: fc.constant('sell' as const),
        account: fc.constantFrom(2, 3),
        part: fc.integer({ min: 2, max: 6 }),
      }),
      fc.record({ kind: fc.constant('fund' as const), usdc: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('card' as const) }),
      fc.record({ kind: fc.constant('sync' as const) }),
      fc.record({
        kind: fc.constant('reorg' as const),
        how: fc.constantFrom('anvil_reorg', 'anvil_rollback'),
        depth: fc.integer({ min: 1, max: 4 }),
      }),
    );
    let runs = 0;
    // Reorgs stay above the blocks this test began at (the launch of `ra` and every approval are below).
    const floor = await head();
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 3, maxLength: 8 }), async (actions) => {
        runs++;
        for (const a of actions) {
          if (a.kind === 'buy') await trading.buy(a.account, ra, BigInt(a.usdc) * USDC);
          else if (a.kind === 'sell') {
            const held = await trading.balanceOf(a.account, ra);
            if (held / BigInt(a.part) > 0n) await trading.sell(a.account, ra, held / BigInt(a.part));
          } else if (a.kind === 'fund') await trading.fund(5, treasury, BigInt(a.usdc) * USDC);
          else if (a.kind === 'card') await passCard();
          else if (a.kind === 'sync') await sync();
          else if ((await head()) - BigInt(a.depth) > floor) {
            const params = a.how === 'anvil_reorg' ? [a.depth, []] : [a.depth];
            await anvil().request({ method: a.how as never, params: params as never });
          }
        }
        await sync();
        const found = await differences();
        if (found.length > 0) {
          const obs = await t.database.db.execute(
            `select block_number, log_index, balance from treasury_observations where address = '${treasury}' order by block_number, log_index`,
          );
          throw new Error(
            `after ${JSON.stringify(actions)}:\n${found.join('\n')}\nchain balance ${await trading.usdcOf(treasury)} head ${await head()}\n${JSON.stringify((obs as unknown as { rows: unknown[] }).rows)}`,
          );
        }
      }),
      { numRuns: 20, seed: 42, endOnFailure: true },
    );
    expect(runs).toBe(20);
    // Twenty sequences of chain writes, each indexed and reconciled: 24 s alone at load 15, so the default 30 s was
    // a timeout waiting for a busier machine.
  }, 120_000);
});

// Staking: MasterChef-style accrual over effective stake (amount * access-card multiplier), boosts refreshed up and
// down, one card boosting one staker per pool, zero-stake periods, the emission bound, emergencyWithdraw, access
// control, gas, and a seeded random sequence checking the invariants after every step.
//
// The fixture deploys everything with the platform's own deployment (pool 0 = primary token, dev accounts 1-9
// hold 1,000,000 primary tokens). Tests set a round emission rate and compute expectations from block timestamps,
// reading views at a fixed block so the time of the read is known.

import { AccessCardAbi, EmissionTokenAbi, PrimaryTokenAbi, StakingAbi } from '@ai-economy/shared/abis';
import { type Address, maxUint256, parseEther, type TransactionReceipt } from 'viem';
import { describe, expect, it } from 'vitest';
import { DEV_PRIMARY_GRANT } from '../../src/chain/deploy-steps.ts';
import { seededRandom } from '../helpers/random.ts';
import { expectRevert } from '../helpers/revert.ts';
import { useCardChain, ZERO } from './fixture.ts';

const f = useCardChain();
const staking = () => f.chain.chain.contracts.staking!;
const primary = () => f.chain.chain.contracts.primaryToken!;
const emission = () => f.chain.chain.contracts.emissionToken!;
const e18 = (n: number | bigint) => BigInt(n) * 10n ** 18n;
/** 11 tokens a second: with stakes of 1,000 and multipliers summing to 11 the accumulator stays exact. */
const RATE = e18(11);

function write(i: number, functionName: string, args: readonly unknown[] = []): Promise<TransactionReceipt> {
  // Loosely typed on purpose: one helper for every staking function. A fixed gas limit: anvil estimates gas
  // against the latest block's timestamp, where the pool has just been updated, so the estimate misses the
  // accumulator update the mined transaction (one second later) performs and can run out of gas.
  return f.send(
    f.wallet(i).writeContract({ address: staking(), abi: StakingAbi, functionName, args, gas: 1_000_000n } as any),
  );
}
function simulate(i: number, functionName: string, args: readonly unknown[] = []) {
  return f.client.simulateContract({
    address: staking(),
    abi: StakingAbi,
    functionName,
    args,
    account: f.wallet(i).account,
  } as any);
}
async function setRate(rate: bigint) {
  await write(0, 'setEmissionPerSecond', [rate]);
}
async function deposit(i: number, amount: bigint) {
  await f.send(
    f.wallet(i).writeContract({
      address: primary(),
      abi: PrimaryTokenAbi,
      functionName: 'approve',
      args: [staking(), amount],
    }),
  );
  return write(i, 'deposit', [0n, amount]);
}
async function timeOf(receipt: { blockNumber: bigint }): Promise<bigint> {
  return (await f.client.getBlock({ blockNumber: receipt.blockNumber })).timestamp;
}
/** Lets `seconds` pass and mines a block; returns that block's number and timestamp. */
async function wait(seconds: number): Promise<{ blockNumber: bigint; timestamp: bigint }> {
  await f.client.increaseTime({ seconds });
  await f.client.mine({ blocks: 1 });
  const block = await f.client.getBlock();
  return { blockNumber: block.number, timestamp: block.timestamp };
}
function pending(i: number | Address, blockNumber?: bigint) {
  const account = typeof i === 'number' ? f.addr(i) : i;
  return f.client.readContract({
    address: staking(),
    abi: StakingAbi,
    functionName: 'pendingEmission',
    args: [0n, account],
    blockNumber,
  });
}
async function user(i: number) {
  const [amount, effective, multiplier, cardId] = await f.client.readContract({
    address: staking(),
    abi: StakingAbi,
    functionName: 'userInfo',
    args: [0n, f.addr(i)],
  });
  return { amount, effective, multiplier, cardId };
}
function totalEffective() {
  return f.client.readContract({
    address: staking(),
    abi: StakingAbi,
    functionName: 'totalEffectiveStake',
    args: [0n],
  });
}
function boostedBy(cardId: bigint) {
  return f.client.readContract({ address: staking(), abi: StakingAbi, functionName: 'boostedBy', args: [0n, cardId] });
}
function emissionOf(account: Address) {
  return f.client.readContract({
    address: emission(),
    abi: EmissionTokenAbi,
    functionName: 'balanceOf',
    args: [account],
  });
}
function primaryOf(account: Address) {
  return f.client.readContract({
    address: primary(),
    abi: PrimaryTokenAbi,
    functionName: 'balanceOf',
    args: [account],
  });
}
function transferCard(from: number, to: number, tokenId: bigint) {
  // The transfer calls the staking contract, which banks the boost it ends: the same accumulator update as `write`,
  // so the same fixed gas limit (an estimate one second early reverted out of gas in a loaded CI run).
  return f.send(
    f.wallet(from).writeContract({
      address: f.card,
      abi: AccessCardAbi,
      functionName: 'transferFrom',
      args: [f.addr(from), f.addr(to), tokenId],
      gas: 1_000_000n,
    }),
  );
}
/** Mints a Black card (id 1) to a, a Gold card (1001) to b and a Silver card (4001) to c. */
async function mintTiers(a: number, b: number, c: number) {
  await f.mint(a);
  await f.openTranche(2);
  await f.mint(b);
  await f.openTranche(3);
  await f.mint(c);
}

describe('deployment', () => {
  it('has pool 0 for the primary token, the staking contract as minter, and dev accounts funded', async () => {
    expect(await f.client.readContract({ address: staking(), abi: StakingAbi, functionName: 'poolLength' })).toBe(1n);
    const [token, allocPoint] = await f.client.readContract({
      address: staking(),
      abi: StakingAbi,
      functionName: 'poolInfo',
      args: [0n],
    });
    expect(token).toBe(primary());
    expect(allocPoint).toBe(100n);
    expect(await f.client.readContract({ address: emission(), abi: EmissionTokenAbi, functionName: 'minter' })).toBe(
      staking(),
    );
    expect(await primaryOf(f.addr(1))).toBe(DEV_PRIMARY_GRANT);
    expect(await emissionOf(f.addr(1))).toBe(0n);
  });
});

describe('accrual', () => {
  it('pays a sole staker the whole emission for the time staked, and harvest mints exactly that', async () => {
    await setRate(RATE);
    const dep = await deposit(1, e18(1000));
    const t0 = await timeOf(dep);
    const at = await wait(100);
    expect(await pending(1, at.blockNumber)).toBe(RATE * (at.timestamp - t0));

    const harvested = await write(1, 'harvest', [0n]);
    const t1 = await timeOf(harvested);
    expect(await emissionOf(f.addr(1))).toBe(RATE * (t1 - t0));
    expect(await pending(1, harvested.blockNumber)).toBe(0n);
    const supply = await f.client.readContract({
      address: emission(),
      abi: EmissionTokenAbi,
      functionName: 'totalSupply',
    });
    expect(supply).toBe(RATE * (t1 - t0));
  });

  it('splits by stake and banks rewards across a deposit and a withdrawal', async () => {
    await setRate(RATE);
    const a = await deposit(1, e18(1000));
    const b = await deposit(2, e18(3000));
    const [ta, tb] = [await timeOf(a), await timeOf(b)];
    const w = await write(2, 'withdraw', [0n, e18(2000)]);
    const tw = await timeOf(w);
    const at = await wait(40);
    // 1 alone for tb - ta; then 1:3 for tw - tb; then 1:1 until `at`.
    const expected1 = RATE * (tb - ta) + (RATE * (tw - tb)) / 4n + (RATE * (at.timestamp - tw)) / 2n;
    const expected2 = (RATE * 3n * (tw - tb)) / 4n + (RATE * (at.timestamp - tw)) / 2n;
    expect(await pending(1, at.blockNumber)).toBe(expected1);
    expect(await pending(2, at.blockNumber)).toBe(expected2);
    expect(await primaryOf(f.addr(2))).toBe(DEV_PRIMARY_GRANT - e18(1000));
  });
});

describe('card multipliers', () => {
  it('pays Black 5x, Gold 3x and Silver 2x the no-card earnings for the same stake and time', async () => {
    await setRate(RATE);
    await mintTiers(2, 3, 4);
    for (const i of [1, 2, 3, 4]) await deposit(i, e18(1000));
    for (const i of [2, 3, 4]) await write(i, 'refreshBoost', [0n]);
    expect((await user(1)).multiplier).toBe(1n);
    expect(await user(2)).toEqual({ amount: e18(1000), effective: e18(5000), multiplier: 5n, cardId: 1n });
    expect(await user(3)).toEqual({ amount: e18(1000), effective: e18(3000), multiplier: 3n, cardId: 1001n });
    expect(await user(4)).toEqual({ amount: e18(1000), effective: e18(2000), multiplier: 2n, cardId: 4001n });
    expect(await totalEffective()).toBe(e18(11_000));

    const start = await wait(1);
    const before = await Promise.all([1, 2, 3, 4].map((i) => pending(i, start.blockNumber)));
    const end = await wait(1000);
    const after = await Promise.all([1, 2, 3, 4].map((i) => pending(i, end.blockNumber)));
    const earned = after.map((v, k) => v - before[k]!);
    const none = earned[0]!;
    expect(none).toBe((RATE * (end.timestamp - start.timestamp)) / 11n);
    expect(earned).toEqual([none, 5n * none, 3n * none, 2n * none]);
    expect(earned.reduce((s, v) => s + v, 0n)).toBe(RATE * (end.timestamp - start.timestamp));
  });

  it('picks the best of several cards, and refuses a boost before staking (a card boosts only a stake)', async () => {
    await setRate(RATE);
    await f.mint(1); // Black id 1
    await f.openTranche(2);
    await f.mint(1); // Gold id 1001
    await expectRevert(simulate(1, 'refreshBoost', [0n]), 'StakingNoStake', [0n]);
    await deposit(1, e18(10));
    await write(1, 'refreshBoost', [0n]);
    expect(await user(1)).toMatchObject({ amount: e18(10), multiplier: 5n, cardId: 1n, effective: e18(50) });
  });
});

describe('depositAndBoost', () => {
  it("stakes and applies the best card in one call, as deposit then refreshBoost; a card's holder with no stake yet can", async () => {
    await setRate(RATE);
    await f.mint(1); // Black id 1
    await f.openTranche(2);
    await f.mint(1); // Gold id 1001
    await f.send(
      f.wallet(1).writeContract({
        address: primary(),
        abi: PrimaryTokenAbi,
        functionName: 'approve',
        args: [staking(), e18(30)],
      }),
    );
    await write(1, 'depositAndBoost', [0n, e18(10)]);
    expect(await user(1)).toEqual({ amount: e18(10), effective: e18(50), multiplier: 5n, cardId: 1n });
    // A second boosted deposit keeps the card and adds to the stake.
    await write(1, 'depositAndBoost', [0n, e18(20)]);
    expect(await user(1)).toEqual({ amount: e18(30), effective: e18(150), multiplier: 5n, cardId: 1n });
    expect(await totalEffective()).toBe(e18(150));
    // Nothing to stake is refused as deposit refuses it.
    await expectRevert(simulate(1, 'depositAndBoost', [0n, 0n]), 'StakingZeroAmount');
  });
});

describe('refreshing boosts', () => {
  it('raises the boost after a card is acquired and ends it in the block the card leaves, banking at the old rate', async () => {
    await setRate(RATE);
    const d1 = await deposit(1, e18(1000));
    const d2 = await deposit(2, e18(1000));
    await f.mint(1);
    const up = await write(1, 'refreshBoost', [0n]);
    expect(await user(1)).toMatchObject({ multiplier: 5n, effective: e18(5000), cardId: 1n });
    expect(await boostedBy(1n)).toBe(f.addr(1));

    // Still held: nobody can lower it.
    await expectRevert(simulate(9, 'refreshBoostFor', [f.addr(1), 0n]), 'StakingBoostStillHeld', [f.addr(1), 1n]);

    // The transfer itself ends the boost, in its own block: the access card tells the staking contract.
    const down = await transferCard(1, 5, 1n);
    expect(await user(1)).toMatchObject({ multiplier: 1n, effective: e18(1000), cardId: 0n });
    expect(await boostedBy(1n)).toBe(ZERO);
    expect(await totalEffective()).toBe(e18(2000));

    const [t1, t2, tUp, tDown] = await Promise.all([timeOf(d1), timeOf(d2), timeOf(up), timeOf(down)]);
    const end = await wait(10);
    const expected1 =
      RATE * (t2 - t1) +
      (RATE * (tUp - t2)) / 2n +
      (RATE * 5n * (tDown - tUp)) / 6n +
      (RATE * (end.timestamp - tDown)) / 2n;
    // 5/6 of a second's emission is not a whole number of wei per unit of stake: the accumulator rounds down, by
    // at most one wei per 1e18 of effective stake and update, so the exact value is approached from below.
    const gap = expected1 - (await pending(1, end.blockNumber));
    expect(gap).toBeGreaterThanOrEqual(-4n);
    expect(gap).toBeLessThan(100_000n);
    const total = (await pending(1, end.blockNumber)) + (await pending(2, end.blockNumber));
    expect(total).toBeLessThanOrEqual(RATE * (end.timestamp - t1));
    expect(RATE * (end.timestamp - t1) - total).toBeLessThan(100_000n);
  });

  it('lets refreshBoost lower a boost when the caller holds no card any more', async () => {
    await f.mint(1);
    await deposit(1, e18(100));
    await write(1, 'refreshBoost', [0n]);
    await transferCard(1, 2, 1n);
    await write(1, 'refreshBoost', [0n]);
    expect(await user(1)).toMatchObject({ multiplier: 1n, cardId: 0n, effective: e18(100) });
    expect(await boostedBy(1n)).toBe(ZERO);
  });
});

describe('one card, one staker', () => {
  it('moves a card tried on two stakers to the new holder and drops the old one to 1x', async () => {
    await f.mint(1);
    await deposit(1, e18(1000));
    await deposit(2, e18(1000));
    await write(1, 'refreshBoost', [0n]);
    // Account 2 has no card: refreshing gives it nothing, and the card stays with account 1.
    await write(2, 'refreshBoost', [0n]);
    expect((await user(2)).multiplier).toBe(1n);
    expect(await boostedBy(1n)).toBe(f.addr(1));

    await transferCard(1, 2, 1n);
    await write(2, 'refreshBoost', [0n]);
    expect(await user(2)).toMatchObject({ multiplier: 5n, cardId: 1n });
    expect(await user(1)).toMatchObject({ multiplier: 1n, cardId: 0n });
    expect(await boostedBy(1n)).toBe(f.addr(2));
    expect(await totalEffective()).toBe(e18(6000));

    // The card goes back: account 1 takes it over the same way.
    await transferCard(2, 1, 1n);
    await write(1, 'refreshBoost', [0n]);
    expect(await user(1)).toMatchObject({ multiplier: 5n, cardId: 1n });
    expect(await user(2)).toMatchObject({ multiplier: 1n, cardId: 0n });
    expect(await totalEffective()).toBe(e18(6000));
  });
});

describe('zero-stake periods', () => {
  it('accrues nothing while the pool is empty, before the first deposit and between stakes', async () => {
    await setRate(RATE);
    await wait(1000);
    const d = await deposit(1, e18(1000));
    const w = await write(1, 'withdraw', [0n, e18(1000)]);
    const staked1 = (await timeOf(w)) - (await timeOf(d));
    await wait(1000);
    const bankedAfterGap = await pending(1);
    expect(bankedAfterGap).toBe(RATE * staked1);
    const d2 = await deposit(2, e18(500));
    const end = await wait(5);
    expect(await pending(2, end.blockNumber)).toBe(RATE * (end.timestamp - (await timeOf(d2))));
    expect(await pending(1, end.blockNumber)).toBe(bankedAfterGap);
  });
});

describe('emergencyWithdraw', () => {
  it('returns the whole stake, forfeits the pending emission and frees the card', async () => {
    await setRate(RATE);
    await f.mint(1);
    await deposit(1, e18(700));
    await write(1, 'refreshBoost', [0n]);
    await wait(100);
    expect(await pending(1)).toBeGreaterThan(0n);
    const r = await write(1, 'emergencyWithdraw', [0n]);
    expect(await primaryOf(f.addr(1))).toBe(DEV_PRIMARY_GRANT);
    expect(await pending(1, r.blockNumber)).toBe(0n);
    expect(await user(1)).toEqual({ amount: 0n, effective: 0n, multiplier: 1n, cardId: 0n });
    expect(await totalEffective()).toBe(0n);
    expect(await boostedBy(1n)).toBe(ZERO);
    await write(1, 'harvest', [0n]);
    expect(await emissionOf(f.addr(1))).toBe(0n);
    // With nothing staked it still succeeds.
    await write(3, 'emergencyWithdraw', [0n]);
  });
});

describe('access control and input checks', () => {
  it('keeps pool management to the owner', async () => {
    const who = f.addr(1);
    await expectRevert(simulate(1, 'addPool', [f.usdcToken, 1n]), 'OwnableUnauthorizedAccount', [who]);
    await expectRevert(simulate(1, 'setAllocPoint', [0n, 1n]), 'OwnableUnauthorizedAccount', [who]);
    await expectRevert(simulate(1, 'setEmissionPerSecond', [1n]), 'OwnableUnauthorizedAccount', [who]);
    await expectRevert(simulate(0, 'addPool', [primary(), 1n]), 'StakingPoolExists', [primary()]);
    await write(0, 'addPool', [f.usdcToken, 100n]);
    expect(await f.client.readContract({ address: staking(), abi: StakingAbi, functionName: 'totalAllocPoint' })).toBe(
      200n,
    );
  });

  it('keeps boost caps to the owner, for tier multipliers 2-255, at most 2^88 - 1 wei, starting at the defaults', async () => {
    const cap = (m: bigint) =>
      f.client.readContract({ address: staking(), abi: StakingAbi, functionName: 'boostCap', args: [m] });
    expect([await cap(5n), await cap(3n), await cap(2n), await cap(1n)]).toEqual([
      e18(1_000_000),
      e18(250_000),
      e18(100_000),
      0n,
    ]);
    await expectRevert(simulate(1, 'setBoostCap', [5n, 1n]), 'OwnableUnauthorizedAccount', [f.addr(1)]);
    const max88 = 2n ** 88n - 1n;
    await write(0, 'setBoostCap', [5n, max88]);
    await write(0, 'setBoostCap', [2n, 0n]);
    await write(0, 'setBoostCap', [255n, 1n]);
    await expectRevert(simulate(0, 'setBoostCap', [5n, max88 + 1n]), 'StakingInvalidBoostCap', [5n, max88 + 1n]);
    await expectRevert(simulate(0, 'setBoostCap', [1n, 1n]), 'StakingInvalidBoostCap', [1n, 1n]);
    await expectRevert(simulate(0, 'setBoostCap', [256n, 1n]), 'StakingInvalidBoostCap', [256n, 1n]);
    expect(await cap(5n)).toBe(max88);
  });

  it('rejects unknown pools, zero amounts and withdrawals above the stake', async () => {
    await expectRevert(simulate(1, 'deposit', [1n, 1n]), 'StakingInvalidPool', [1n]);
    await expectRevert(simulate(1, 'harvest', [7n]), 'StakingInvalidPool', [7n]);
    await expectRevert(simulate(1, 'deposit', [0n, 0n]), 'StakingZeroAmount', []);
    await expectRevert(simulate(1, 'withdraw', [0n, 1n]), 'StakingInsufficientStake', [1n, 0n]);
  });

  it('lets only the staking contract mint emission, and only MINTER_ROLE mint the primary token', async () => {
    await expectRevert(
      f.client.simulateContract({
        address: emission(),
        abi: EmissionTokenAbi,
        functionName: 'mint',
        args: [f.addr(1), 1n],
        account: f.wallet(0).account,
      }),
      'EmissionTokenUnauthorized',
      [f.addr(0)],
    );
    await expectRevert(
      f.client.simulateContract({
        address: emission(),
        abi: EmissionTokenAbi,
        functionName: 'setMinter',
        args: [f.addr(1)],
        account: f.wallet(0).account,
      }),
      'EmissionTokenMinterAlreadySet',
      [staking()],
    );
    const role = await f.client.readContract({ address: primary(), abi: PrimaryTokenAbi, functionName: 'MINTER_ROLE' });
    await expectRevert(
      f.client.simulateContract({
        address: primary(),
        abi: PrimaryTokenAbi,
        functionName: 'mint',
        args: [f.addr(1), 1n],
        account: f.wallet(1).account,
      }),
      'AccessControlUnauthorizedAccount',
      [f.addr(1), role],
    );
  });
});

describe('allocation and rate changes', () => {
  it('settles pools before a rate or allocation change', async () => {
    await setRate(RATE);
    const d = await deposit(1, e18(1000));
    const r = await write(0, 'setEmissionPerSecond', [e18(1)]);
    const a = await write(0, 'addPool', [f.usdcToken, 300n]); // pool 0 now gets a quarter
    const end = await wait(100);
    const [td, tr, ta] = await Promise.all([timeOf(d), timeOf(r), timeOf(a)]);
    const expected = RATE * (tr - td) + e18(1) * (ta - tr) + (e18(1) * (end.timestamp - ta)) / 4n;
    expect(await pending(1, end.blockNumber)).toBe(expected);
  });
});

describe('gas', () => {
  it('records the gas of deposit, withdraw, harvest and refreshBoost', async () => {
    await f.mint(1);
    const first = await deposit(1, e18(100));
    const second = await deposit(1, e18(100));
    const refresh = await write(1, 'refreshBoost', [0n]);
    const named = await write(1, 'refreshBoost', [0n, 1n]);
    await wait(10);
    const harvest = await write(1, 'harvest', [0n]);
    const withdraw = await write(1, 'withdraw', [0n, e18(50)]);
    // A card transfer now also ends its boost in the staking contract.
    const transfer = await transferCard(1, 2, 1n);
    const gas = {
      'deposit (first)': first.gasUsed,
      'deposit (later)': second.gasUsed,
      'refreshBoost (one card)': refresh.gasUsed,
      'refreshBoost(pid, cardId) (same card again)': named.gasUsed,
      harvest: harvest.gasUsed,
      withdraw: withdraw.gasUsed,
      'card transfer ending a boost': transfer.gasUsed,
    };
    console.log('Staking gas used', Object.fromEntries(Object.entries(gas).map(([k, v]) => [k, Number(v)])));
    for (const v of Object.values(gas)) expect(v).toBeLessThan(300_000n);
  });
});

describe('random sequences', () => {
  it.each([1, 2])('keeps the invariants over a seeded random sequence (seed %i)', async (seed) => {
    const rand = seededRandom(seed);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
    const stakers = [1, 2, 3, 4];
    await setRate(RATE);
    await mintTiers(1, 2, 3); // ids 1 (Black), 1001 (Gold), 4001 (Silver)
    const cards = [1n, 1001n, 4001n];
    await f.send(
      f.wallet(4).writeContract({
        address: primary(),
        abi: PrimaryTokenAbi,
        functionName: 'approve',
        args: [staking(), maxUint256],
      }),
    );
    for (const i of [1, 2, 3]) {
      await f.send(
        f.wallet(i).writeContract({
          address: primary(),
          abi: PrimaryTokenAbi,
          functionName: 'approve',
          args: [staking(), maxUint256],
        }),
      );
    }
    let start: bigint | undefined;
    const done = new Set<string>();
    for (let step = 0; step < 40; step++) {
      const i = pick(stakers);
      const action = pick([
        'deposit',
        'withdraw',
        'transfer',
        'refresh',
        'refreshCard',
        'refreshFor',
        'harvest',
        'emergency',
      ] as const);
      let receipt: TransactionReceipt | undefined;
      if (action === 'deposit') {
        receipt = await write(i, 'deposit', [0n, parseEther(String(1 + Math.floor(rand() * 1000)))]);
      } else if (action === 'withdraw') {
        const { amount } = await user(i);
        if (amount > 0n) receipt = await write(i, 'withdraw', [0n, amount / 2n + 1n]);
      } else if (action === 'transfer') {
        const card = pick(cards);
        const holder = await f.client.readContract({
          address: f.card,
          abi: AccessCardAbi,
          functionName: 'ownerOf',
          args: [card],
        });
        const from = stakers.find((s) => f.addr(s) === holder)!;
        const to = pick(stakers.filter((s) => s !== from));
        receipt = await transferCard(from, to, card);
      } else if (action === 'refresh') {
        // Without stake a held card is refused (StakingNoStake); without a card it records 1x.
        if ((await user(i)).amount > 0n) receipt = await write(i, 'refreshBoost', [0n]);
      } else if (action === 'refreshCard') {
        // A named card: only one the staker holds is accepted.
        const card = pick(cards);
        const holder = await f.client.readContract({
          address: f.card,
          abi: AccessCardAbi,
          functionName: 'ownerOf',
          args: [card],
        });
        if (holder === f.addr(i) && (await user(i)).amount === 0n) {
          await expectRevert(simulate(i, 'refreshBoost', [0n, card]), 'StakingNoStake', [0n]);
        } else if (holder === f.addr(i)) receipt = await write(i, 'refreshBoost', [0n, card]);
        else await expectRevert(simulate(i, 'refreshBoost', [0n, card]), 'StakingCardNotHeld', [f.addr(i), card]);
      } else if (action === 'refreshFor') {
        const { cardId } = await user(i);
        const holder =
          cardId === 0n
            ? undefined
            : await f.client.readContract({
                address: f.card,
                abi: AccessCardAbi,
                functionName: 'ownerOf',
                args: [cardId],
              });
        if (cardId !== 0n && holder !== f.addr(i)) receipt = await write(9, 'refreshBoostFor', [f.addr(i), 0n]);
      } else if (action === 'harvest') {
        receipt = await write(i, 'harvest', [0n]);
      } else if (action === 'emergency') {
        receipt = await write(i, 'emergencyWithdraw', [0n]);
      }
      if (receipt) done.add(action);
      if (start === undefined && receipt) start = await timeOf(receipt);
      await f.client.increaseTime({ seconds: 1 + Math.floor(rand() * 50) });

      // Invariants, read at one block.
      await f.client.mine({ blocks: 1 });
      const block = await f.client.getBlock();
      const users = await Promise.all(stakers.map((s) => user(s)));
      const total = await f.client.readContract({
        address: staking(),
        abi: StakingAbi,
        functionName: 'totalEffectiveStake',
        args: [0n],
        blockNumber: block.number,
      });
      expect(total).toBe(users.reduce((s, u) => s + u.effective, 0n));
      for (const [k, u] of users.entries()) {
        expect(u.effective).toBe(u.amount * u.multiplier);
        if (u.cardId !== 0n) {
          // No boost without the card: every boost's card is held by its staker, at every block.
          const holder = await f.client.readContract({
            address: f.card,
            abi: AccessCardAbi,
            functionName: 'ownerOf',
            args: [u.cardId],
            blockNumber: block.number,
          });
          expect(holder).toBe(f.addr(stakers[k]!));
          const [, m] = await f.client.readContract({
            address: f.card,
            abi: AccessCardAbi,
            functionName: 'tierOf',
            args: [u.cardId],
          });
          expect(u.multiplier).toBe(m);
        } else expect(u.multiplier).toBe(1n);
      }
      // Each card boosts at most one staker.
      const used = users.filter((u) => u.cardId !== 0n).map((u) => u.cardId);
      expect(new Set(used).size).toBe(used.length);
      const stakedSum = users.reduce((s, u) => s + u.amount, 0n);
      expect(await primaryOf(staking())).toBe(stakedSum);
      if (start !== undefined) {
        const pendings = await Promise.all(stakers.map((s) => pending(s, block.number)));
        const minted = await f.client.readContract({
          address: emission(),
          abi: EmissionTokenAbi,
          functionName: 'totalSupply',
          blockNumber: block.number,
        });
        const paid = pendings.reduce((s, v) => s + v, 0n) + minted;
        expect(paid).toBeLessThanOrEqual(RATE * (block.timestamp - start));
      }
    }
    // The sequence exercised the interesting moves, not just deposits.
    for (const action of ['deposit', 'withdraw', 'transfer', 'refresh', 'harvest']) expect(done).toContain(action);
  });
});

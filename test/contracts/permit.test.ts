// One-transaction mint and stake with EIP-2612 permits: the mock USDC and the primary token support `permit`, and
// `AccessCard.mintWithPermit(quantity, maxPrice, deadline, v, r, s)` and
// `Staking.depositWithPermit(pid, amount, deadline, v, r, s)` take the signature (the argument orders the web app
// sends). A permit someone used first still lets the call through on the allowance it gave; a bad one without an
// allowance reverts and moves nothing.

import { AccessCardAbi, MockUSDCAbi, PrimaryTokenAbi, StakingAbi } from '@ai-economy/shared/abis';
import { type Address, maxUint256, parseEther, parseEventLogs } from 'viem';
import { describe, expect, it } from 'vitest';
import { signPermit } from '../helpers/permit.ts';
import { expectRevert } from '../helpers/revert.ts';
import { ALL_ERRORS, PRICE, useCardChain } from './fixture.ts';

const f = useCardChain();
const staking = () => f.chain.chain.contracts.staking!;
const primary = () => f.chain.chain.contracts.primaryToken!;
const GAS = 1_000_000n;

/** Account i's permit for `spender` to take `value` of `token`, valid for an hour of chain time. */
async function permit(i: number, token: Address, spender: Address, value: bigint) {
  const deadline = (await f.client.getBlock()).timestamp + 3_600n;
  return { deadline, ...(await signPermit(f.client, f.wallet(i), { token, spender, value, deadline })) };
}
const allowance = (token: Address, owner: Address, spender: Address) =>
  f.client.readContract({ address: token, abi: MockUSDCAbi, functionName: 'allowance', args: [owner, spender] });

/** Signs a permit whose deadline is 10 s away, lets a watcher submit it (the allowance is given), then passes it. */
async function frontRunAndExpire(i: number, token: Address, spender: Address, value: bigint) {
  const deadline = (await f.client.getBlock()).timestamp + 10n;
  const p = { deadline, ...(await signPermit(f.client, f.wallet(i), { token, spender, value, deadline })) };
  await f.send(
    f.wallet(8).writeContract({
      address: token,
      abi: MockUSDCAbi,
      functionName: 'permit',
      args: [f.addr(i), spender, value, p.deadline, p.v, p.r, p.s],
    }),
  );
  expect(await allowance(token, f.addr(i), spender)).toBe(value);
  await f.client.increaseTime({ seconds: 60 });
  await f.client.mine({ blocks: 1 });
  return p;
}

describe('mintWithPermit', () => {
  it('mints in one transaction without a prior approval, and leaves no allowance behind', async () => {
    expect(await allowance(f.usdcToken, f.addr(1), f.card)).toBe(0n);
    const before = await f.usdcOf(f.addr(1));
    const p = await permit(1, f.usdcToken, f.card, PRICE * 2n);
    const receipt = await f.send(
      f.wallet(1).writeContract({
        address: f.card,
        abi: AccessCardAbi,
        functionName: 'mintWithPermit',
        args: [2n, PRICE, p.deadline, p.v, p.r, p.s],
      }),
    );
    expect(f.cardEvents(receipt).filter((e) => e.eventName === 'CardMinted')).toHaveLength(2);
    expect(await f.usdcOf(f.addr(1))).toBe(before - PRICE * 2n);
    expect(await allowance(f.usdcToken, f.addr(1), f.card)).toBe(0n);
  });

  it('goes through on the allowance when someone used the permit first', async () => {
    const p = await permit(2, f.usdcToken, f.card, PRICE);
    // A watcher of the mempool submits the permit itself.
    await f.send(
      f.wallet(5).writeContract({
        address: f.usdcToken,
        abi: MockUSDCAbi,
        functionName: 'permit',
        args: [f.addr(2), f.card, PRICE, p.deadline, p.v, p.r, p.s],
      }),
    );
    await f.send(
      f.wallet(2).writeContract({
        address: f.card,
        abi: AccessCardAbi,
        functionName: 'mintWithPermit',
        args: [1n, PRICE, p.deadline, p.v, p.r, p.s],
      }),
    );
    expect(
      await f.client.readContract({
        address: f.card,
        abi: AccessCardAbi,
        functionName: 'balanceOf',
        args: [f.addr(2)],
      }),
    ).toBe(1n);
  });

  it('reverts and moves nothing with a permit for less than the price and no allowance', async () => {
    const before = await f.ledger(f.addr(3));
    const p = await permit(3, f.usdcToken, f.card, PRICE - 1n);
    await expectRevert(
      f.client.simulateContract({
        address: f.card,
        abi: AccessCardAbi,
        functionName: 'mintWithPermit',
        args: [1n, PRICE, p.deadline, p.v, p.r, p.s],
        account: f.wallet(3).account,
      }),
      'ERC20InsufficientAllowance',
      [f.card, 0n, PRICE],
      ALL_ERRORS,
    );
    expect(await f.ledger(f.addr(3))).toEqual(before);
  });

  it('has a deadline of its own: after it the mint reverts, even on an allowance the permit already gave', async () => {
    const p = await frontRunAndExpire(3, f.usdcToken, f.card, PRICE);
    const decoded = await expectRevert(
      f.client.simulateContract({
        address: f.card,
        abi: AccessCardAbi,
        functionName: 'mintWithPermit',
        args: [1n, PRICE, p.deadline, p.v, p.r, p.s],
        account: f.wallet(3).account,
      }),
      'AccessCardDeadlinePassed',
      undefined,
      ALL_ERRORS,
    );
    expect(decoded.args?.[0]).toBe(p.deadline);
  });
});

describe('depositWithPermit', () => {
  it('stakes the primary token in one transaction without a prior approval', async () => {
    const amount = parseEther('1234');
    expect(await allowance(primary(), f.addr(4), staking())).toBe(0n);
    const p = await permit(4, primary(), staking(), amount);
    await f.send(
      f.wallet(4).writeContract({
        address: staking(),
        abi: StakingAbi,
        functionName: 'depositWithPermit',
        args: [0n, amount, p.deadline, p.v, p.r, p.s],
        gas: GAS,
      }),
    );
    const [staked] = await f.client.readContract({
      address: staking(),
      abi: StakingAbi,
      functionName: 'userInfo',
      args: [0n, f.addr(4)],
    });
    expect(staked).toBe(amount);
    expect(await allowance(primary(), f.addr(4), staking())).toBe(0n);
  });

  it('reverts with a signature of another account and no allowance; an approval still works as before', async () => {
    const amount = parseEther('10');
    const p = await permit(6, primary(), staking(), amount);
    await expectRevert(
      f.client.simulateContract({
        address: staking(),
        abi: StakingAbi,
        functionName: 'depositWithPermit',
        args: [0n, amount, p.deadline, p.v, p.r, p.s],
        account: f.wallet(5).account,
      }),
      'ERC20InsufficientAllowance',
      [staking(), 0n, amount],
      [...ALL_ERRORS, ...PrimaryTokenAbi.filter((x) => x.type === 'error')],
    );
    await f.send(
      f.wallet(5).writeContract({
        address: primary(),
        abi: PrimaryTokenAbi,
        functionName: 'approve',
        args: [staking(), maxUint256],
      }),
    );
    await f.send(
      f.wallet(5).writeContract({
        address: staking(),
        abi: StakingAbi,
        functionName: 'depositWithPermit',
        args: [0n, amount, p.deadline, p.v, p.r, p.s],
        gas: GAS,
      }),
    );
  });

  it('has a deadline of its own: after it the deposit reverts, even on an allowance the permit already gave', async () => {
    const amount = parseEther('5');
    const p = await frontRunAndExpire(7, primary(), staking(), amount);
    const decoded = await expectRevert(
      f.client.simulateContract({
        address: staking(),
        abi: StakingAbi,
        functionName: 'depositWithPermit',
        args: [0n, amount, p.deadline, p.v, p.r, p.s],
        account: f.wallet(7).account,
      }),
      'StakingDeadlinePassed',
    );
    expect(decoded.args?.[0]).toBe(p.deadline);
  });
});

describe('depositWithPermitAndBoost', () => {
  it("stakes and applies the best card the staker holds in one transaction, the permit's only", async () => {
    const amount = parseEther('100');
    await f.mint(3); // a Black card: x5
    const p = await permit(3, primary(), staking(), amount);
    const receipt = await f.send(
      f.wallet(3).writeContract({
        address: staking(),
        abi: StakingAbi,
        functionName: 'depositWithPermitAndBoost',
        args: [0n, amount, p.deadline, p.v, p.r, p.s],
        gas: GAS,
      }),
    );
    const [staked, effective, multiplier, cardId] = await f.client.readContract({
      address: staking(),
      abi: StakingAbi,
      functionName: 'userInfo',
      args: [0n, f.addr(3)],
    });
    expect({ staked, effective, multiplier }).toEqual({ staked: amount, effective: amount * 5n, multiplier: 5n });
    expect(cardId).toBeGreaterThan(0n);
    const events = parseEventLogs({ abi: StakingAbi, logs: receipt.logs }).map((e) => e.eventName);
    expect(events).toEqual(expect.arrayContaining(['Deposited', 'BoostRefreshed']));
    expect(await allowance(primary(), f.addr(3), staking())).toBe(0n);
  });

  it('stakes at 1x for a staker without a card, and has the deadline of depositWithPermit', async () => {
    const amount = parseEther('7');
    const p = await permit(2, primary(), staking(), amount);
    await f.send(
      f.wallet(2).writeContract({
        address: staking(),
        abi: StakingAbi,
        functionName: 'depositWithPermitAndBoost',
        args: [0n, amount, p.deadline, p.v, p.r, p.s],
        gas: GAS,
      }),
    );
    const [staked, effective, multiplier] = await f.client.readContract({
      address: staking(),
      abi: StakingAbi,
      functionName: 'userInfo',
      args: [0n, f.addr(2)],
    });
    expect({ staked, effective, multiplier }).toEqual({ staked: amount, effective: amount, multiplier: 1n });
    const late = await frontRunAndExpire(9, primary(), staking(), amount);
    await expectRevert(
      f.client.simulateContract({
        address: staking(),
        abi: StakingAbi,
        functionName: 'depositWithPermitAndBoost',
        args: [0n, amount, late.deadline, late.v, late.r, late.s],
        account: f.wallet(9).account,
      }),
      'StakingDeadlinePassed',
    );
  });
});

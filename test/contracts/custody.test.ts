// A company's custody on the local chain, with the platform's own contracts: its Safe, controlled by whoever holds
// its access card; its Roles module, through which a stolen agent key can do only what its role allows; and the
// creator's exit with their own wallet alone. Gas of each step is printed for docs/contracts.md "Custody".

import {
  AccessCardAbi,
  CardSafeOwnerAbi,
  LauncherApproverAbi,
  MockUSDCAbi,
  PrimaryTokenAbi,
  RolesAbi,
  SafeL2Abi,
  StakingAbi,
  TokenLauncherAbi,
} from '@ai-economy/shared/abis';
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  maxUint256,
  pad,
  parseEther,
  parseEventLogs,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { companyCustodyAddresses, setUpCompanyCustody } from '../../src/chain/custody.ts';
import {
  allowanceChangeTx,
  isRoleMember,
  maxTradeChangeTx,
  membershipChangeTx,
  readMaxTrade,
  withSafeCallReason,
} from '../../src/chain/custody-roles.ts';
import {
  type CompanyCustody,
  DAILY_NOTIONAL_KEY,
  MANAGE_ROLE,
  ONE_DAY_S,
  SENTINEL_MODULES,
  STAKE_ROLE,
  TRADE_ROLE,
} from '../../src/chain/custody-scopes.ts';
import { safeTxTypedData } from '../../src/chain/safe-tx.ts';
import { expectRevert } from '../helpers/revert.ts';
import { holderSignedExec } from '../helpers/safe.ts';
import { usdc } from './fixture.ts';
import { keyOf, useTokenChain } from './token-fixture.ts';

const f = useTokenChain();
const LIMITS = { dailyNotional: usdc(1000), maxTrade: usdc(250) };
/** Roles' PermissionChecker.Status, by name. */
const Status = {
  DelegateCallNotAllowed: 1,
  TargetAddressNotAllowed: 2,
  FunctionNotAllowed: 3,
  ParameterNotAllowed: 7,
  ParameterNotAMatch: 10,
  ParameterGreaterThanAllowed: 9,
  AllowanceExceeded: 17,
} as const;
const CREATOR = 1;
const BUYER = 2;
const ATTACKER = 3;

interface Company extends CompanyCustody {
  cardId: bigint;
  token: Address;
  agent: ReturnType<typeof privateKeyToAccount>;
  setUpGas: Record<string, bigint>;
}

/** The chain's clients with the platform's wallet free of a nonce cache (each test reverts to a snapshot). */
const clients = () => ({ ...f.chain.chain, platform: f.wallet(0) });

/** A company whose card the creator holds, with its custody set up for one agent key and `others` more. */
async function company(others = 0): Promise<Company> {
  const minted = await f.mint(CREATOR);
  const transfer = parseEventLogs({ abi: AccessCardAbi, eventName: 'Transfer', logs: minted.logs })[0]!;
  const cardId = transfer.args.tokenId;
  const { token } = await f.launch();
  const agent = privateKeyToAccount(generatePrivateKey());
  await f.client.setBalance({ address: agent.address, value: parseEther('1') });
  const contracts = f.chain.chain.contracts;
  const setUp = await setUpCompanyCustody(clients(), contracts, {
    cardId,
    agents: [
      { address: agent.address, trade: true, stake: true },
      ...Array.from({ length: others }, () => ({
        address: privateKeyToAccount(generatePrivateKey()).address,
        trade: true,
        stake: true,
      })),
    ],
    limits: LIMITS,
    tokens: [token],
  });
  // The creator funds the Safe: USDC and primary tokens.
  await f.send(
    f.wallet(CREATOR).writeContract({
      address: f.usdcToken,
      abi: MockUSDCAbi,
      functionName: 'transfer',
      args: [setUp.safe, usdc(5000)],
    }),
  );
  await f.send(
    f.wallet(CREATOR).writeContract({
      address: contracts.primaryToken!,
      abi: PrimaryTokenAbi,
      functionName: 'transfer',
      args: [setUp.safe, parseEther('1000')],
    }),
  );
  return { ...setUp, cardId, token, agent, setUpGas: setUp.gas };
}

/** The agent key sends `data` to `to` through its role, straight to the module (no engine, no platform). */
/** The agent's role for a call to `to`: staking's on the staking contract and the primary token, trading's elsewhere. */
const roleFor = (to: Address) =>
  to === f.chain.chain.contracts.staking || to === f.chain.chain.contracts.primaryToken ? STAKE_ROLE : TRADE_ROLE;

function asAgent(c: Company, to: Address, data: Hex, operation: 0 | 1 = 0) {
  return f.chain.chain.walletOf(c.agent).writeContract({
    address: c.roles,
    abi: RolesAbi,
    functionName: 'execTransactionWithRole',
    args: [to, 0n, data, operation, roleFor(to), true],
    gas: 1_000_000n,
  });
}
/** The same, simulated first so a refusal comes back decoded. */
function simulateAsAgent(c: Company, to: Address, data: Hex, operation: 0 | 1 = 0) {
  return f.client.simulateContract({
    account: c.agent,
    address: c.roles,
    abi: RolesAbi,
    functionName: 'execTransactionWithRole',
    args: [to, 0n, data, operation, roleFor(to), true],
  });
}
const erc20 = (functionName: 'approve' | 'transfer', args: readonly [Address, bigint]) =>
  encodeFunctionData({ abi: erc20Abi, functionName, args });
const buyData = (token: Address, usdcIn: bigint) =>
  encodeFunctionData({ abi: TokenLauncherAbi, functionName: 'buy', args: [token, usdcIn, 0n, maxUint256] });
const usdcOf = (a: Address) => f.usdcOf(a);
const tokensOf = (token: Address, a: Address) =>
  f.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [a] });

/** The card's holder `i` has the Safe execute `data` on `to`, sending the transaction from their own wallet. */
async function asHolder(c: Company, i: number, to: Address, data: Hex) {
  const exec = await holderSignedExec(f.chain.chain, c, devAccount(i), { to, data });
  return f.wallet(i).sendTransaction({ to: c.safe, data: exec });
}

describe('a company Safe controlled by its card', () => {
  it('is set up with the card’s owner contract as its only owner and the Roles module enabled, owned by the Safe', async () => {
    // Seven agent keys, as a whole C-suite has.
    const c = await company(6);
    const read = { address: c.safe, abi: SafeL2Abi } as const;
    expect(await f.client.readContract({ ...read, functionName: 'getOwners' })).toEqual([c.owner]);
    expect(await f.client.readContract({ ...read, functionName: 'getThreshold' })).toBe(1n);
    expect(await f.client.readContract({ ...read, functionName: 'isModuleEnabled', args: [c.roles] })).toBe(true);
    const roles = { address: c.roles, abi: RolesAbi } as const;
    expect(await f.client.readContract({ ...roles, functionName: 'owner' })).toBe(c.safe);
    expect(await f.client.readContract({ ...roles, functionName: 'avatar' })).toBe(c.safe);
    expect(await f.client.readContract({ ...roles, functionName: 'target' })).toBe(c.safe);
    expect(await f.client.readContract({ address: c.owner, abi: CardSafeOwnerAbi, functionName: 'holder' })).toBe(
      f.addr(CREATOR),
    );
    // The owner is a clone of the chain's one implementation, for this card; neither can act as the other.
    expect(await f.client.readContract({ address: c.owner, abi: CardSafeOwnerAbi, functionName: 'cardOf' })).toEqual([
      f.card,
      c.cardId,
    ]);
    const implementation = f.chain.chain.contracts.cardSafeOwner!;
    await expectRevert(
      f.client.readContract({ address: implementation, abi: CardSafeOwnerAbi, functionName: 'holder' }),
      'CardSafeOwnerWrongInstance',
    );
    await expectRevert(
      f.client.simulateContract({
        address: c.owner,
        abi: CardSafeOwnerAbi,
        functionName: 'ownerFor',
        args: [f.card, c.cardId + 1n],
      }),
      'CardSafeOwnerWrongInstance',
    );
    expect(await companyCustodyAddresses(f.chain.chain, f.chain.chain.contracts, c.cardId)).toEqual({
      owner: c.owner,
      safe: c.safe,
      roles: c.roles,
    });
    // Run again (an interrupted or repeated setup): nothing is sent.
    const again = await setUpCompanyCustody(clients(), f.chain.chain.contracts, {
      cardId: c.cardId,
      agents: [{ address: c.agent.address, trade: true, stake: true }],
      limits: LIMITS,
    });
    expect(again.gas).toEqual({});
    const gas = c.setUpGas;
    const total = Object.values(gas).reduce((a, b) => a + b, 0n);
    console.log(
      `custody setup gas (seven agent keys, each trading and staking): ${JSON.stringify(gas, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))} total ${total}`,
    );
  }, 60_000);

  it('follows a card sale: the new holder moves the Safe’s money, the old holder no longer can', async () => {
    const c = await company();
    const withdraw = (to: Address, amount: bigint) => erc20('transfer', [to, amount]);
    // The creator, holding the card, takes 10 USDC out.
    const before = await usdcOf(f.addr(CREATOR));
    const out = await f.send(asHolder(c, CREATOR, f.usdcToken, withdraw(f.addr(CREATOR), usdc(10))));
    console.log(`holder withdrawal through the Safe: ${out.gasUsed} gas`);
    expect(await usdcOf(f.addr(CREATOR))).toBe(before + usdc(10));

    // The card is sold to BUYER.
    await f.send(
      f.wallet(CREATOR).writeContract({
        address: f.card,
        abi: AccessCardAbi,
        functionName: 'transferFrom',
        args: [f.addr(CREATOR), f.addr(BUYER), c.cardId],
      }),
    );
    // The old holder's signature is refused (GS026: an owner's signature that does not verify).
    const stale = await holderSignedExec(f.chain.chain, c, devAccount(CREATOR), {
      to: f.usdcToken,
      data: withdraw(f.addr(CREATOR), usdc(10)),
    });
    await expect(f.client.call({ account: f.addr(CREATOR), to: c.safe, data: stale })).rejects.toThrow(/GS024/);
    // Nor may the old holder approve a Safe transaction on-chain through the owner contract.
    const typed = await safeTxTypedData(f.chain.chain, c.safe, { to: f.usdcToken, data: withdraw(f.addr(BUYER), 1n) });
    const hash = await f.client.readContract({
      address: c.safe,
      abi: SafeL2Abi,
      functionName: 'getTransactionHash',
      args: [
        typed.message.to,
        typed.message.value,
        typed.message.data,
        typed.message.operation,
        0n,
        0n,
        0n,
        typed.message.gasToken,
        typed.message.refundReceiver,
        typed.message.nonce,
      ],
    });
    await expectRevert(
      f.client.simulateContract({
        account: f.addr(CREATOR),
        address: c.owner,
        abi: CardSafeOwnerAbi,
        functionName: 'approveHash',
        args: [c.safe, hash],
      }),
      'CardSafeOwnerNotHolder',
      [f.addr(CREATOR), f.addr(BUYER)],
    );
    expect(await usdcOf(c.safe)).toBe(usdc(4990));

    // The new holder signs and it goes through; or approves on-chain and anyone executes with that approval.
    const buyerBefore = await usdcOf(f.addr(BUYER));
    await f.send(asHolder(c, BUYER, f.usdcToken, withdraw(f.addr(BUYER), usdc(20))));
    expect(await usdcOf(f.addr(BUYER))).toBe(buyerBefore + usdc(20));
    const typed2 = await safeTxTypedData(f.chain.chain, c.safe, { to: f.usdcToken, data: withdraw(f.addr(BUYER), 1n) });
    const m = typed2.message;
    const args = [m.to, m.value, m.data, m.operation, 0n, 0n, 0n, m.gasToken, m.refundReceiver] as const;
    const hash2 = await f.client.readContract({
      address: c.safe,
      abi: SafeL2Abi,
      functionName: 'getTransactionHash',
      args: [...args, m.nonce],
    });
    await f.send(
      f
        .wallet(BUYER)
        .writeContract({ address: c.owner, abi: CardSafeOwnerAbi, functionName: 'approveHash', args: [c.safe, hash2] }),
    );
    // An approved hash: r = the approving owner, s = 0, v = 1.
    const approved = `${pad(c.owner, { size: 32 })}${'0'.repeat(64)}01` as Hex;
    await f.send(
      f
        .wallet(ATTACKER)
        .writeContract({ address: c.safe, abi: SafeL2Abi, functionName: 'execTransaction', args: [...args, approved] }),
    );
    expect(await usdcOf(c.safe)).toBe(usdc(4990) - usdc(20) - 1n);
  }, 60_000);
});

describe('an agent key limited by its role', () => {
  it('buys within its allowance; cannot overspend, send money elsewhere, approve another spender, change an owner or raise an allowance', async () => {
    const c = await company();
    const launcher = f.chain.chain.contracts.tokenLauncher!;
    const attacker = f.addr(ATTACKER);
    const attackerUsdc = await usdcOf(attacker);
    // The allowed path: approve the launcher, then buy within the per-trade cap.
    const approve = await f.send(asAgent(c, f.usdcToken, erc20('approve', [launcher, maxUint256])));
    const first = await f.send(asAgent(c, launcher, buyData(c.token, usdc(100))));
    const later = await f.send(asAgent(c, launcher, buyData(c.token, usdc(100))));
    const held = await tokensOf(c.token, c.safe);
    expect(held).toBeGreaterThan(0n);
    expect(await usdcOf(c.safe)).toBe(usdc(4800));
    await f.send(asAgent(c, c.token, erc20('approve', [launcher, maxUint256])));
    const sell = await f.send(
      asAgent(
        c,
        launcher,
        encodeFunctionData({ abi: TokenLauncherAbi, functionName: 'sell', args: [c.token, held / 2n, 0n, maxUint256] }),
      ),
    );
    console.log(
      `through Roles: USDC approve ${approve.gasUsed}, first buy ${first.gasUsed}, later buy ${later.gasUsed}, sell ${sell.gasUsed} gas`,
    );
    const refused = async (to: Address, data: Hex, status: number, operation: 0 | 1 = 0) => {
      const decoded = await expectRevert(simulateAsAgent(c, to, data, operation), 'ConditionViolation');
      expect(decoded.args[0]).toBe(status);
    };
    // Over the largest trade: 250 USDC.
    await refused(launcher, buyData(c.token, usdc(250) + 1n), Status.ParameterGreaterThanAllowed);
    // Money elsewhere: a transfer, an approval to another spender, the company token sent away.
    await refused(f.usdcToken, erc20('transfer', [attacker, usdc(1)]), Status.FunctionNotAllowed);
    await refused(f.usdcToken, erc20('approve', [attacker, maxUint256]), Status.ParameterNotAllowed);
    await refused(c.token, erc20('transfer', [attacker, 1n]), Status.FunctionNotAllowed);
    await refused(f.chain.chain.contracts.primaryToken!, erc20('approve', [attacker, 1n]), Status.ParameterNotAllowed);
    // The Safe itself: add an owner, enable another module.
    await refused(
      c.safe,
      encodeFunctionData({ abi: SafeL2Abi, functionName: 'addOwnerWithThreshold', args: [attacker, 1n] }),
      Status.TargetAddressNotAllowed,
    );
    await refused(
      c.safe,
      encodeFunctionData({ abi: SafeL2Abi, functionName: 'enableModule', args: [attacker] }),
      Status.TargetAddressNotAllowed,
    );
    // The module, through the Safe or directly: raise an allowance, give itself a role.
    const raise = encodeFunctionData({
      abi: RolesAbi,
      functionName: 'setAllowance',
      args: [DAILY_NOTIONAL_KEY, maxUint256 >> 128n, 0n, 0n, 0n, 0n],
    });
    await refused(c.roles, raise, Status.TargetAddressNotAllowed);
    await expectRevert(
      f.client.simulateContract({
        account: c.agent,
        address: c.roles,
        abi: RolesAbi,
        functionName: 'setAllowance',
        args: [DAILY_NOTIONAL_KEY, maxUint256 >> 128n, 0n, 0n, 0n, 0n],
      }),
      'OwnableUnauthorizedAccount',
      [c.agent.address],
    );
    // A delegatecall, even to an allowed target.
    await refused(launcher, buyData(c.token, usdc(1)), Status.DelegateCallNotAllowed, 1);
    // A role the key is not a member of, or another key in the agent's role: refused.
    await expectRevert(
      f.client.simulateContract({
        account: c.agent,
        address: c.roles,
        abi: RolesAbi,
        functionName: 'execTransactionWithRole',
        args: [launcher, 0n, buyData(c.token, usdc(1)), 0, pad('0x01', { size: 32 }), true],
      }),
      'NoMembership',
    );
    await expectRevert(
      f.client.simulateContract({
        account: attacker,
        address: c.roles,
        abi: RolesAbi,
        functionName: 'execTransactionWithRole',
        args: [launcher, 0n, buyData(c.token, usdc(1)), 0, TRADE_ROLE, true],
      }),
      'NotAuthorized',
      [attacker],
    );
    // The trading role cannot stake, nor the staking role trade.
    const crossed = await expectRevert(
      f.client.simulateContract({
        account: c.agent,
        address: c.roles,
        abi: RolesAbi,
        functionName: 'execTransactionWithRole',
        args: [launcher, 0n, buyData(c.token, usdc(1)), 0, STAKE_ROLE, true],
      }),
      'ConditionViolation',
    );
    expect(crossed.args[0]).toBe(Status.TargetAddressNotAllowed);

    // The daily allowance: 1,000 USDC of buys a day, 200 spent; three more of 250 exceed it at the third.
    await f.send(asAgent(c, launcher, buyData(c.token, usdc(250))));
    await f.send(asAgent(c, launcher, buyData(c.token, usdc(250))));
    await f.send(asAgent(c, launcher, buyData(c.token, usdc(250))));
    await refused(launcher, buyData(c.token, usdc(50) + 1n), Status.AllowanceExceeded);
    await f.send(asAgent(c, launcher, buyData(c.token, usdc(50))));
    await refused(launcher, buyData(c.token, 1n), Status.AllowanceExceeded);
    // A day later it has refilled (to the daily amount, never more).
    await f.advance(ONE_DAY_S);
    await f.send(asAgent(c, launcher, buyData(c.token, usdc(250))));
    const [, , , balance] = await f.client.readContract({
      address: c.roles,
      abi: RolesAbi,
      functionName: 'allowances',
      args: [DAILY_NOTIONAL_KEY],
    });
    // Refilled to the daily 1,000 (not 1,000 more than what was left), less the 250 just spent.
    expect(balance).toBe(usdc(750));
    // The attacker got nothing, and the Safe's owners are as they were.
    expect(await usdcOf(attacker)).toBe(attackerUsdc);
    expect(await f.client.readContract({ address: c.safe, abi: SafeL2Abi, functionName: 'getOwners' })).toEqual([
      c.owner,
    ]);
  }, 90_000);

  it('approves the launcher, and only it, for a token nobody listed (LauncherApprover by delegatecall), then sells it', async () => {
    const c = await company();
    const launcher = f.chain.chain.contracts.tokenLauncher!;
    const approver = f.chain.chain.contracts.launcherApprover!;
    const { token: other } = await f.launch({ key: keyOf('company-2'), name: 'Other Co', symbol: 'OTHR' });
    await f.send(asAgent(c, f.usdcToken, erc20('approve', [launcher, maxUint256])));
    await f.send(asAgent(c, launcher, buyData(other, usdc(50))));
    const held = await tokensOf(other, c.safe);
    expect(held).toBeGreaterThan(0n);
    const sellData = encodeFunctionData({
      abi: TokenLauncherAbi,
      functionName: 'sell',
      args: [other, held, 0n, maxUint256],
    });
    // Not listed at setup: a plain approve of it is refused; the sale fails without the approval.
    const plain = await expectRevert(
      simulateAsAgent(c, other, erc20('approve', [launcher, maxUint256])),
      'ConditionViolation',
    );
    expect(plain.args[0]).toBe(Status.TargetAddressNotAllowed);
    const failed = await simulateAsAgent(c, launcher, sellData).catch((err: unknown) => err);
    await expectRevert(Promise.reject(failed), 'ModuleTransactionFailed');
    // What an agent's action records instead of the module's bare failure: why the Safe's own call failed.
    const explained = await withSafeCallReason(f.chain.chain, c.safe, { to: launcher, data: sellData }, failed);
    expect((explained as Error).message).toMatch(
      /^execution reverted: the Safe's call failed: ERC20InsufficientAllowance\(0x[0-9a-fA-F]{40}, 0, \d+\)$/,
    );
    // An error that is not the module's is left as it is.
    const unrelated = new Error('fetch failed');
    expect(await withSafeCallReason(f.chain.chain, c.safe, { to: launcher, data: sellData }, unrelated)).toBe(
      unrelated,
    );
    // Through the approver, by delegatecall: the Safe approves the launcher.
    const approveLauncher = encodeFunctionData({
      abi: LauncherApproverAbi,
      functionName: 'approveLauncher',
      args: [other, maxUint256],
    });
    const approved = await f.send(asAgent(c, approver, approveLauncher, 1));
    console.log(`through Roles: approve the launcher by delegatecall ${approved.gasUsed} gas`);
    expect(
      await f.client.readContract({
        address: other,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [c.safe, launcher],
      }),
    ).toBe(maxUint256);
    const before = await usdcOf(c.safe);
    await f.send(asAgent(c, launcher, sellData));
    expect(await tokensOf(other, c.safe)).toBe(0n);
    expect(await usdcOf(c.safe)).toBeGreaterThan(before);
    // Called directly (not as the Safe), the approver refuses.
    await expectRevert(
      f.client.simulateContract({
        account: f.addr(ATTACKER),
        address: approver,
        abi: LauncherApproverAbi,
        functionName: 'approveLauncher',
        args: [other, maxUint256],
      }),
      'LauncherApproverNotDelegated',
    );
    // Its delegatecall is the role's only one: the staking role may not make it.
    const staking = await expectRevert(
      f.client.simulateContract({
        account: c.agent,
        address: c.roles,
        abi: RolesAbi,
        functionName: 'execTransactionWithRole',
        args: [approver, 0n, approveLauncher, 1, STAKE_ROLE, true],
      }),
      'ConditionViolation',
    );
    expect(staking.args[0]).toBe(Status.TargetAddressNotAllowed);
  }, 60_000);

  it('stakes, harvests and withdraws on the staking contract through its role, and only that', async () => {
    const c = await company();
    const staking = f.chain.chain.contracts.staking!;
    const primary = f.chain.chain.contracts.primaryToken!;
    await f.send(asAgent(c, primary, erc20('approve', [staking, maxUint256])));
    const stakingCall = (functionName: 'deposit' | 'withdraw', amount: bigint) =>
      encodeFunctionData({ abi: StakingAbi, functionName, args: [0n, amount] });
    const deposit = await f.send(asAgent(c, staking, stakingCall('deposit', parseEther('400'))));
    await f.advance(3600n);
    const harvest = await f.send(
      asAgent(c, staking, encodeFunctionData({ abi: StakingAbi, functionName: 'harvest', args: [0n] })),
    );
    const withdraw = await f.send(asAgent(c, staking, stakingCall('withdraw', parseEther('100'))));
    console.log(
      `through Roles: stake ${deposit.gasUsed}, harvest ${harvest.gasUsed}, withdraw ${withdraw.gasUsed} gas`,
    );
    const [amount] = await f.client.readContract({
      address: staking,
      abi: StakingAbi,
      functionName: 'userInfo',
      args: [0n, c.safe],
    });
    expect(amount).toBe(parseEther('300'));
    // The staking contract's other functions are not the role's.
    const decoded = await expectRevert(
      simulateAsAgent(
        c,
        staking,
        encodeFunctionData({ abi: StakingAbi, functionName: 'emergencyWithdraw', args: [0n] }),
      ),
      'ConditionViolation',
    );
    expect(decoded.args[0]).toBe(Status.FunctionNotAllowed);
  }, 60_000);
});

describe("the platform's manage role after the hand-over", () => {
  /** The platform's key sends `tx` (a manage role call) and waits for it. */
  const asPlatform = (tx: { to: Address; data: Hex }) =>
    f.send(f.wallet(0).sendTransaction({ ...tx, gas: 1_000_000n }));
  /** The platform's key has the Safe call its own module with `data` through the manage role, simulated. */
  const simulateManage = (
    c: Company,
    data: Hex,
    account: Address | ReturnType<typeof privateKeyToAccount> = f.addr(0),
  ) =>
    f.client.simulateContract({
      account,
      address: c.roles,
      abi: RolesAbi,
      functionName: 'execTransactionWithRole',
      args: [c.roles, 0n, data, 0, MANAGE_ROLE, true],
    });
  const rolesData = (functionName: string, args: readonly unknown[]) =>
    encodeFunctionData({ abi: RolesAbi, functionName: functionName as never, args: args as never });

  it('adds a hired agent key to the trading and staking roles and takes a terminated one out, whose stolen key then cannot act', async () => {
    const c = await company();
    const launcher = f.chain.chain.contracts.tokenLauncher!;
    expect(await isRoleMember(f.chain.chain, c.roles, TRADE_ROLE, c.agent.address)).toBe(true);
    expect(await isRoleMember(f.chain.chain, c.roles, STAKE_ROLE, c.agent.address)).toBe(true);
    const hired = privateKeyToAccount(generatePrivateKey());
    await f.client.setBalance({ address: hired.address, value: parseEther('1') });
    expect(await isRoleMember(f.chain.chain, c.roles, TRADE_ROLE, hired.address)).toBe(false);
    await asPlatform(membershipChangeTx(c.roles, hired.address, true));
    expect(await isRoleMember(f.chain.chain, c.roles, TRADE_ROLE, hired.address)).toBe(true);
    expect(await isRoleMember(f.chain.chain, c.roles, STAKE_ROLE, hired.address)).toBe(true);
    // The hired key buys through its role.
    const asHired = (to: Address, data: Hex) =>
      f.chain.chain.walletOf(hired).writeContract({
        address: c.roles,
        abi: RolesAbi,
        functionName: 'execTransactionWithRole',
        args: [to, 0n, data, 0, roleFor(to), true],
        gas: 1_000_000n,
      });
    await f.send(asHired(f.usdcToken, erc20('approve', [launcher, maxUint256])));
    await f.send(asHired(launcher, buyData(c.token, usdc(10))));
    expect(await usdcOf(c.safe)).toBe(usdc(4990));
    // The terminated agent's key is taken out of both roles: with the key in hand, the module refuses it.
    await asPlatform(membershipChangeTx(c.roles, c.agent.address, false));
    expect(await isRoleMember(f.chain.chain, c.roles, TRADE_ROLE, c.agent.address)).toBe(false);
    expect(await isRoleMember(f.chain.chain, c.roles, STAKE_ROLE, c.agent.address)).toBe(false);
    await expectRevert(simulateAsAgent(c, launcher, buyData(c.token, usdc(10))), 'NoMembership');
    await expectRevert(
      simulateAsAgent(
        c,
        f.chain.chain.contracts.staking!,
        encodeFunctionData({ abi: StakingAbi, functionName: 'harvest', args: [0n] }),
      ),
      'NoMembership',
    );
    // Nor can an agent key use the platform's manage role to put itself back.
    await expectRevert(
      simulateManage(c, rolesData('assignRoles', [c.agent.address, [TRADE_ROLE, STAKE_ROLE], [true, true]]), c.agent),
      'NoMembership',
    );
  });

  it('sets the daily allowance and the largest buy as the limits change, and nothing past the two roles and the allowance', async () => {
    const c = await company();
    const launcher = f.chain.chain.contracts.tokenLauncher!;
    expect(await readMaxTrade(f.chain.chain, f.chain.chain.contracts, c.roles)).toBe(LIMITS.maxTrade);
    await f.send(asAgent(c, f.usdcToken, erc20('approve', [launcher, maxUint256])));
    // Raised: the day's allowance to 2,000 USDC (today's balance with it) and the largest buy to 400.
    const now = (await f.client.getBlock()).timestamp;
    const dayStart = now - (now % ONE_DAY_S);
    await asPlatform(allowanceChangeTx(c.roles, usdc(2000), usdc(2000), dayStart));
    await asPlatform(maxTradeChangeTx(f.chain.chain.contracts, c.roles, usdc(400)));
    const [refill, maxRefill, period, balance] = await f.client.readContract({
      address: c.roles,
      abi: RolesAbi,
      functionName: 'allowances',
      args: [DAILY_NOTIONAL_KEY],
    });
    expect([refill, maxRefill, period, balance]).toEqual([usdc(2000), usdc(2000), ONE_DAY_S, usdc(2000)]);
    expect(await readMaxTrade(f.chain.chain, f.chain.chain.contracts, c.roles)).toBe(usdc(400));
    await f.send(asAgent(c, launcher, buyData(c.token, usdc(400))));
    const over = await expectRevert(
      simulateAsAgent(c, launcher, buyData(c.token, usdc(400) + 1n)),
      'ConditionViolation',
    );
    expect(over.args[0]).toBe(Status.ParameterGreaterThanAllowed);
    // Lowered: a buy between the new and the old cap is refused by the module.
    await asPlatform(maxTradeChangeTx(f.chain.chain.contracts, c.roles, usdc(50)));
    const lowered = await expectRevert(simulateAsAgent(c, launcher, buyData(c.token, usdc(51))), 'ConditionViolation');
    expect(lowered.args[0]).toBe(Status.ParameterGreaterThanAllowed);

    // What the manage role cannot do: give a role other than trading and staking (its own), set another allowance or
    // another period, scope another function or role, or call anything but the module's three functions.
    const manageRefused = async (data: Hex, status: number) => {
      const decoded = await expectRevert(simulateManage(c, data), 'ConditionViolation');
      expect(decoded.args[0], data.slice(0, 10)).toBe(status);
    };
    const attacker = f.addr(ATTACKER);
    await manageRefused(
      rolesData('assignRoles', [attacker, [MANAGE_ROLE, STAKE_ROLE], [true, true]]),
      Status.ParameterNotAllowed,
    );
    await manageRefused(rolesData('assignRoles', [attacker, [TRADE_ROLE], [true]]), Status.ParameterNotAMatch);
    const otherKey = pad('0x01', { size: 32 });
    await manageRefused(rolesData('setAllowance', [otherKey, 1n, 1n, 1n, ONE_DAY_S, 0n]), Status.ParameterNotAllowed);
    await manageRefused(
      rolesData('setAllowance', [DAILY_NOTIONAL_KEY, 1n, 1n, 1n, 1n, 0n]),
      Status.ParameterNotAllowed,
    );
    // The largest buy is the only scope it may write: not USDC's transfer for the trading role, not the buy for its own.
    await manageRefused(
      rolesData('scopeFunction', [TRADE_ROLE, f.usdcToken, '0xa9059cbb', [], 0]),
      Status.ParameterNotAllowed,
    );
    await manageRefused(
      rolesData('scopeFunction', [MANAGE_ROLE, launcher, '0xd6febde8', [], 0]),
      Status.ParameterNotAllowed,
    );
    await manageRefused(rolesData('allowTarget', [TRADE_ROLE, f.usdcToken, 0]), Status.FunctionNotAllowed);
    await manageRefused(rolesData('transferOwnership', [attacker]), Status.FunctionNotAllowed);
    // Nothing on the Safe or the tokens: its target is the module only.
    const onSafe = await expectRevert(
      f.client.simulateContract({
        account: f.addr(0),
        address: c.roles,
        abi: RolesAbi,
        functionName: 'execTransactionWithRole',
        args: [f.usdcToken, 0n, erc20('transfer', [attacker, 1n]), 0, MANAGE_ROLE, true],
      }),
      'ConditionViolation',
    );
    expect(onSafe.args[0]).toBe(Status.TargetAddressNotAllowed);
  });
});

describe('the creator leaves alone', () => {
  it('disables the module and takes everything out with their own wallet, with no platform key involved', async () => {
    const c = await company();
    const launcher = f.chain.chain.contracts.tokenLauncher!;
    await f.send(asAgent(c, f.usdcToken, erc20('approve', [launcher, maxUint256])));
    await f.send(asAgent(c, launcher, buyData(c.token, usdc(100))));
    const me = f.addr(CREATOR);
    // 1. Disable the module: no agent key reaches the Safe after this.
    const disable = await f.send(
      asHolder(
        c,
        CREATOR,
        c.safe,
        encodeFunctionData({ abi: SafeL2Abi, functionName: 'disableModule', args: [SENTINEL_MODULES, c.roles] }),
      ),
    );
    expect(
      await f.client.readContract({
        address: c.safe,
        abi: SafeL2Abi,
        functionName: 'isModuleEnabled',
        args: [c.roles],
      }),
    ).toBe(false);
    await expect(
      f.client.call({
        account: c.agent.address,
        to: c.roles,
        data: encodeFunctionData({
          abi: RolesAbi,
          functionName: 'execTransactionWithRole',
          args: [launcher, 0n, buyData(c.token, usdc(1)), 0, TRADE_ROLE, true],
        }),
      }),
    ).rejects.toThrow(/GS104/);
    // 2. Take the USDC, the company tokens and the primary tokens out.
    const usdcBefore = await usdcOf(me);
    const held = await usdcOf(c.safe);
    const withdraw = await f.send(asHolder(c, CREATOR, f.usdcToken, erc20('transfer', [me, held])));
    const tokens = await tokensOf(c.token, c.safe);
    await f.send(asHolder(c, CREATOR, c.token, erc20('transfer', [me, tokens])));
    const primary = f.chain.chain.contracts.primaryToken!;
    await f.send(asHolder(c, CREATOR, primary, erc20('transfer', [me, parseEther('1000')])));
    console.log(`creator's exit: disableModule ${disable.gasUsed}, USDC withdrawal ${withdraw.gasUsed} gas`);
    expect(await usdcOf(me)).toBe(usdcBefore + held);
    expect(await usdcOf(c.safe)).toBe(0n);
    expect(await tokensOf(c.token, c.safe)).toBe(0n);
    expect(await tokensOf(c.token, me)).toBe(tokens);
    // The platform's key sent none of these: its nonce did not move since the setup.
  }, 60_000);
});

/** Direct figures for comparison: the same buys from an agent's own wallet. */
describe('gas of the same calls from a plain wallet', () => {
  it('measures a first and a later buy and a sell without the module', async () => {
    const { token } = await f.launch();
    const launcher = f.chain.chain.contracts.tokenLauncher!;
    await f.ready(4, token);
    const buy = (amount: bigint) =>
      f.send(
        f.wallet(4).writeContract({
          address: launcher,
          abi: TokenLauncherAbi,
          functionName: 'buy',
          args: [token, amount, 0n, maxUint256],
        }),
      );
    const first = await buy(usdc(100));
    const later = await buy(usdc(100));
    const held = await tokensOf(token, f.addr(4));
    const sell = await f.send(
      f.wallet(4).writeContract({
        address: launcher,
        abi: TokenLauncherAbi,
        functionName: 'sell',
        args: [token, held / 2n, 0n, maxUint256],
      }),
    );
    console.log(`direct: first buy ${first.gasUsed}, later buy ${later.gasUsed}, sell ${sell.gasUsed} gas`);
    expect(held).toBeGreaterThan(0n);
  }, 60_000);
});

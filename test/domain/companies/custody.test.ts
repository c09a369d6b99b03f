// COMPANY_CUSTODY=safe: deploy-suite gives the company its Safe (its card's holder the only one who controls it) and
// a Roles module its agent keys are members of; a second deploy-suite sends nothing more. The chain-side rules (a
// card sale, a stolen key, the creator's exit) are test/contracts/custody.test.ts's.

import { CardSafeOwnerAbi, MockUSDCAbi, RolesAbi, SafeL2Abi } from '@ai-economy/shared/abis';
import { asc, eq, like } from 'drizzle-orm';
import { type Address, encodeFunctionData, erc20Abi, maxUint256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { devAccount } from '../../../src/chain/client.ts';
import { companyCustodyAddresses } from '../../../src/chain/custody.ts';
import { isRoleMember, readMaxTrade } from '../../../src/chain/custody-roles.ts';
import {
  DAILY_NOTIONAL_KEY,
  grantManageRoleCalls,
  MANAGE_ROLE,
  STAKE_ROLE,
  TRADE_ROLE,
} from '../../../src/chain/custody-scopes.ts';
import { agents } from '../../../src/db/schema/agents.ts';
import { chainTxs } from '../../../src/db/schema/chain.ts';
import { companies } from '../../../src/db/schema/companies.ts';
import { companyTreasuries, treasuryObservations } from '../../../src/db/schema/treasuries.ts';
import { custodyLimits, syncCustodyLimits } from '../../../src/domain/companies/custody.ts';
import { jobs, runJobOnce } from '../../../src/jobs/scheduler.ts';
import { useTestApp } from '../../helpers/app.ts';
import { signed, staffedCompany } from '../../helpers/companies.ts';
import { holderSignedExec } from '../../helpers/safe.ts';
import { treasuryHelpers } from '../../helpers/treasuries.ts';

const t = useTestApp({ env: { COMPANY_CUSTODY: 'safe' } });
const tr = treasuryHelpers(t);

describe('custody set up by deploy-suite', () => {
  it('gives the company a Safe its card holder controls and a module its agent keys are members of', async () => {
    const { id } = await staffedCompany(t, 1, { name: 'Custody Co' });
    const db = t.database.db;
    const [row] = await db.select().from(companies).where(eq(companies.id, id));
    const chain = t.chain.chain;
    const expected = await companyCustodyAddresses(chain, chain.contracts, BigInt(row!.cardTokenId));
    expect({ safe: row!.safeAddress, roles: row!.rolesModuleAddress, owner: row!.safeOwnerAddress }).toEqual(expected);
    const read = chain.publicClient;
    expect(await read.readContract({ address: expected.safe, abi: SafeL2Abi, functionName: 'getOwners' })).toEqual([
      expected.owner,
    ]);
    expect(await read.readContract({ address: expected.owner, abi: CardSafeOwnerAbi, functionName: 'holder' })).toBe(
      devAccount(1).address,
    );
    expect(await read.readContract({ address: expected.roles, abi: RolesAbi, functionName: 'owner' })).toBe(
      expected.safe,
    );

    // Each live agent key may approve the launcher through the trading role (a member); a stranger may not.
    const keys = await db.select().from(agents).where(eq(agents.companyId, id));
    expect(keys.length).toBe(7);
    const approve = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [chain.contracts.tokenLauncher!, maxUint256],
    });
    for (const agent of keys) {
      await read.simulateContract({
        account: agent.onChainAddress as Address,
        address: expected.roles,
        abi: RolesAbi,
        functionName: 'execTransactionWithRole',
        args: [chain.contracts.usdc!, 0n, approve, 0, TRADE_ROLE, true],
      });
    }
    await expect(
      read.simulateContract({
        account: devAccount(5).address,
        address: expected.roles,
        abi: RolesAbi,
        functionName: 'execTransactionWithRole',
        args: [chain.contracts.usdc!, 0n, approve, 0, TRADE_ROLE, true],
      }),
    ).rejects.toThrow(/NotAuthorized/);

    // The allowance is the company's daily notional (the default 1,000 USDC).
    const [, , period, balance] = await read.readContract({
      address: expected.roles,
      abi: RolesAbi,
      functionName: 'allowances',
      args: [DAILY_NOTIONAL_KEY],
    });
    expect({ period, balance }).toEqual({ period: 86_400n, balance: custodyLimits(null).dailyNotional });

    // The holder moves money the company holds with their own signature.
    const wallet = t.chain.wallet(1);
    await read.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: chain.contracts.usdc!,
        abi: MockUSDCAbi,
        functionName: 'transfer',
        args: [expected.safe, 5_000_000n],
      }),
    });
    const exec = await holderSignedExec(chain, expected, devAccount(1), {
      to: chain.contracts.usdc!,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [devAccount(1).address, 2_000_000n] }),
    });
    const receipt = await read.waitForTransactionReceipt({
      hash: await wallet.sendTransaction({ to: expected.safe, data: exec }),
    });
    expect(receipt.status).toBe('success');

    // A second deploy-suite finds the custody in place and sends nothing for it.
    const platform = chain.platform.account.address;
    const nonce = await read.getTransactionCount({ address: platform });
    expect((await signed(t.app, 1, 'POST', `/api/companies/${id}/deploy-suite`)).statusCode).toBe(200);
    expect(await read.getTransactionCount({ address: platform })).toBe(nonce);
  }, 120_000);

  it('limits from the company’s settings: the day’s buys and the largest buy (the position limit, never above the day)', () => {
    expect(custodyLimits(null)).toEqual({ dailyNotional: 1_000_000_000n, maxTrade: 1_000_000_000n });
    expect(custodyLimits({ limits: { maxDailyNotionalUsdc: '5000', maxPositionUsdc: '750' } } as never)).toEqual({
      dailyNotional: 5_000_000_000n,
      maxTrade: 750_000_000n,
    });
  });

  it('makes the Safe the treasury of a company that has none, and the treasury stream follows its USDC', async () => {
    const { id } = await staffedCompany(t, 2, { name: 'Safe Treasury Co' });
    const db = t.database.db;
    const [row] = await db.select().from(companies).where(eq(companies.id, id));
    expect(row!.treasuryAddress).toBe(row!.safeAddress);
    expect(row!.treasuryProvenAt).not.toBeNull();
    expect(await db.select().from(companyTreasuries).where(eq(companyTreasuries.companyId, id))).toMatchObject([
      { address: row!.safeAddress, untilTime: null },
    ]);
    // Money in: a USDC transfer to the Safe is a treasury observation (what the Fortune List averages).
    const safe = row!.safeAddress as Address;
    const chain = t.chain.chain;
    await chain.publicClient.waitForTransactionReceipt({
      hash: await t.chain.wallet(2).writeContract({
        address: chain.contracts.usdc!,
        abi: MockUSDCAbi,
        functionName: 'transfer',
        args: [safe, 7_000_000n],
      }),
    });
    await tr.index();
    const seen = await db
      .select()
      .from(treasuryObservations)
      .where(eq(treasuryObservations.address, safe))
      .orderBy(asc(treasuryObservations.blockNumber), asc(treasuryObservations.logIndex));
    expect(seen.at(-1)!.balance).toBe(7_000_000n);
    expect(seen.at(-1)!.logIndex).toBeGreaterThanOrEqual(0);
    const view = (await t.app.inject({ method: 'GET', url: `/api/companies/${id}` })).json().data;
    expect(view.treasuryAddress).toBe(safe);
    expect(view.custody).toEqual({ safe, rolesModule: row!.rolesModuleAddress, owner: row!.safeOwnerAddress });
  }, 120_000);

  it('keeps a treasury the creator set: the Safe is only the default', async () => {
    const own = '0x00000000000000000000000000000000000bA5e3';
    const { id } = await staffedCompany(t, 3, { name: 'Own Treasury Co', treasuryAddress: own });
    const [row] = await t.database.db.select().from(companies).where(eq(companies.id, id));
    expect(row!.safeAddress).toMatch(/^0x/);
    expect(row!.treasuryAddress?.toLowerCase()).toBe(own.toLowerCase());
    // The holder may make the company's own Safe its treasury without an acceptance; another address needs one.
    const put = (treasuryAddress: string) =>
      signed(t.app, 3, 'PUT', `/api/companies/${id}/treasury`, { treasuryAddress });
    expect((await put('0x00000000000000000000000000000000000bA5e4')).statusCode).toBe(400);
    const res = await put(row!.safeAddress!);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.treasuryAddress).toBe(row!.safeAddress);
  }, 120_000);
});

describe('custody kept in step after the setup', () => {
  const chain = () => t.chain.chain;
  const platformNonce = () => chain().publicClient.getTransactionCount({ address: chain().platform.account.address });
  const member = async (roles: Address, address: Address) => ({
    trade: await isRoleMember(chain(), roles, TRADE_ROLE, address),
    stake: await isRoleMember(chain(), roles, STAKE_ROLE, address),
  });
  const keysLike = async (pattern: string) =>
    (await t.database.db.select({ key: chainTxs.key }).from(chainTxs).where(like(chainTxs.key, pattern))).map(
      (r) => r.key,
    );

  it('takes a terminated agent out of the roles once (a repeated termination finishes an interrupted one), and a re-hired agent joins them', async () => {
    const { id, cfo } = await staffedCompany(t, 4, { name: 'Rehire Co' });
    const db = t.database.db;
    const [row] = await db.select().from(companies).where(eq(companies.id, id));
    const roles = row!.rolesModuleAddress as Address;
    expect(await member(roles, cfo.address)).toEqual({ trade: true, stake: true });

    const terminate = () => signed(t.app, 4, 'DELETE', `/api/agents/${cfo.id}`);
    expect((await terminate()).statusCode).toBe(200);
    expect(await member(roles, cfo.address)).toEqual({ trade: false, stake: false });
    expect(await keysLike(`custody:${id}:member-off:%`)).toEqual([`custody:${id}:member-off:${cfo.id}`]);
    // The stolen-key angle: the terminated agent's key, in anyone's hands, is refused by the module.
    const approve = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [chain().contracts.tokenLauncher!, maxUint256],
    });
    await expect(
      chain().publicClient.simulateContract({
        account: cfo.address,
        address: roles,
        abi: RolesAbi,
        functionName: 'execTransactionWithRole',
        args: [chain().contracts.usdc!, 0n, approve, 0, TRADE_ROLE, true],
      }),
    ).rejects.toThrow(/NoMembership/);
    // Repeated: nothing more is sent.
    const nonce = await platformNonce();
    expect((await terminate()).statusCode).toBe(200);
    expect(await platformNonce()).toBe(nonce);

    // An interrupted termination (the row TERMINATED, the process gone before the module heard of it) is finished by
    // the same request again.
    const cto = (await db.select().from(agents).where(eq(agents.companyId, id))).find((a) => a.role === 'CTO')!;
    await db.update(agents).set({ status: 'TERMINATED' }).where(eq(agents.id, cto.id));
    expect(await member(roles, cto.onChainAddress as Address)).toEqual({ trade: true, stake: true });
    expect((await signed(t.app, 4, 'DELETE', `/api/agents/${cto.id}`)).statusCode).toBe(200);
    expect(await member(roles, cto.onChainAddress as Address)).toEqual({ trade: false, stake: false });

    // deploy-suite hires the two roles again: the new keys join, the old ones stay out.
    expect((await signed(t.app, 4, 'POST', `/api/companies/${id}/deploy-suite`)).statusCode).toBe(200);
    const live = (await db.select().from(agents).where(eq(agents.companyId, id))).filter(
      (a) => a.status !== 'TERMINATED',
    );
    expect(live.length).toBe(7);
    for (const agent of live) {
      expect(await member(roles, agent.onChainAddress as Address), agent.role!).toEqual({ trade: true, stake: true });
    }
    expect(await member(roles, cfo.address)).toEqual({ trade: false, stake: false });
    expect((await keysLike(`custody:${id}:member-on:%`)).length).toBe(2);
    // Once: a further deploy-suite sends nothing.
    const after = await platformNonce();
    expect((await signed(t.app, 4, 'POST', `/api/companies/${id}/deploy-suite`)).statusCode).toBe(200);
    expect(await platformNonce()).toBe(after);
  }, 120_000);

  it("pushes a change of the company's limits to the module's allowance and largest buy, once", async () => {
    const { id } = await staffedCompany(t, 5, { name: 'Limits Co' });
    const db = t.database.db;
    const [row] = await db.select().from(companies).where(eq(companies.id, id));
    const roles = row!.rolesModuleAddress as Address;
    const onChain = async () => {
      const [refill, maxRefill, period, balance] = await chain().publicClient.readContract({
        address: roles,
        abi: RolesAbi,
        functionName: 'allowances',
        args: [DAILY_NOTIONAL_KEY],
      });
      return { refill, maxRefill, period, balance, maxTrade: await readMaxTrade(chain(), chain().contracts, roles) };
    };
    const setLimits = (limits: Record<string, string> | null) =>
      signed(t.app, 5, 'PATCH', `/api/companies/${id}`, { toolkitConfig: limits ? { limits } : null });
    expect(await onChain()).toEqual({
      refill: 1_000_000_000n,
      maxRefill: 1_000_000_000n,
      period: 86_400n,
      balance: 1_000_000_000n,
      maxTrade: 1_000_000_000n,
    });

    const raised = { maxDailyNotionalUsdc: '2000', maxPositionUsdc: '300' };
    let res = await setLimits(raised);
    expect(res.statusCode, res.body).toBe(200);
    expect(await onChain()).toEqual({
      refill: 2_000_000_000n,
      maxRefill: 2_000_000_000n,
      period: 86_400n,
      balance: 2_000_000_000n,
      maxTrade: 300_000_000n,
    });
    // The same limits again: nothing is sent.
    let nonce = await platformNonce();
    expect((await setLimits(raised)).statusCode).toBe(200);
    expect(await platformNonce()).toBe(nonce);
    // Back to the defaults, then raised again: each change reaches the chain (an earlier change's key is not reused).
    expect((await setLimits(null)).statusCode).toBe(200);
    expect((await onChain()).maxTrade).toBe(1_000_000_000n);
    expect((await setLimits(raised)).statusCode).toBe(200);
    expect(await onChain()).toMatchObject({ refill: 2_000_000_000n, maxTrade: 300_000_000n });
    expect((await keysLike(`custody:${id}:allowance:2000000000:%`)).sort()).toEqual([
      `custody:${id}:allowance:2000000000:0`,
      `custody:${id}:allowance:2000000000:1`,
    ]);

    // Interrupted (the settings saved, the process gone before the module heard of them): the next deploy-suite or
    // the same request again finishes it, once.
    await db
      .update(companies)
      .set({ toolkitConfig: { limits: { maxDailyNotionalUsdc: '1500', maxPositionUsdc: '200' } } as never })
      .where(eq(companies.id, id));
    expect((await signed(t.app, 5, 'POST', `/api/companies/${id}/deploy-suite`)).statusCode).toBe(200);
    expect(await onChain()).toMatchObject({ refill: 1_500_000_000n, maxTrade: 200_000_000n });
    nonce = await platformNonce();
    res = await setLimits({ maxDailyNotionalUsdc: '1500', maxPositionUsdc: '200' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await platformNonce()).toBe(nonce);
  }, 120_000);
});

describe('a module the platform may not change (no manage role)', () => {
  const chain = () => t.chain.chain;
  const platform = () => chain().platform.account.address;
  const platformNonce = () => chain().publicClient.getTransactionCount({ address: platform() });
  const member = async (roles: Address, address: Address) => ({
    trade: await isRoleMember(chain(), roles, TRADE_ROLE, address),
    stake: await isRoleMember(chain(), roles, STAKE_ROLE, address),
  });
  const onChainLimits = async (roles: Address) => {
    const [refill] = await chain().publicClient.readContract({
      address: roles,
      abi: RolesAbi,
      functionName: 'allowances',
      args: [DAILY_NOTIONAL_KEY],
    });
    return { refill, maxTrade: await readMaxTrade(chain(), chain().contracts, roles) };
  };
  const reconcile = jobs.find((j) => j.name === 'reconcile-custody')!;

  it('answers 409 with what the holder can do, keeps deploy-suite working, and the reconcile job finishes once the role is back', async () => {
    const { id, cfo } = await staffedCompany(t, 6, { name: 'Unmanaged Co' });
    const db = t.database.db;
    const [row] = await db.select().from(companies).where(eq(companies.id, id));
    const custody = { safe: row!.safeAddress as Address, owner: row!.safeOwnerAddress as Address };
    const roles = row!.rolesModuleAddress as Address;
    // The holder's Safe transactions to the module, sent with their own wallet.
    const holderCalls = async (calls: `0x${string}`[]) => {
      for (const data of calls) {
        const exec = await holderSignedExec(chain(), custody, devAccount(6), { to: roles, data });
        const receipt = await chain().publicClient.waitForTransactionReceipt({
          hash: await t.chain.wallet(6).sendTransaction({ to: custody.safe, data: exec }),
        });
        expect(receipt.status).toBe('success');
      }
    };
    // The holder takes the manage role away (docs/contracts.md "Trust assumptions" says they may), and its target
    // too, as a module set up before the role existed has none.
    const rolesCall = (functionName: 'assignRoles' | 'revokeTarget', args: unknown[]) =>
      encodeFunctionData({ abi: RolesAbi, functionName, args: args as never });
    await holderCalls([
      rolesCall('assignRoles', [platform(), [MANAGE_ROLE], [false]]),
      rolesCall('revokeTarget', [MANAGE_ROLE, roles]),
    ]);
    expect(await isRoleMember(chain(), roles, MANAGE_ROLE, platform())).toBe(false);

    // Terminating: the agent is TERMINATED on the platform (the engine no longer acts for it), and the answer says
    // its key is still a member and what the holder does about it; nothing is sent.
    let nonce = await platformNonce();
    const gone = await signed(t.app, 6, 'DELETE', `/api/agents/${cfo.id}`);
    expect(gone.statusCode, gone.body).toBe(409);
    expect(gone.json().error.message).toMatch(/manage role/);
    expect(gone.json().error.message).toContain(cfo.address);
    expect((await db.select().from(agents).where(eq(agents.id, cfo.id)))[0]!.status).toBe('TERMINATED');
    expect(await member(roles, cfo.address)).toEqual({ trade: true, stake: true });

    // Limits: saved (the code enforces them at once), 409 for the module, which keeps its own.
    const limits = { maxDailyNotionalUsdc: '2000', maxPositionUsdc: '300' };
    const patch = await signed(t.app, 6, 'PATCH', `/api/companies/${id}`, { toolkitConfig: { limits } });
    expect(patch.statusCode, patch.body).toBe(409);
    expect(patch.json().error.message).toMatch(/2000 USDC a day and 300 USDC a buy/);
    expect((await db.select().from(companies).where(eq(companies.id, id)))[0]!.toolkitConfig).toEqual({ limits });
    expect(await onChainLimits(roles)).toEqual({ refill: 1_000_000_000n, maxTrade: 1_000_000_000n });
    expect(await platformNonce()).toBe(nonce);

    // deploy-suite still works (it hires the CFO again; the new key waits for the role too).
    const again = await signed(t.app, 6, 'POST', `/api/companies/${id}/deploy-suite`);
    expect(again.statusCode, again.body).toBe(200);
    const newCfo = (await db.select().from(agents).where(eq(agents.companyId, id))).find(
      (a) => a.role === 'CFO' && a.status !== 'TERMINATED',
    )!;
    expect(await member(roles, newCfo.onChainAddress as Address)).toEqual({ trade: false, stake: false });

    // The reconcile job waits, sending nothing.
    nonce = await platformNonce();
    expect(await runJobOnce(reconcile, t.container)).toBe(true);
    expect(await platformNonce()).toBe(nonce);

    // The holder gives the role back (its scopes and the membership): the next run takes the old key out, puts the
    // new one in and moves the limits.
    await holderCalls(grantManageRoleCalls(chain().contracts, roles, platform()));
    expect(await isRoleMember(chain(), roles, MANAGE_ROLE, platform())).toBe(true);
    expect(await runJobOnce(reconcile, t.container)).toBe(true);
    expect(await member(roles, cfo.address)).toEqual({ trade: false, stake: false });
    expect(await member(roles, newCfo.onChainAddress as Address)).toEqual({ trade: true, stake: true });
    expect(await onChainLimits(roles)).toEqual({ refill: 2_000_000_000n, maxTrade: 300_000_000n });
    // In step: a further run sends nothing, and so does the repeated termination.
    nonce = await platformNonce();
    expect(await runJobOnce(reconcile, t.container)).toBe(true);
    expect((await signed(t.app, 6, 'DELETE', `/api/agents/${cfo.id}`)).statusCode).toBe(200);
    expect(await platformNonce()).toBe(nonce);
  }, 180_000);

  it('syncs the limits saved last, not those of the request whose sync ran late', async () => {
    const { id } = await staffedCompany(t, 7, { name: 'Late Sync Co' });
    const db = t.database.db;
    const [row] = await db.select().from(companies).where(eq(companies.id, id));
    const roles = row!.rolesModuleAddress as Address;
    // Two changes together: the first saved 3000/400, the second saved 1500/200 after it and synced first. The
    // first request's sync runs last, holding its own (older) settings: the module must end on the saved ones.
    const saved = { limits: { maxDailyNotionalUsdc: '1500', maxPositionUsdc: '200' } };
    await db.update(companies).set({ toolkitConfig: saved }).where(eq(companies.id, id));
    await syncCustodyLimits(t.container, row!);
    const stale = { ...row!, toolkitConfig: { limits: { maxDailyNotionalUsdc: '3000', maxPositionUsdc: '400' } } };
    await syncCustodyLimits(t.container, stale);
    expect(await onChainLimits(roles)).toEqual({ refill: 1_500_000_000n, maxTrade: 200_000_000n });
  }, 120_000);
});

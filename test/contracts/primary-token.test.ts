// The primary token's admin: one admin (the deployer), handed over in two steps with a delay
// (AccessControlDefaultAdminRules), so no key can take the admin role, and with it the right to mint, in one
// transaction. Minting stays with MINTER_ROLE.

import { PrimaryTokenAbi } from '@ai-economy/shared/abis';
import { describe, expect, it } from 'vitest';
import { expectRevert } from '../helpers/revert.ts';
import { useCardChain } from './fixture.ts';

const f = useCardChain();
const token = () => f.chain.chain.contracts.primaryToken!;
const read = (functionName: string, args: readonly unknown[] = []) =>
  f.client.readContract({ address: token(), abi: PrimaryTokenAbi, functionName, args } as never) as Promise<unknown>;
const simulate = (i: number, functionName: string, args: readonly unknown[] = []) =>
  f.client.simulateContract({
    address: token(),
    abi: PrimaryTokenAbi,
    functionName,
    args,
    account: f.wallet(i).account,
  } as never);
const write = (i: number, functionName: string, args: readonly unknown[] = []) =>
  f.send(f.wallet(i).writeContract({ address: token(), abi: PrimaryTokenAbi, functionName, args } as never));

describe('PrimaryToken admin', () => {
  it('has one admin, the deployer, with a 2-day hand-over delay', async () => {
    expect(await read('defaultAdmin')).toBe(f.addr(0));
    expect(await read('defaultAdminDelay')).toBe(2 * 86_400);
    expect(await read('ADMIN_DELAY')).toBe(2 * 86_400);
  });

  it('cannot grant the admin role directly, nor hand it over before the delay has passed', async () => {
    const admin = await read('DEFAULT_ADMIN_ROLE');
    await expectRevert(simulate(0, 'grantRole', [admin, f.addr(1)]), 'AccessControlEnforcedDefaultAdminRules', []);
    await write(0, 'beginDefaultAdminTransfer', [f.addr(1)]);
    // Just inside the delay: refused.
    await f.client.increaseTime({ seconds: 2 * 86_400 - 10 });
    await f.client.mine({ blocks: 1 });
    await expectRevert(simulate(1, 'acceptDefaultAdminTransfer'), 'AccessControlEnforcedDefaultAdminDelay');
    expect(await read('defaultAdmin')).toBe(f.addr(0));
    // Past it: the new admin accepts, and only then may grant the minting role.
    await f.client.increaseTime({ seconds: 20 });
    await f.client.mine({ blocks: 1 });
    await write(1, 'acceptDefaultAdminTransfer');
    expect(await read('defaultAdmin')).toBe(f.addr(1));
    const minter = await read('MINTER_ROLE');
    await expectRevert(simulate(0, 'grantRole', [minter, f.addr(0)]), 'AccessControlUnauthorizedAccount');
  });
});

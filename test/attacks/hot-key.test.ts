// Attack: the platform's hot key (PLATFORM_PRIVATE_KEY, which the service signs with every day) changes the rules.
// Audit round four measured, on a fresh `npm start`, that the key could grant itself the primary token's minter role
// and mint 1,000,000,000 tokens, raise the distributor's cap, change its oracle, redirect the launcher's fees, raise
// the staking emission, withdraw the card sales and change the card's platform, each at once. The local chain is now
// deployed as `cli deploy --owner` deploys a real one: every one of those powers belongs to the platform's timelock
// (two days at least), whose proposer is the operator's multisig (a dev account stands in for it here), and the hot
// key keeps only what it does every day. Each attack below is sent from the hot key as a mined transaction.

import {
  AccessCardAbi,
  DecisionAnchorAbi,
  EpochDistributorAbi,
  PlatformFeeHookAbi,
  PlatformTimelockAbi,
  PrimaryTokenAbi,
  StakingAbi,
  TokenLauncherAbi,
  ValidationRegistryAbi,
} from '@ai-economy/shared/abis';
import fc from 'fast-check';
import { type Abi, type Address, encodeFunctionData, type Hex, maxUint96, parseEther, zeroHash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilNode, startAnvil } from '../../src/chain/anvil.ts';
import { type ChainClients, createChainClients, devAccount, type Wallet } from '../../src/chain/client.ts';
import type { ContractsFile } from '../../src/chain/contracts/addresses.ts';
import { deployLocalContracts } from '../../src/chain/deploy.ts';
import { LOCAL_OWNER_ACCOUNT, OWNER_DELAY_S } from '../../src/chain/deploy-owner.ts';
import { hotKeyProblems, readRoles } from '../../src/chain/roles.ts';
import { anvilTestClient } from '../helpers/chain.ts';

let node: AnvilNode;
let clients: ChainClients;
let file: ContractsFile;
const attacker = devAccount(7).address;
const c = () => file.contracts as Record<string, Address>;
const read = (address: Address, abi: Abi, functionName: string, args: unknown[] = []) =>
  clients.publicClient.readContract({ address, abi, functionName, args });

beforeAll(async () => {
  node = await startAnvil();
  clients = createChainClients({ chainId: 31337, rpcUrl: node.rpcUrl, local: true, timeoutMs: 10_000 });
  // What `npm start` deploys on its local chain.
  file = await deployLocalContracts(clients, undefined, { baseUrl: 'http://localhost' });
});
afterAll(async () => {
  await node?.stop();
});

/** Sends the call from `wallet` as a mined transaction (a fixed gas limit, so a refusal is mined too); its status. */
async function attempt(wallet: Wallet, address: Address, abi: Abi, functionName: string, args: readonly unknown[]) {
  const hash = await wallet.writeContract({ address, abi, functionName, args, gas: 500_000n } as never);
  return (await clients.publicClient.waitForTransactionReceipt({ hash })).status;
}

describe("the platform's hot key", () => {
  it('cannot grant itself the minter role, nor mint a single primary token', async () => {
    const hot = clients.platform;
    const token = c().primaryToken!;
    const minter = (await read(token, PrimaryTokenAbi, 'MINTER_ROLE')) as Hex;
    const supply = await read(token, PrimaryTokenAbi, 'totalSupply');
    expect(await attempt(hot, token, PrimaryTokenAbi, 'grantRole', [minter, hot.account.address])).toBe('reverted');
    expect(await attempt(hot, token, PrimaryTokenAbi, 'mint', [attacker, parseEther('1000000000')])).toBe('reverted');
    expect(await read(token, PrimaryTokenAbi, 'totalSupply')).toBe(supply);
    expect(await read(token, PrimaryTokenAbi, 'hasRole', [minter, hot.account.address])).toBe(false);
  });

  it("cannot raise the distributor's cap or change its oracle", async () => {
    const hot = clients.platform;
    const d = c().distributor!;
    const cap = await read(d, EpochDistributorAbi, 'maxRewardPool');
    const oracle = await read(d, EpochDistributorAbi, 'oracle');
    expect(await attempt(hot, d, EpochDistributorAbi, 'setMaxRewardPool', [maxUint96])).toBe('reverted');
    expect(await attempt(hot, d, EpochDistributorAbi, 'setOracle', [attacker])).toBe('reverted');
    expect(await read(d, EpochDistributorAbi, 'maxRewardPool')).toBe(cap);
    expect(await read(d, EpochDistributorAbi, 'oracle')).toBe(oracle);
  });

  it("cannot redirect the launcher's fees, raise the staking emission, withdraw card sales or move the card's platform", async () => {
    const hot = clients.platform;
    expect(await attempt(hot, c().tokenLauncher!, TokenLauncherAbi, 'setFeeRecipient', [attacker])).toBe('reverted');
    expect(await attempt(hot, c().staking!, StakingAbi, 'setEmissionPerSecond', [parseEther('1000')])).toBe('reverted');
    expect(await attempt(hot, c().accessCard!, AccessCardAbi, 'withdraw', [attacker])).toBe('reverted');
    expect(await attempt(hot, c().accessCard!, AccessCardAbi, 'setPlatform', [attacker])).toBe('reverted');
    expect(await read(c().tokenLauncher!, TokenLauncherAbi, 'feeRecipient')).not.toBe(attacker);
    expect(await read(c().accessCard!, AccessCardAbi, 'platform')).toBe(hot.account.address);
  });

  it('may stop card sales at once (the emergency pause), but not open them again', async () => {
    const hot = clients.platform;
    const card = c().accessCard!;
    expect(await read(card, AccessCardAbi, 'mintActive')).toBe(true);
    expect(await attempt(clients.walletOf(devAccount(7)), card, AccessCardAbi, 'pauseMinting', [])).toBe('reverted');
    expect(await attempt(hot, card, AccessCardAbi, 'pauseMinting', [])).toBe('success');
    expect(await read(card, AccessCardAbi, 'mintActive')).toBe(false);
    expect(await attempt(hot, card, AccessCardAbi, 'setMintActive', [true])).toBe('reverted');
    expect(await read(card, AccessCardAbi, 'mintActive')).toBe(false);
  });

  it('cannot schedule through the timelock either; the owner can, and it takes effect only after two days', async () => {
    const hot = clients.platform;
    const timelock = c().timelock!;
    const d = c().distributor!;
    const data = encodeFunctionData({ abi: EpochDistributorAbi, functionName: 'setMaxRewardPool', args: [1n] });
    const op = [d, 0n, data, zeroHash, zeroHash] as const;
    const delay = (await read(timelock, PlatformTimelockAbi, 'getMinDelay')) as bigint;
    expect(delay).toBeGreaterThanOrEqual(2n * 86_400n);
    expect(await attempt(hot, timelock, PlatformTimelockAbi, 'schedule', [...op, delay])).toBe('reverted');

    const owner = clients.walletOf(devAccount(9));
    expect(await attempt(owner, timelock, PlatformTimelockAbi, 'schedule', [...op, delay])).toBe('success');
    expect(await attempt(owner, timelock, PlatformTimelockAbi, 'execute', op)).toBe('reverted');
    const test = anvilTestClient(node.rpcUrl);
    await test.increaseTime({ seconds: Number(delay) - 60 });
    await test.mine({ blocks: 1 });
    expect(await attempt(owner, timelock, PlatformTimelockAbi, 'execute', op)).toBe('reverted');
    await test.increaseTime({ seconds: 60 });
    await test.mine({ blocks: 1 });
    expect(await attempt(owner, timelock, PlatformTimelockAbi, 'execute', op)).toBe('success');
    expect(await read(d, EpochDistributorAbi, 'maxRewardPool')).toBe(1n);
  });
});

describe('every role the deployment creates', () => {
  it('belongs to the timelock, or is a daily power, or is the one minter of its token', async () => {
    const report = await readRoles({ publicClient: clients.publicClient, contracts: c() });
    const timelock = c().timelock!;
    const owner = devAccount(LOCAL_OWNER_ACCOUNT).address;
    const hot = [clients.platform.account.address, clients.oracle.account.address];
    for (const p of report.powers) {
      const label = `${p.contract} ${p.power} ${p.holder}`;
      if (p.daily) {
        // Daily powers are the service's own keys (and the fee recipient, an address that only receives).
        expect(hot, label).toContain(p.holder);
      } else if (p.contract === 'primaryToken' && p.power === 'MINTER_ROLE') {
        expect(p.holder, label).toBe(c().distributor);
      } else if (p.contract === 'emissionToken') {
        expect(p.holder, label).toBe(c().staking);
      } else if (p.contract === 'timelock' && p.power !== 'DEFAULT_ADMIN_ROLE') {
        expect(p.holder, label).toBe(owner);
      } else {
        expect(p.holder, label).toBe(timelock);
      }
    }
    // Every owned contract is owned, none has an ownership hand-over open, and the token has one admin.
    const owners = report.powers.filter((p) => p.power === 'owner').map((p) => p.contract);
    expect(owners.sort()).toEqual(
      [
        'accessCard',
        'decisionAnchor',
        'distributor',
        'feeHook',
        'staking',
        'tokenLauncher',
        'validationRegistry',
      ].sort(),
    );
    expect(report.powers.filter((p) => p.power.startsWith('pending'))).toEqual([]);
    expect(report.powers.filter((p) => p.power === 'MINTER_ROLE')).toHaveLength(1);
    expect(report.ownerDelaySeconds).toBeGreaterThanOrEqual(Number(OWNER_DELAY_S));
    expect(hotKeyProblems(report, hot, Number(OWNER_DELAY_S))).toEqual([]);
  });

  it('refuses every owner power to every key but the timelock, whatever the arguments (property)', async () => {
    const token = c().primaryToken!;
    const minter = (await read(token, PrimaryTokenAbi, 'MINTER_ROLE')) as Hex;
    const supply = await read(token, PrimaryTokenAbi, 'totalSupply');
    const address = fc.constantFrom(...[0, 1, 3, 7, LOCAL_OWNER_ACCOUNT].map((i) => devAccount(i).address));
    const amount = fc.bigInt({ min: 0n, max: maxUint96 });
    const powers: fc.Arbitrary<[Address, Abi, string, unknown[]]>[] = [
      fc.tuple(address).map(([a]) => [token, PrimaryTokenAbi, 'grantRole', [minter, a]]),
      fc.tuple(address, amount).map(([a, n]) => [token, PrimaryTokenAbi, 'mint', [a, n]]),
      fc.tuple(address).map(([a]) => [token, PrimaryTokenAbi, 'beginDefaultAdminTransfer', [a]]),
      fc.tuple(address).map(([a]) => [token, PrimaryTokenAbi, 'revokeRole', [minter, a]]),
      amount.map((n) => [c().distributor!, EpochDistributorAbi, 'setMaxRewardPool', [n]]),
      address.map((a) => [c().distributor!, EpochDistributorAbi, 'setOracle', [a]]),
      address.map((a) => [c().tokenLauncher!, TokenLauncherAbi, 'setFeeRecipient', [a]]),
      address.map((a) => [c().tokenLauncher!, TokenLauncherAbi, 'setPlatform', [a]]),
      fc.integer({ min: 0, max: 1000 }).map((n) => [c().tokenLauncher!, TokenLauncherAbi, 'setCurveFee', [n]]),
      address.map((a) => [c().feeHook!, PlatformFeeHookAbi, 'setFeeRecipient', [a]]),
      amount.map((n) => [c().staking!, StakingAbi, 'setEmissionPerSecond', [n]]),
      amount.map((n) => [c().staking!, StakingAbi, 'setBoostCap', [5n, n]]),
      amount.map((n) => [c().staking!, StakingAbi, 'setAllocPoint', [0n, n]]),
      address.map((a) => [c().staking!, StakingAbi, 'addPool', [a, 1n]]),
      address.map((a) => [c().accessCard!, AccessCardAbi, 'withdraw', [a]]),
      address.map((a) => [c().accessCard!, AccessCardAbi, 'setPlatform', [a]]),
      fc.boolean().map((b) => [c().accessCard!, AccessCardAbi, 'setMintActive', [b]]),
      amount.map((n) => [c().accessCard!, AccessCardAbi, 'setMintPrice', [n]]),
      address.map((a) => [c().decisionAnchor!, DecisionAnchorAbi, 'setPlatform', [a]]),
      fc
        .tuple(address, fc.boolean())
        .map(([a, b]) => [c().validationRegistry!, ValidationRegistryAbi, 'setValidator', [a, b]]),
      ...(['accessCard', 'staking', 'distributor', 'tokenLauncher'] as const).flatMap((k) => [
        address.map((a): [Address, Abi, string, unknown[]] => [c()[k]!, AccessCardAbi, 'transferOwnership', [a]]),
        fc.constant<[Address, Abi, string, unknown[]]>([c()[k]!, AccessCardAbi, 'renounceOwnership', []]),
      ]),
    ];
    const caller = fc.constantFrom(0, 1, 3, 7, LOCAL_OWNER_ACCOUNT);
    await fc.assert(
      fc.asyncProperty(caller, fc.oneof(...powers), async (i, [to, abi, functionName, args]) => {
        const account = devAccount(i).address;
        await expect(
          clients.publicClient.simulateContract({ account, address: to, abi, functionName, args } as never),
        ).rejects.toThrow();
      }),
      { numRuns: 60 },
    );
    expect(await read(token, PrimaryTokenAbi, 'totalSupply')).toBe(supply);
  });
});

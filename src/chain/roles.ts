// Who holds each power of the deployed contracts, read from the chain: `npm run cli -- keys` prints it,
// `GET /api/chain` shows its summary (`roles`), and a production start warns when the service's own keys hold a
// power they should not. A power is either daily (the hot keys use it every day: the card's and the launcher's
// platform, the anchor's platform, the validators, the distributor's oracle, the card's emergency pause) or an
// owner's (everything that changes the rules or mints), which belongs to the platform's timelock.

import {
  AccessCardAbi,
  DecisionAnchorAbi,
  EmissionTokenAbi,
  EpochDistributorAbi,
  PlatformFeeHookAbi,
  PlatformTimelockAbi,
  PrimaryTokenAbi,
  TokenLauncherAbi,
} from '@ai-economy/shared/abis';
import { type Abi, type Address, getAddress, type Hex, parseAbiItem, zeroAddress } from 'viem';
import type { Chain } from './client.ts';
import type { ContractKey } from './contracts/addresses.ts';
import { OWNABLE_ABI, OWNED_CONTRACTS, TIMELOCK_ROLES } from './deploy-owner.ts';

export interface Power {
  contract: ContractKey;
  /** What the holder may do: `owner`, `pendingOwner`, `MINTER_ROLE`, `platform`, `oracle`, ... */
  power: string;
  holder: Address;
  /** Used every day by the service (a hot key may hold it), or an owner's power (only the timelock may). */
  daily: boolean;
}

export interface RolesReport {
  powers: Power[];
  /** The timelock's delay in seconds; null without a timelock. */
  ownerDelaySeconds: number | null;
}

const ROLE_GRANTED = parseAbiItem(
  'event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender)',
);
const ROLE_REVOKED = parseAbiItem(
  'event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender)',
);
const VALIDATOR_SET = parseAbiItem('event ValidatorSet(address indexed validatorAddress, bool allowed)');

type ChainView = Pick<Chain, 'publicClient' | 'contracts' | 'deployBlocks'>;

/** The holders of every AccessControl role of `address` now, replayed from its grants and revocations. */
async function roleHolders(chain: ChainView, key: ContractKey): Promise<Map<Hex, Set<Address>>> {
  const address = chain.contracts[key]!;
  const fromBlock = chain.deployBlocks?.[key] ?? 0n;
  const [granted, revoked] = await Promise.all([
    chain.publicClient.getLogs({ address, event: ROLE_GRANTED, fromBlock, toBlock: 'latest' }),
    chain.publicClient.getLogs({ address, event: ROLE_REVOKED, fromBlock, toBlock: 'latest' }),
  ]);
  const events = [...granted.map((l) => ({ l, on: true })), ...revoked.map((l) => ({ l, on: false }))].sort(
    (a, b) => Number((a.l.blockNumber ?? 0n) - (b.l.blockNumber ?? 0n)) || (a.l.logIndex ?? 0) - (b.l.logIndex ?? 0),
  );
  const holders = new Map<Hex, Set<Address>>();
  for (const { l, on } of events) {
    const role = l.args.role!;
    const set = holders.get(role) ?? new Set<Address>();
    if (on) set.add(getAddress(l.args.account!));
    else set.delete(getAddress(l.args.account!));
    holders.set(role, set);
  }
  return holders;
}

const read = (chain: ChainView, address: Address, abi: Abi, functionName: string) =>
  chain.publicClient.readContract({ address, abi, functionName, args: [] } as never) as Promise<unknown>;

/** Every power of the deployment and its holder, read from the chain. */
export async function readRoles(chain: ChainView): Promise<RolesReport> {
  const c = chain.contracts;
  const powers: Power[] = [];
  const add = (contract: ContractKey, power: string, holder: unknown, daily: boolean) => {
    if (typeof holder === 'string' && holder !== zeroAddress)
      powers.push({ contract, power, holder: getAddress(holder), daily });
  };
  await Promise.all(
    OWNED_CONTRACTS.filter((k) => c[k]).map(async (key) => {
      const [owner, pending] = await Promise.all([
        read(chain, c[key]!, OWNABLE_ABI, 'owner'),
        read(chain, c[key]!, OWNABLE_ABI, 'pendingOwner'),
      ]);
      add(key, 'owner', owner, false);
      add(key, 'pendingOwner', pending, false);
    }),
  );
  const reads: Promise<void>[] = [];
  const one = (key: ContractKey, abi: Abi, fn: string, power: string, daily: boolean) => {
    if (c[key]) reads.push(read(chain, c[key]!, abi, fn).then((v) => add(key, power, v, daily)));
  };
  one('accessCard', AccessCardAbi, 'platform', 'platform (company deployments, emergency pause)', true);
  one('decisionAnchor', DecisionAnchorAbi, 'platform', 'platform (anchoring)', true);
  one('tokenLauncher', TokenLauncherAbi, 'platform', 'platform (launches)', true);
  one('tokenLauncher', TokenLauncherAbi, 'feeRecipient', 'feeRecipient', true);
  one('feeHook', PlatformFeeHookAbi, 'feeRecipient', 'feeRecipient', true);
  one('distributor', EpochDistributorAbi, 'oracle', 'oracle (finalizes epochs within the cap)', true);
  one('emissionToken', EmissionTokenAbi, 'minter', 'minter', false);
  if (c.primaryToken) {
    reads.push(
      (async () => {
        const token = c.primaryToken!;
        add('primaryToken', 'DEFAULT_ADMIN_ROLE', await read(chain, token, PrimaryTokenAbi, 'defaultAdmin'), false);
        const [pendingAdmin] = (await read(chain, token, PrimaryTokenAbi, 'pendingDefaultAdmin')) as [Address, number];
        add('primaryToken', 'pendingDefaultAdmin', pendingAdmin, false);
        const minter = (await read(chain, token, PrimaryTokenAbi, 'MINTER_ROLE')) as Hex;
        for (const holder of (await roleHolders(chain, 'primaryToken')).get(minter) ?? []) {
          add('primaryToken', 'MINTER_ROLE', holder, false);
        }
      })(),
    );
  }
  if (c.validationRegistry) {
    reads.push(
      (async () => {
        const logs = await chain.publicClient.getLogs({
          address: c.validationRegistry!,
          event: VALIDATOR_SET,
          fromBlock: chain.deployBlocks?.validationRegistry ?? 0n,
          toBlock: 'latest',
        });
        const allowed = new Map<Address, boolean>();
        for (const l of logs) allowed.set(getAddress(l.args.validatorAddress!), l.args.allowed!);
        for (const [v, on] of allowed) if (on) add('validationRegistry', 'validator', v, true);
      })(),
    );
  }
  let ownerDelaySeconds: number | null = null;
  if (c.timelock) {
    reads.push(
      (async () => {
        ownerDelaySeconds = Number(await read(chain, c.timelock!, PlatformTimelockAbi, 'getMinDelay'));
        const holders = await roleHolders(chain, 'timelock');
        for (const [name, role] of Object.entries(TIMELOCK_ROLES)) {
          for (const holder of holders.get(role) ?? []) add('timelock', name, holder, false);
        }
      })(),
    );
  }
  await Promise.all(reads);
  const order = (p: Power) => `${p.contract} ${p.power} ${p.holder}`;
  powers.sort((a, b) => order(a).localeCompare(order(b)));
  return { powers, ownerDelaySeconds };
}

/**
 * What the service's own keys hold that they should not: any owner's power, a timelock delay below two days, or no
 * timelock at all. One line each; empty when the deployment is in its intended shape.
 */
export function hotKeyProblems(report: RolesReport, hotKeys: readonly Address[], minDelaySeconds: number): string[] {
  const hot = new Set(hotKeys.map((k) => getAddress(k)));
  const problems = report.powers
    .filter((p) => !p.daily && hot.has(p.holder))
    .map((p) => `the service's key ${p.holder} holds ${p.power} of the ${p.contract}`);
  if (report.ownerDelaySeconds === null) problems.push('the deployment has no timelock owning its contracts');
  else if (report.ownerDelaySeconds < minDelaySeconds) {
    problems.push(`the timelock's delay is ${report.ownerDelaySeconds} s, below ${minDelaySeconds} s`);
  }
  return problems;
}

/**
 * The production start's check: the problems `hotKeyProblems` finds for the service's platform and oracle keys,
 * each passed to `warn`. A chain that does not answer is reported once, as a warning too: the start goes on.
 */
export async function warnHotKeyPowers(
  chain: Pick<Chain, 'publicClient' | 'contracts' | 'deployBlocks' | 'platform' | 'oracle'>,
  minDelaySeconds: number,
  warn: (line: string) => void,
): Promise<void> {
  try {
    const report = await readRoles(chain);
    const keys = [chain.platform.account.address, chain.oracle.account.address];
    for (const problem of hotKeyProblems(report, keys, minDelaySeconds)) {
      warn(`${problem}: a stolen key could change the rules at once (docs/operations.md "Handing the keys over")`);
    }
  } catch (err) {
    warn(`could not check which powers the service's keys hold: ${(err as Error).message}`);
  }
}

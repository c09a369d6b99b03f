// The owner of a deployment: every power that changes the rules or mints belongs to the platform's
// timelock (contracts/PlatformTimelock.sol, OpenZeppelin's TimelockController), whose proposer is the operator's
// multisig (`cli deploy --owner`; a dev account on the local chain). The hot key that deploys keeps none of them.
// The timelock is deployed with a delay of zero and the deployer as a temporary proposer, executor and admin, so the
// deployment can act through it while it wires the contracts (the primary token's minter grants); `handOver` then
// gives every contract to the timelock, raises its delay to two days through the timelock itself, and has the
// deployer renounce its roles. Every step reads the chain first, so a resumed deployment repeats none of them.
import { randomBytes } from 'node:crypto';
import { AccessCardAbi, PlatformTimelockAbi, PrimaryTokenAbi } from '@ai-economy/shared/abis';
import { type Abi, type Address, encodeFunctionData, getAddress, type Hex, toHex, zeroAddress, zeroHash } from 'viem';
import type { ChainClients } from './client.ts';
import { devAccount } from './client.ts';
import type { ContractKey, ContractsFile } from './contracts/addresses.ts';
import { sendAndWait } from './deploy-steps.ts';

/** The timelock's delay once deployed (its MIN_DELAY: it refuses anything shorter). */
export const OWNER_DELAY_S = 2n * 86_400n;

/** The dev account standing in for the operator's multisig on the local chain: the timelock's proposer. */
export const LOCAL_OWNER_ACCOUNT = 9;

export function localOwner(): Address {
  return devAccount(LOCAL_OWNER_ACCOUNT).address;
}

/** The contracts the owner owns (Ownable2Step): the timelock after the hand-over. */
export const OWNED_CONTRACTS = [
  'accessCard',
  'decisionAnchor',
  'validationRegistry',
  'staking',
  'tokenLauncher',
  'feeHook',
  'distributor',
] as const satisfies readonly ContractKey[];

/** The timelock's roles, by the names OpenZeppelin gives them (keccak256 of the name; the admin's is zero). */
export const TIMELOCK_ROLES = {
  DEFAULT_ADMIN_ROLE: zeroHash,
  PROPOSER_ROLE: '0xb09aa5aeb3702cfd50b6b62bc4532604938f21248a27a1d5ca736082b6819cc1',
  EXECUTOR_ROLE: '0xd8aa0f3194971a2a116679f7c2090f6939c8d4e01a2a8d7e41d55e5351469e63',
  CANCELLER_ROLE: '0xfd643c72710c63c0180259aba6b2d05451e3591a24e58b62239378085726f783',
} as const satisfies Record<string, Hex>;

/** The constructor arguments of the timelock: delay 0, the owner and the deployer propose and execute. */
export function timelockArgs(owner: Address, deployer: Address): unknown[] {
  return [0n, [owner, deployer], [owner, deployer], deployer];
}

export interface Call {
  to: Address;
  data: Hex;
}

export function call(to: Address, abi: Abi, functionName: string, args: readonly unknown[] = []): Call {
  return { to, data: encodeFunctionData({ abi, functionName, args } as never) };
}

/** Whether the deployer may still act through the timelock at once: delay 0 and the deployer a proposer. */
export async function inSetUp(clients: ChainClients, timelock: Address): Promise<boolean> {
  const tl = { address: timelock, abi: PlatformTimelockAbi } as const;
  const [delay, proposer] = await Promise.all([
    clients.publicClient.readContract({ ...tl, functionName: 'getMinDelay' }),
    clients.publicClient.readContract({
      ...tl,
      functionName: 'hasRole',
      args: [TIMELOCK_ROLES.PROPOSER_ROLE, clients.platform.account.address],
    }),
  ]);
  return delay === 0n && proposer;
}

/** Schedules `calls` as one batch at delay 0 and executes it; only during the timelock's set-up. */
export async function runThroughTimelock(clients: ChainClients, timelock: Address, calls: Call[]): Promise<void> {
  if (calls.length === 0) return;
  const targets = calls.map((c) => c.to);
  const values = calls.map(() => 0n);
  const payloads = calls.map((c) => c.data);
  // A fresh salt: a batch that was scheduled and not executed before an interruption stays as it was, unused.
  const salt = toHex(randomBytes(32));
  const tl = { address: timelock, abi: PlatformTimelockAbi } as const;
  await sendAndWait(
    clients,
    clients.platform.writeContract({
      ...tl,
      functionName: 'scheduleBatch',
      args: [targets, values, payloads, zeroHash, salt, 0n],
    }),
  );
  await sendAndWait(
    clients,
    clients.platform.writeContract({
      ...tl,
      functionName: 'executeBatch',
      args: [targets, values, payloads, zeroHash, salt],
    }),
  );
}

/**
 * Runs `calls` as the primary token's admin: from the deployer where it is still the admin (a deployment without a
 * timelock, or one made before it), through the timelock while it is in its set-up. Answers false, doing nothing,
 * when neither can act at once (a finished deployment: its admin waits two days).
 */
export async function runAsTokenAdmin(
  clients: ChainClients,
  primaryToken: Address,
  timelock: Address | undefined,
  calls: (admin: Address) => Call[],
): Promise<boolean> {
  const admin = await clients.publicClient.readContract({
    address: primaryToken,
    abi: PrimaryTokenAbi,
    functionName: 'defaultAdmin',
  });
  const deployer = clients.platform.account.address;
  if (getAddress(admin) === getAddress(deployer)) {
    for (const c of calls(deployer)) await sendAndWait(clients, clients.platform.sendTransaction({ ...c }));
    return true;
  }
  if (timelock && getAddress(admin) === getAddress(timelock) && (await inSetUp(clients, timelock))) {
    await runThroughTimelock(clients, timelock, calls(timelock));
    return true;
  }
  return false;
}

const OWNABLE_ABI = [
  { type: 'function', name: 'owner', stateMutability: 'view', inputs: [], outputs: [{ type: 'address' }] },
  { type: 'function', name: 'pendingOwner', stateMutability: 'view', inputs: [], outputs: [{ type: 'address' }] },
  {
    type: 'function',
    name: 'transferOwnership',
    stateMutability: 'nonpayable',
    inputs: [{ type: 'address' }],
    outputs: [],
  },
  { type: 'function', name: 'acceptOwnership', stateMutability: 'nonpayable', inputs: [], outputs: [] },
] as const satisfies Abi;
export { OWNABLE_ABI };

/**
 * Gives every owned contract and the primary token's admin role to the timelock, raises its delay to
 * OWNER_DELAY_S and has the deployer renounce its timelock roles, once each.
 */
export async function handOver(clients: ChainClients, file: ContractsFile, log: (line: string) => void): Promise<void> {
  const read = clients.publicClient;
  const timelock = file.contracts.timelock!;
  const deployer = getAddress(clients.platform.account.address);
  const accepts: Call[] = [];
  for (const key of OWNED_CONTRACTS) {
    const address = file.contracts[key]!;
    const c = { address, abi: OWNABLE_ABI } as const;
    const [owner, pending] = await Promise.all([
      read.readContract({ ...c, functionName: 'owner' }),
      read.readContract({ ...c, functionName: 'pendingOwner' }),
    ]);
    if (getAddress(owner) === getAddress(timelock)) continue;
    if (getAddress(owner) !== deployer) {
      throw new Error(`the ${key} at ${address} is owned by ${owner}, neither the deployer nor the timelock`);
    }
    if (getAddress(pending) !== getAddress(timelock)) {
      await sendAndWait(
        clients,
        clients.platform.writeContract({ ...c, functionName: 'transferOwnership', args: [timelock] }),
      );
    }
    accepts.push(call(address, OWNABLE_ABI, 'acceptOwnership'));
  }
  if (accepts.length > 0) {
    if (!(await inSetUp(clients, timelock))) {
      throw new Error(
        `the timelock ${timelock} is out of its set-up: its proposer accepts the ownership of the remaining contracts (docs/operations.md)`,
      );
    }
    await runThroughTimelock(clients, timelock, accepts);
    log(`the timelock ${timelock} owns ${OWNED_CONTRACTS.join(', ')}`);
  }

  // The primary token of a deployment made before the timelock: its admin hand-over waits the token's own two days.
  const token = { address: file.contracts.primaryToken!, abi: PrimaryTokenAbi } as const;
  const admin = await read.readContract({ ...token, functionName: 'defaultAdmin' });
  if (getAddress(admin) === deployer) {
    const [pendingAdmin, schedule] = await read.readContract({ ...token, functionName: 'pendingDefaultAdmin' });
    if (getAddress(pendingAdmin) !== getAddress(timelock)) {
      await sendAndWait(
        clients,
        clients.platform.writeContract({ ...token, functionName: 'beginDefaultAdminTransfer', args: [timelock] }),
      );
    }
    log(
      `the primary token's admin is still the deployer: its hand-over to the timelock began${pendingAdmin === zeroAddress ? '' : ` (acceptable from ${new Date(Number(schedule) * 1000).toISOString()})`}; the timelock's proposer accepts it (docs/operations.md "Handing the keys over")`,
    );
  }

  const tl = { address: timelock, abi: PlatformTimelockAbi } as const;
  const delay = await read.readContract({ ...tl, functionName: 'getMinDelay' });
  if (delay < OWNER_DELAY_S) {
    await runThroughTimelock(clients, timelock, [call(timelock, PlatformTimelockAbi, 'updateDelay', [OWNER_DELAY_S])]);
  }
  for (const role of Object.values(TIMELOCK_ROLES)) {
    if (await read.readContract({ ...tl, functionName: 'hasRole', args: [role, deployer] })) {
      await sendAndWait(
        clients,
        clients.platform.writeContract({ ...tl, functionName: 'renounceRole', args: [role, deployer] }),
      );
    }
  }
}

/** Opens card minting while the deployer still owns the card (a development chain); the owner does it later. */
export async function deployerOwns(clients: ChainClients, accessCard: Address): Promise<boolean> {
  const owner = await clients.publicClient.readContract({
    address: accessCard,
    abi: AccessCardAbi,
    functionName: 'owner',
  });
  return getAddress(owner) === getAddress(clients.platform.account.address);
}

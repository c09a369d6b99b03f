// What the platform reads from a company's Roles module and the calls it makes through it once custody is set up
// (custody.ts): role membership, the largest buy, the daily allowance; the manage role's changes; an agent key's
// call through its role.

import { LauncherApproverAbi, RolesAbi } from '@ai-economy/shared/abis';
import { revertDataOf } from '@ai-economy/shared/revert';
import {
  type Address,
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  pad,
  parseAbiParameters,
  toHex,
} from 'viem';
import { loadArtifact } from './artifacts.ts';
import type { ChainClients } from './client.ts';
import type { ContractAddresses } from './contracts/addresses.ts';
import { requireContract } from './contracts/addresses.ts';
import {
  buyConditions,
  type Capability,
  DAILY_NOTIONAL_KEY,
  MANAGE_ROLE,
  NO_VALUE_NO_DELEGATECALL,
  ONE_DAY_S,
  ROLE_OF,
  rolesCall,
  STAKE_ROLE,
  selectorOf,
  TRADE_ROLE,
} from './custody-scopes.ts';
import { decodeRevert } from './revert.ts';

/**
 * Storage slot of Roles' `roles` mapping (Core.sol, after the inherited Modifier's storage); a role's `members`
 * mapping is the first field of its struct. Checked against `assignRoles` by test/contracts/custody.test.ts.
 */
const ROLES_MAPPING_SLOT = 4n;

/** The conditions' code read so far, by address (the reconcile job reads every company's largest buy each minute). */
const conditionsCode = new Map<Address, Hex>();

/** Whether `member` is a member of `role` on the module `roles` (Roles keeps no getter for it). */
export async function isRoleMember(
  clients: Pick<ChainClients, 'publicClient'>,
  roles: Address,
  role: Hex,
  member: Address,
): Promise<boolean> {
  const roleSlot = keccak256(encodeAbiParameters(parseAbiParameters('bytes32, uint256'), [role, ROLES_MAPPING_SLOT]));
  const slot = keccak256(encodeAbiParameters(parseAbiParameters('address, bytes32'), [member, roleSlot]));
  const value = await clients.publicClient.getStorageAt({ address: roles, slot });
  return value !== undefined && BigInt(value) !== 0n;
}

/**
 * The largest buy the trading role allows now (USDC base units): read from the conditions the module stored for the
 * launcher's `buy` (Roles keeps them as the code of a contract: the packed conditions, then one word per compared
 * value, here the cap plus one and the daily allowance's key). Undefined when the role has no such scope.
 */
export async function readMaxTrade(
  clients: Pick<ChainClients, 'publicClient'>,
  contracts: ContractAddresses,
  roles: Address,
): Promise<bigint | undefined> {
  const roleSlot = BigInt(
    keccak256(encodeAbiParameters(parseAbiParameters('bytes32, uint256'), [TRADE_ROLE, ROLES_MAPPING_SLOT])),
  );
  const key = pad(
    concat([requireContract(contracts, 'tokenLauncher'), selectorOf(loadArtifact('TokenLauncher').abi, 'buy')]),
    {
      size: 32,
      dir: 'right',
    },
  );
  // scopeConfig is the struct's third field (members, targets, scopeConfig).
  const slot = keccak256(encodeAbiParameters(parseAbiParameters('bytes32, uint256'), [key, roleSlot + 2n]));
  const header = await clients.publicClient.getStorageAt({ address: roles, slot });
  if (header === undefined || BigInt(header) === 0n) return undefined;
  const pointer = getAddress(pad(toHex(BigInt(header) & ((1n << 160n) - 1n)), { size: 20 }));
  const code = conditionsCode.get(pointer) ?? (await clients.publicClient.getCode({ address: pointer }));
  // Roles writes conditions once, to an address their content chooses (CREATE2): the code at it never changes.
  if (code && code !== '0x') conditionsCode.set(pointer, code);
  if (!code || code.length < 2 + 128) return undefined;
  const words = code.slice(-128);
  const last = `0x${words.slice(64)}` as Hex;
  if (last.toLowerCase() !== DAILY_NOTIONAL_KEY.toLowerCase()) return undefined;
  return BigInt(`0x${words.slice(0, 64)}`) - 1n;
}

/** The platform's transaction, through its manage role, by which the Safe calls its own module with `data`. */
function manageTx(roles: Address, data: Hex) {
  return {
    to: roles,
    data: encodeFunctionData({
      abi: RolesAbi,
      functionName: 'execTransactionWithRole',
      args: [roles, 0n, data, 0, MANAGE_ROLE, true],
    }),
  };
}

/** The platform makes `agent` a member of the trading and staking roles (`on`), or takes it out of both. */
export function membershipChangeTx(roles: Address, agent: Address, on: boolean) {
  return manageTx(roles, rolesCall('assignRoles', [agent, [TRADE_ROLE, STAKE_ROLE], [on, on]]));
}

/**
 * The platform sets the daily allowance to `daily` a day from `dayStart` (00:00 UTC of the chain's day), with
 * `balance` left today.
 */
export function allowanceChangeTx(roles: Address, daily: bigint, balance: bigint, dayStart: bigint) {
  return manageTx(roles, rolesCall('setAllowance', [DAILY_NOTIONAL_KEY, balance, daily, daily, ONE_DAY_S, dayStart]));
}

/** The platform sets the largest buy of the trading role to `maxTrade` (USDC base units). */
export function maxTradeChangeTx(contracts: ContractAddresses, roles: Address, maxTrade: bigint) {
  const launcher = requireContract(contracts, 'tokenLauncher');
  return manageTx(
    roles,
    rolesCall('scopeFunction', [
      TRADE_ROLE,
      launcher,
      selectorOf(loadArtifact('TokenLauncher').abi, 'buy'),
      buyConditions(maxTrade),
      NO_VALUE_NO_DELEGATECALL,
    ]),
  );
}

/** A call the Safe makes through the company's Roles module, as the role `role` of the signing agent key. */
export interface RoleCall {
  to: Address;
  data: Hex;
  /** 1: a delegatecall (LauncherApprover's, the only one a role may make). */
  operation?: 0 | 1;
  gasFloor?: bigint;
}

/**
 * The module's extra gas a call costs at most (its conditions read from code, the allowance written): about 40,000 to
 * 95,000 measured (docs/contracts.md "Custody"), with room.
 */
export const ROLES_GAS_OVERHEAD = 120_000n;

/**
 * `execTransactionWithRole` on `roles` for `call`, reverting when the module refuses it or the Safe's call fails (so
 * a refusal is a reverted transaction, never a success that did nothing). Sent by an agent key that is a member.
 */
export function roleTx(roles: Address, role: Capability, call: RoleCall) {
  return {
    to: roles,
    data: encodeFunctionData({
      abi: RolesAbi,
      functionName: 'execTransactionWithRole',
      args: [call.to, 0n, call.data, call.operation ?? 0, ROLE_OF[role], true],
    }),
    ...(call.gasFloor !== undefined && { gasFloor: call.gasFloor + ROLES_GAS_OVERHEAD }),
  };
}

/**
 * Why the Safe's own call of a module transaction fails: the module reports any failure of it as
 * `ModuleTransactionFailed()`, so the call is run again as an eth_call from the Safe and its revert decoded (a
 * slippage bound, an allowance short). Undefined when it passes now, or is a delegatecall (which cannot be run so).
 */
async function safeCallRevert(
  chain: Pick<ChainClients, 'publicClient'>,
  safe: Address,
  call: RoleCall,
): Promise<string | undefined> {
  if ((call.operation ?? 0) !== 0) return undefined;
  try {
    await chain.publicClient.call({ account: safe, to: call.to, data: call.data });
    return undefined;
  } catch (err) {
    const data = revertDataOf(err);
    return data ? decodeRevert(data) : undefined;
  }
}

/**
 * `err` of sending `call` through the module, saying why the Safe's call failed when the module says only
 * `ModuleTransactionFailed()` (an action's record then reads, e.g., `LauncherSlippage(...)`: the price moved past the
 * slippage bound); any other error as it is.
 */
export async function withSafeCallReason(
  chain: Pick<ChainClients, 'publicClient'>,
  safe: Address,
  call: RoleCall,
  err: unknown,
): Promise<unknown> {
  const data = revertDataOf(err);
  if (!data || decodeRevert(data) !== 'ModuleTransactionFailed()') return err;
  const why = await safeCallRevert(chain, safe, call).catch(() => undefined);
  return why ? new Error(`execution reverted: the Safe's call failed: ${why}`, { cause: err }) : err;
}

/** The Safe's approval of the launcher for any token: LauncherApprover's, by delegatecall (the trading role's). */
export function launcherApprovalCall(contracts: ContractAddresses, token: Address, amount: bigint): RoleCall {
  return {
    to: requireContract(contracts, 'launcherApprover'),
    data: encodeFunctionData({
      abi: LauncherApproverAbi,
      functionName: 'approveLauncher',
      args: [token, amount],
    }),
    operation: 1,
  };
}

/** The company's daily buy allowance as the module stores it. */
export async function readDailyAllowance(clients: Pick<ChainClients, 'publicClient'>, roles: Address) {
  const [refill, maxRefill, period, balance, timestamp] = await clients.publicClient.readContract({
    address: roles,
    abi: RolesAbi,
    functionName: 'allowances',
    args: [DAILY_NOTIONAL_KEY],
  });
  return { refill, maxRefill, period, balance, timestamp };
}

/**
 * What the company's daily buy allowance holds at `now` (seconds), refills included, as the module would count it
 * (Roles' AllowanceTracker `_accruedAllowance`).
 */
export async function dailyAllowanceLeft(
  clients: Pick<ChainClients, 'publicClient'>,
  roles: Address,
  now: bigint,
): Promise<bigint> {
  const [refill, maxRefill, period, balance, timestamp] = await clients.publicClient.readContract({
    address: roles,
    abi: RolesAbi,
    functionName: 'allowances',
    args: [DAILY_NOTIONAL_KEY],
  });
  if (period === 0n || now < timestamp + period) return balance;
  if (balance >= maxRefill) return balance;
  const refilled = balance + refill * ((now - timestamp) / period);
  return refilled < maxRefill ? refilled : maxRefill;
}

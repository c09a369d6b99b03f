// The scopes of a company's Zodiac Roles module (custody.ts): its roles and their keys, the conditions each role's
// calls must meet, and the Roles owner's calls that scope the trading, staking and manage roles.

import { RolesAbi } from '@ai-economy/shared/abis';
import {
  type AbiFunction,
  type Address,
  encodeFunctionData,
  type Hex,
  keccak256,
  pad,
  toFunctionSelector,
  toHex,
} from 'viem';
import { loadArtifact } from './artifacts.ts';
import type { ContractAddresses } from './contracts/addresses.ts';
import { requireContract } from './contracts/addresses.ts';

/** Zodiac Roles' condition types and operators (contracts/vendor/zodiac-modifier-roles/contracts/Types.sol). */
const ParameterType = { None: 0, Static: 1, Dynamic: 2, Tuple: 3, Array: 4, Calldata: 5 } as const;
const Operator = { Pass: 0, And: 1, Or: 2, Matches: 5, EqualTo: 16, LessThan: 18, WithinAllowance: 28 } as const;
/** ExecutionOptions.None: no ether sent, no delegatecall. */
export const NO_VALUE_NO_DELEGATECALL = 0;
/** ExecutionOptions.DelegateCall: no ether sent; a delegatecall allowed (LauncherApprover's, and no other). */
const DELEGATECALL_ONLY = 2;
/** Safe's linked list of modules starts here; disabling the first module names it as the previous one. */
export const SENTINEL_MODULES: Address = '0x0000000000000000000000000000000000000001';
export const ONE_DAY_S = 86_400n;

interface ConditionFlat {
  parent: number;
  paramType: number;
  operator: number;
  compValue: Hex;
}

/** What one agent key may do: trade on the launcher, stake on the staking contract, or both. */
export interface AgentScope {
  address: Address;
  trade: boolean;
  stake: boolean;
}

export interface CustodyLimits {
  /** USDC (base units) the company's agents may spend on buys in one day, all agents together; refills daily. */
  dailyNotional: bigint;
  /** USDC (base units) one buy may spend at most. */
  maxTrade: bigint;
}

export interface CompanyCustody {
  /** The Safe's single owner: accepts what the card's holder signs. */
  owner: Address;
  safe: Address;
  roles: Address;
}

/**
 * The company's two roles, one per capability; each agent key is a member of the roles its work needs. (One role per
 * key, each with its own copy of the same scopes, measured 6.1 M gas of configuration for seven keys against about
 * 1.9 M for the two shared roles and seven memberships: docs/contracts.md "Custody".)
 */
export const TRADE_ROLE: Hex = keccak256(toHex('trade'));
export const STAKE_ROLE: Hex = keccak256(toHex('stake'));
/**
 * The platform's role after the hand-over: through it the Safe calls its own module's `assignRoles` (only the
 * trading and staking roles, any address, for agents hired or terminated later), `setAllowance` (only the daily
 * allowance, refilling daily, any amount, for limits changed later) and `scopeFunction` (only the trading role's
 * launcher `buy`, any conditions, for the largest buy changed later). Its only member is the platform's key. A
 * module set up before this role existed has no such role (the platform's changes are then refused: 409, and the
 * holder re-grants it or makes them; docs/contracts.md "Kept in step after the setup").
 */
export const MANAGE_ROLE: Hex = keccak256(toHex('manage'));
export type Capability = 'trade' | 'stake';
export const ROLE_OF: Record<Capability, Hex> = { trade: TRADE_ROLE, stake: STAKE_ROLE };

/** The key of the company's daily buy allowance, shared by its trading roles. */
export const DAILY_NOTIONAL_KEY: Hex = keccak256(toHex('daily-notional'));

/** One selector's conditions: `approve(spender, amount)` only to the given spenders. */
function approveOnlyTo(spenders: Address[]): ConditionFlat[] {
  const equal = (a: Address): ConditionFlat => ({
    parent: 1,
    paramType: ParameterType.Static,
    operator: Operator.EqualTo,
    compValue: pad(a, { size: 32 }),
  });
  const root: ConditionFlat = {
    parent: 0,
    paramType: ParameterType.Calldata,
    operator: Operator.Matches,
    compValue: '0x',
  };
  const pass: ConditionFlat = { parent: 0, paramType: ParameterType.Static, operator: Operator.Pass, compValue: '0x' };
  if (spenders.length === 1) return [root, { ...equal(spenders[0]!), parent: 0 }, pass];
  return [
    root,
    { parent: 0, paramType: ParameterType.None, operator: Operator.Or, compValue: '0x' },
    pass,
    ...spenders.map(equal),
  ];
}

/** `buy(token, usdcIn, minTokensOut, deadline)`: usdcIn at most `maxTrade` and within the daily allowance. */
export function buyConditions(maxTrade: bigint): ConditionFlat[] {
  const pass = (parent: number): ConditionFlat => ({
    parent,
    paramType: ParameterType.Static,
    operator: Operator.Pass,
    compValue: '0x',
  });
  return [
    { parent: 0, paramType: ParameterType.Calldata, operator: Operator.Matches, compValue: '0x' },
    pass(0),
    { parent: 0, paramType: ParameterType.None, operator: Operator.And, compValue: '0x' },
    pass(0),
    pass(0),
    {
      parent: 2,
      paramType: ParameterType.Static,
      operator: Operator.LessThan,
      compValue: pad(toHex(maxTrade + 1n), { size: 32 }),
    },
    { parent: 2, paramType: ParameterType.Static, operator: Operator.WithinAllowance, compValue: DAILY_NOTIONAL_KEY },
  ];
}

/** The Roles owner's calls that scope the role of `capability`. */
export function roleScopeCalls(
  contracts: ContractAddresses,
  capability: Capability,
  limits: CustodyLimits,
  tokens: Address[],
): Hex[] {
  const role = ROLE_OF[capability];
  const launcher = requireContract(contracts, 'tokenLauncher');
  const staking = requireContract(contracts, 'staking');
  const approveSelector = '0x095ea7b3';
  const launcherAbi = loadArtifact('TokenLauncher').abi;
  const stakingAbi = loadArtifact('Staking').abi;
  const calls: Hex[] = [];
  /** Spenders each token may be approved to, by token. */
  const approvals = new Map<Address, Address[]>();
  const allowApprove = (token: Address, spender: Address) => {
    approvals.set(token, [...(approvals.get(token) ?? []), spender]);
  };
  if (capability === 'trade') {
    calls.push(rolesCall('scopeTarget', [role, launcher]));
    calls.push(
      rolesCall('scopeFunction', [
        role,
        launcher,
        selectorOf(launcherAbi, 'buy'),
        buyConditions(limits.maxTrade),
        NO_VALUE_NO_DELEGATECALL,
      ]),
    );
    calls.push(rolesCall('allowFunction', [role, launcher, selectorOf(launcherAbi, 'sell'), NO_VALUE_NO_DELEGATECALL]));
    // Any token the Safe holds may be approved to the launcher (to sell it), and to nothing else: the one
    // delegatecall a role may make, into LauncherApprover, whose only act is that approval.
    const approver = requireContract(contracts, 'launcherApprover');
    calls.push(rolesCall('scopeTarget', [role, approver]));
    calls.push(
      rolesCall('allowFunction', [
        role,
        approver,
        selectorOf(loadArtifact('LauncherApprover').abi, 'approveLauncher'),
        DELEGATECALL_ONLY,
      ]),
    );
    allowApprove(requireContract(contracts, 'usdc'), launcher);
    for (const token of tokens) allowApprove(token, launcher);
  } else {
    calls.push(rolesCall('scopeTarget', [role, staking]));
    for (const fn of ['deposit', 'withdraw', 'harvest']) {
      calls.push(rolesCall('allowFunction', [role, staking, selectorOf(stakingAbi, fn), NO_VALUE_NO_DELEGATECALL]));
    }
    allowApprove(requireContract(contracts, 'primaryToken'), staking);
  }
  for (const [token, spenders] of approvals) {
    calls.push(rolesCall('scopeTarget', [role, token]));
    calls.push(
      rolesCall('scopeFunction', [role, token, approveSelector, approveOnlyTo(spenders), NO_VALUE_NO_DELEGATECALL]),
    );
  }
  return calls;
}

/**
 * The Roles owner's calls that scope the platform's manage role (MANAGE_ROLE): the module itself as the target, and
 * on it `assignRoles(any, [trade, stake], any)`, `setAllowance(daily-notional, any, any, any, one day, any)` and
 * `scopeFunction(trade, launcher, buy, any conditions, no value and no delegatecall)` (the largest buy). The last
 * gives no power the allowance does not: conditions on the launcher's buy can at most lift the cap and the
 * allowance, which `setAllowance` alone can raise as far; the buy still pays from the Safe and credits the Safe.
 */
export function manageScopeCalls(contracts: ContractAddresses, roles: Address): Hex[] {
  const node = (parent: number, paramType: number, operator: number, compValue: Hex = '0x'): ConditionFlat => ({
    parent,
    paramType,
    operator,
    compValue,
  });
  const word = (v: Hex | bigint) => pad(typeof v === 'bigint' ? toHex(v) : v, { size: 32 });
  const { Static, Calldata, Array: Arr } = ParameterType;
  const { Pass, Matches, EqualTo } = Operator;
  const assign: ConditionFlat[] = [
    node(0, Calldata, Matches),
    node(0, Static, Pass), // the member: any address
    node(0, Arr, Matches), // the role keys: exactly [trade, stake]
    node(0, Arr, Matches), // member of each or not: any
    node(2, Static, EqualTo, word(TRADE_ROLE)),
    node(2, Static, EqualTo, word(STAKE_ROLE)),
    node(3, Static, Pass),
    node(3, Static, Pass),
  ];
  const allowance: ConditionFlat[] = [
    node(0, Calldata, Matches),
    node(0, Static, EqualTo, word(DAILY_NOTIONAL_KEY)),
    node(0, Static, Pass), // balance
    node(0, Static, Pass), // maxRefill
    node(0, Static, Pass), // refill
    node(0, Static, EqualTo, word(ONE_DAY_S)), // period
    node(0, Static, Pass), // timestamp
  ];
  const launcher = requireContract(contracts, 'tokenLauncher');
  const buy = selectorOf(loadArtifact('TokenLauncher').abi, 'buy');
  const { Tuple, Dynamic } = ParameterType;
  const rescopeBuy: ConditionFlat[] = [
    node(0, Calldata, Matches),
    node(0, Static, EqualTo, word(TRADE_ROLE)),
    node(0, Static, EqualTo, word(launcher)),
    node(0, Static, EqualTo, pad(buy, { size: 32, dir: 'right' })), // a bytes4 sits left-aligned in its word
    node(0, Arr, Pass), // the conditions: any (an array of ConditionFlat tuples)
    node(0, Static, EqualTo, word(BigInt(NO_VALUE_NO_DELEGATECALL))),
    node(4, Tuple, Pass),
    node(6, Static, Pass), // parent
    node(6, Static, Pass), // paramType
    node(6, Static, Pass), // operator
    node(6, Dynamic, Pass), // compValue
  ];
  const rolesAbi = RolesAbi as readonly unknown[];
  return [
    rolesCall('scopeTarget', [MANAGE_ROLE, roles]),
    rolesCall('scopeFunction', [
      MANAGE_ROLE,
      roles,
      selectorOf(rolesAbi, 'assignRoles'),
      assign,
      NO_VALUE_NO_DELEGATECALL,
    ]),
    rolesCall('scopeFunction', [
      MANAGE_ROLE,
      roles,
      selectorOf(rolesAbi, 'setAllowance'),
      allowance,
      NO_VALUE_NO_DELEGATECALL,
    ]),
    rolesCall('scopeFunction', [
      MANAGE_ROLE,
      roles,
      selectorOf(rolesAbi, 'scopeFunction'),
      rescopeBuy,
      NO_VALUE_NO_DELEGATECALL,
    ]),
  ];
}

/**
 * The module's calls by which the card's holder gives the platform its manage role (each a Safe transaction to the
 * module, which the Safe owns): the role's scopes (a module set up before the role existed has none; writing them
 * again changes nothing on one that has) and the platform's membership. The holder takes the role away with
 * `assignRoles(platform, [manage], [false])`.
 */
export function grantManageRoleCalls(contracts: ContractAddresses, roles: Address, platform: Address): Hex[] {
  return [...manageScopeCalls(contracts, roles), rolesCall('assignRoles', [platform, [MANAGE_ROLE], [true]])];
}

/** The Roles owner's call that makes an agent key a member of the roles of its capabilities. */
export function membershipCall(agent: AgentScope): Hex {
  const keys = [...(agent.trade ? [TRADE_ROLE] : []), ...(agent.stake ? [STAKE_ROLE] : [])];
  return rolesCall('assignRoles', [agent.address, keys, keys.map(() => true)]);
}

export const rolesCall = (functionName: string, args: readonly unknown[]) =>
  encodeFunctionData({ abi: RolesAbi, functionName: functionName as never, args: args as never });

/** The 4-byte selector of a function the ABI names once (Staking's overloads are not among those used). */
export function selectorOf(abi: readonly unknown[], name: string): Hex {
  const matches = (abi as AbiFunction[]).filter((i) => i.type === 'function' && i.name === name);
  if (matches.length !== 1) throw new Error(`${name} is not one function of the ABI (${matches.length})`);
  return toFunctionSelector(matches[0]!);
}

// A company's custody on the chain: its Safe (1.5.0, threshold 1) whose single owner is a CardSafeOwner, so the
// holder of the company's access card controls it and nobody else does; and its Zodiac Roles module, through which
// each agent key may make only the calls its role allows, within allowances that match the hard limits in code.
// docs/contracts.md "Custody" states the model and its trust assumptions.
//
// The setup is a series of the platform's transactions, each of which reads the chain first and does only what is
// missing, so an interrupted setup finishes when run again: the card's owner contract (a clone), the Roles proxy
// (owned by the platform while it is configured), the Safe proxy (set up with the module enabled), the module's
// avatar and target, the roles' scopes, the agent keys' memberships, the daily allowance, the platform's manage role,
// and last the module's ownership handed to the Safe. After that the platform's key can only do what its manage role
// allows: make any address a member of the trading and staking roles or take it out, set the daily allowance's
// numbers, and rescope the trading role's launcher `buy` with any conditions (the largest buy), as the company's
// settings ask; it cannot scope any other call, move money out of the Safe, or change an owner or a module. What a
// stolen platform key could still do with that is in docs/contracts.md "Trust assumptions".

import {
  CardSafeOwnerAbi,
  LauncherApproverAbi,
  ModuleProxyFactoryAbi,
  RolesAbi,
  SafeL2Abi,
  SafeModuleSetupAbi,
  SafeProxyFactoryAbi,
} from '@ai-economy/shared/abis';
import {
  type AbiFunction,
  type Address,
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  type Hex,
  isAddressEqual,
  keccak256,
  type LocalAccount,
  pad,
  parseAbiParameters,
  type TransactionReceipt,
  toFunctionSelector,
  toHex,
  zeroAddress,
} from 'viem';
import { loadArtifact } from './artifacts.ts';
import type { ChainClients } from './client.ts';
import type { ContractAddresses } from './contracts/addresses.ts';
import { requireContract } from './contracts/addresses.ts';

/** Zodiac Roles' condition types and operators (contracts/vendor/zodiac-modifier-roles/contracts/Types.sol). */
const ParameterType = { None: 0, Static: 1, Dynamic: 2, Tuple: 3, Array: 4, Calldata: 5 } as const;
const Operator = { Pass: 0, And: 1, Or: 2, Matches: 5, EqualTo: 16, LessThan: 18, WithinAllowance: 28 } as const;
/** ExecutionOptions.None: no ether sent, no delegatecall. */
const NO_VALUE_NO_DELEGATECALL = 0;
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

function rolesInitializer(platform: Address): Hex {
  // Owned by the platform while it configures the roles; avatar and target are set to the Safe once it exists.
  const params = encodeAbiParameters(parseAbiParameters('address, address, address'), [platform, platform, platform]);
  return encodeFunctionData({ abi: RolesAbi, functionName: 'setUp', args: [params] });
}

function safeInitializer(contracts: ContractAddresses, owner: Address, roles: Address): Hex {
  return encodeFunctionData({
    abi: SafeL2Abi,
    functionName: 'setup',
    args: [
      [owner],
      1n,
      requireContract(contracts, 'safeModuleSetup'),
      encodeFunctionData({ abi: SafeModuleSetupAbi, functionName: 'enableModules', args: [[roles]] }),
      requireContract(contracts, 'safeFallbackHandler'),
      zeroAddress,
      0n,
      zeroAddress,
    ],
  });
}

const saltOf = (initializer: Hex, saltNonce: bigint) =>
  keccak256(concat([keccak256(initializer), pad(toHex(saltNonce), { size: 32 })]));

/** The addresses a company's custody has (or will have) on this chain, for the card `cardId`. */
export async function companyCustodyAddresses(
  clients: ChainClients,
  contracts: ContractAddresses,
  cardId: bigint,
): Promise<CompanyCustody> {
  // The clone's address, as the implementation computes it (a call that changes nothing).
  const { result: owner } = await clients.publicClient.simulateContract({
    address: requireContract(contracts, 'cardSafeOwner'),
    abi: CardSafeOwnerAbi,
    functionName: 'ownerFor',
    args: [requireContract(contracts, 'accessCard'), cardId],
  });
  const moduleFactory = requireContract(contracts, 'moduleProxyFactory');
  const mastercopy = requireContract(contracts, 'rolesSingleton');
  const minimalProxy = concat([
    '0x602d8060093d393df3363d3d373d3d3d363d73',
    mastercopy,
    '0x5af43d82803e903d91602b57fd5bf3',
  ]);
  const roles = getAddress(
    getContractAddress({
      opcode: 'CREATE2',
      from: moduleFactory,
      salt: saltOf(rolesInitializer(clients.platform.account.address), cardId),
      bytecode: minimalProxy,
    }),
  );
  const proxyFactory = requireContract(contracts, 'safeProxyFactory');
  const proxyCode = await clients.publicClient.readContract({
    address: proxyFactory,
    abi: SafeProxyFactoryAbi,
    functionName: 'proxyCreationCode',
  });
  const safe = getAddress(
    getContractAddress({
      opcode: 'CREATE2',
      from: proxyFactory,
      salt: saltOf(safeInitializer(contracts, owner, roles), cardId),
      bytecode: concat([proxyCode, pad(requireContract(contracts, 'safeSingleton'), { size: 32 })]),
    }),
  );
  return { owner, safe, roles };
}

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
function buyConditions(maxTrade: bigint): ConditionFlat[] {
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

/** The Roles owner's call that makes an agent key a member of the roles of its capabilities. */
export function membershipCall(agent: AgentScope): Hex {
  const keys = [...(agent.trade ? [TRADE_ROLE] : []), ...(agent.stake ? [STAKE_ROLE] : [])];
  return rolesCall('assignRoles', [agent.address, keys, keys.map(() => true)]);
}

const rolesCall = (functionName: string, args: readonly unknown[]) =>
  encodeFunctionData({ abi: RolesAbi, functionName: functionName as never, args: args as never });

/** The 4-byte selector of a function the ABI names once (Staking's overloads are not among those used). */
function selectorOf(abi: readonly unknown[], name: string): Hex {
  const matches = (abi as AbiFunction[]).filter((i) => i.type === 'function' && i.name === name);
  if (matches.length !== 1) throw new Error(`${name} is not one function of the ABI (${matches.length})`);
  return toFunctionSelector(matches[0]!);
}

export interface CustodySetup extends CompanyCustody {
  /** Gas of each step this run sent (a step already done sends nothing and is absent). */
  gas: Record<string, bigint>;
}

/**
 * Deploys and configures the custody of the company whose card is `cardId`, or finishes an interrupted setup. The
 * platform key pays the gas and is the module's owner only until the last step hands it to the Safe. A setup already
 * finished (the module owned by the Safe) is left as it is.
 */
/**
 * Sends one setup transaction from the platform's key and returns its receipt. `key` names the transaction uniquely
 * within the company's setup (`roles:3`), the same on a resumed run, so an exactly-once sender (the outbox) sends
 * each once. By default the platform's wallet sends it directly (the deployment and the contract tests).
 */
export type CustodySender = (key: string, tx: { to: Address; data: Hex }) => Promise<TransactionReceipt>;

export async function setUpCompanyCustody(
  clients: ChainClients,
  contracts: ContractAddresses,
  input: {
    cardId: bigint;
    agents: AgentScope[];
    limits: CustodyLimits;
    tokens?: Address[];
    now?: bigint;
    sender?: CustodySender;
  },
): Promise<CustodySetup> {
  const read = clients.publicClient;
  const platform = clients.platform.account.address;
  const addresses = await companyCustodyAddresses(clients, contracts, input.cardId);
  const gas: Record<string, bigint> = {};
  const direct: CustodySender = async (_key, tx) => {
    const hash = await clients.platform.sendTransaction({ ...tx, chain: clients.viemChain } as never);
    return read.waitForTransactionReceipt({ hash });
  };
  const counts: Record<string, number> = {};
  const send = async (step: string, to: Address, data: Hex) => {
    const n = counts[step] ?? 0;
    counts[step] = n + 1;
    const receipt = await (input.sender ?? direct)(`${step}:${n}`, { to, data });
    if (receipt.status !== 'success') throw new Error(`custody step ${step} reverted (${receipt.transactionHash})`);
    gas[step] = (gas[step] ?? 0n) + receipt.gasUsed;
  };
  const hasCode = async (address: Address) => {
    const code = await read.getCode({ address });
    return code !== undefined && code !== '0x';
  };
  if (!(await hasCode(addresses.owner))) {
    await send(
      'owner',
      requireContract(contracts, 'cardSafeOwner'),
      encodeFunctionData({
        abi: CardSafeOwnerAbi,
        functionName: 'ownerFor',
        args: [requireContract(contracts, 'accessCard'), input.cardId],
      }),
    );
  }
  if (!(await hasCode(addresses.roles))) {
    await send(
      'rolesProxy',
      requireContract(contracts, 'moduleProxyFactory'),
      encodeFunctionData({
        abi: ModuleProxyFactoryAbi,
        functionName: 'deployModule',
        args: [requireContract(contracts, 'rolesSingleton'), rolesInitializer(platform), input.cardId],
      }),
    );
  }
  if (!(await hasCode(addresses.safe))) {
    await send(
      'safeProxy',
      requireContract(contracts, 'safeProxyFactory'),
      encodeFunctionData({
        abi: SafeProxyFactoryAbi,
        functionName: 'createProxyWithNonce',
        args: [
          requireContract(contracts, 'safeSingleton'),
          safeInitializer(contracts, addresses.owner, addresses.roles),
          input.cardId,
        ],
      }),
    );
  }
  const rolesRead = { address: addresses.roles, abi: RolesAbi } as const;
  const moduleOwner = await read.readContract({ ...rolesRead, functionName: 'owner' });
  if (isAddressEqual(moduleOwner, addresses.safe)) return { ...addresses, gas };
  if (!isAddressEqual(moduleOwner, platform)) {
    throw new Error(
      `the Roles module ${addresses.roles} is owned by ${moduleOwner}, neither the platform nor the Safe`,
    );
  }
  if (!isAddressEqual(await read.readContract({ ...rolesRead, functionName: 'avatar' }), addresses.safe)) {
    await send('avatar', addresses.roles, rolesCall('setAvatar', [addresses.safe]));
  }
  if (!isAddressEqual(await read.readContract({ ...rolesRead, functionName: 'target' }), addresses.safe)) {
    await send('target', addresses.roles, rolesCall('setTarget', [addresses.safe]));
  }
  // The scopes are written again on a resumed run (each call sets, none adds), so a half-configured role is finished.
  // They and the memberships are independent of one another, so they are sent together (their keys are given in
  // order before any is sent, the same on a resumed run): one after another they were about 3 s of a local setup.
  const configuration: [string, Hex][] = [
    ...(['trade', 'stake'] as const).flatMap((capability) =>
      roleScopeCalls(contracts, capability, input.limits, input.tokens ?? []).map((d): [string, Hex] => ['roles', d]),
    ),
    ...manageScopeCalls(contracts, addresses.roles).map((d): [string, Hex] => ['manage', d]),
    ...input.agents.map((agent): [string, Hex] => ['members', membershipCall(agent)]),
    ['manager', rolesCall('assignRoles', [platform, [MANAGE_ROLE], [true]])],
  ];
  if (input.sender) {
    // An exactly-once sender assigns each its nonce; the platform's wallet alone (no nonce manager) sends in turn.
    const settled = await Promise.allSettled(configuration.map(([step, data]) => send(step, addresses.roles, data)));
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  } else {
    for (const [step, data] of configuration) await send(step, addresses.roles, data);
  }
  const now = input.now ?? (await read.getBlock({ blockTag: 'latest' })).timestamp;
  const dayStart = now - (now % ONE_DAY_S);
  const daily = input.limits.dailyNotional;
  await send(
    'allowance',
    addresses.roles,
    rolesCall('setAllowance', [DAILY_NOTIONAL_KEY, daily, daily, daily, ONE_DAY_S, dayStart]),
  );
  await send('handOver', addresses.roles, rolesCall('transferOwnership', [addresses.safe]));
  return { ...addresses, gas };
}

/** A Safe transaction, as the Safe hashes and executes it (no gas refund: the sender pays its own gas). */
export interface SafeTx {
  to: Address;
  value?: bigint;
  data: Hex;
  operation?: 0 | 1;
}

/** The EIP-712 typed data of a Safe transaction at the Safe's current nonce, for the card's holder to sign. */
export async function safeTxTypedData(
  clients: Pick<ChainClients, 'publicClient' | 'chainId'>,
  safe: Address,
  tx: SafeTx,
) {
  const nonce = await clients.publicClient.readContract({ address: safe, abi: SafeL2Abi, functionName: 'nonce' });
  return {
    domain: { chainId: clients.chainId, verifyingContract: safe },
    types: {
      SafeTx: [
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'data', type: 'bytes' },
        { name: 'operation', type: 'uint8' },
        { name: 'safeTxGas', type: 'uint256' },
        { name: 'baseGas', type: 'uint256' },
        { name: 'gasPrice', type: 'uint256' },
        { name: 'gasToken', type: 'address' },
        { name: 'refundReceiver', type: 'address' },
        { name: 'nonce', type: 'uint256' },
      ],
    },
    primaryType: 'SafeTx' as const,
    message: {
      to: tx.to,
      value: tx.value ?? 0n,
      data: tx.data,
      operation: tx.operation ?? 0,
      safeTxGas: 0n,
      baseGas: 0n,
      gasPrice: 0n,
      gasToken: zeroAddress,
      refundReceiver: zeroAddress,
      nonce,
    },
  };
}

/**
 * The Safe's signature bytes for its owner contract `owner` carrying the holder's signature: Safe's contract
 * signature (r = the owner, s = where the data starts, v = 0) followed by the holder's signature as dynamic bytes.
 */
export function ownerContractSignature(owner: Address, holderSignature: Hex): Hex {
  return concat([
    pad(owner, { size: 32 }),
    pad(toHex(65), { size: 32 }),
    '0x00',
    pad(toHex((holderSignature.length - 2) / 2), { size: 32 }),
    holderSignature,
  ]);
}

/** The calldata of `execTransaction` for `tx`, signed by `holder` (the card's holder, a local key) through `owner`. */
export async function holderSignedExec(
  clients: Pick<ChainClients, 'publicClient' | 'chainId'>,
  custody: Pick<CompanyCustody, 'safe' | 'owner'>,
  holder: LocalAccount,
  tx: SafeTx,
): Promise<Hex> {
  const typed = await safeTxTypedData(clients, custody.safe, tx);
  const signature = await holder.signTypedData(typed);
  const m = typed.message;
  return encodeFunctionData({
    abi: SafeL2Abi,
    functionName: 'execTransaction',
    args: [
      m.to,
      m.value,
      m.data,
      m.operation,
      m.safeTxGas,
      m.baseGas,
      m.gasPrice,
      m.gasToken,
      m.refundReceiver,
      ownerContractSignature(custody.owner, signature),
    ],
  });
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

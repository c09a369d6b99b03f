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
  ModuleProxyFactoryAbi,
  RolesAbi,
  SafeL2Abi,
  SafeModuleSetupAbi,
  SafeProxyFactoryAbi,
} from '@ai-economy/shared/abis';
import {
  type Address,
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  type Hex,
  isAddressEqual,
  keccak256,
  pad,
  parseAbiParameters,
  type TransactionReceipt,
  toHex,
  zeroAddress,
} from 'viem';
import type { ChainClients } from './client.ts';
import type { ContractAddresses } from './contracts/addresses.ts';
import { requireContract } from './contracts/addresses.ts';
import {
  type AgentScope,
  type CompanyCustody,
  type CustodyLimits,
  DAILY_NOTIONAL_KEY,
  MANAGE_ROLE,
  manageScopeCalls,
  membershipCall,
  ONE_DAY_S,
  roleScopeCalls,
  rolesCall,
} from './custody-scopes.ts';

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

export interface CustodySetup extends CompanyCustody {
  /** Gas of each step this run sent (a step already done sends nothing and is absent). */
  gas: Record<string, bigint>;
}

/**
 * Sends one setup transaction from the platform's key and returns its receipt. `key` names the transaction uniquely
 * within the company's setup (`roles:3`), the same on a resumed run, so an exactly-once sender (the outbox) sends
 * each once. By default the platform's wallet sends it directly (the deployment and the contract tests).
 */
export type CustodySender = (key: string, tx: { to: Address; data: Hex }) => Promise<TransactionReceipt>;

/**
 * Deploys and configures the custody of the company whose card is `cardId`, or finishes an interrupted setup. The
 * platform key pays the gas and is the module's owner only until the last step hands it to the Safe. A setup already
 * finished (the module owned by the Safe) is left as it is.
 */
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

// Deployed contract addresses: the names every area uses, and the file that keeps them across restarts.
import { existsSync, readFileSync } from 'node:fs';
import { type Address, getAddress, type Hex, isAddress, isHex } from 'viem';
import { writeFileAtomic } from '../../files.ts';

/**
 * Custody, once per chain (src/chain/custody-singletons.ts): Safe 1.5.0 and Zodiac Roles v2.1, deployed at
 * deterministic addresses from code built elsewhere (Safe's npm artifacts, the vendored Roles build).
 */
export const CUSTODY_CONTRACT_KEYS = [
  'safeSingleton',
  'safeProxyFactory',
  'safeFallbackHandler',
  'safeMultiSendCallOnly',
  'rolesSingleton',
  'moduleProxyFactory',
  'safeModuleSetup',
  'launcherApprover',
  'cardSafeOwner',
] as const;

export const CONTRACT_KEYS = [
  'accessCard',
  'usdc',
  'primaryToken',
  'emissionToken',
  'staking',
  'distributor',
  'decisionAnchor',
  'identityRegistry',
  'validationRegistry',
  'tokenLauncher',
  'poolManager',
  'feeHook',
  'timelock',
  ...CUSTODY_CONTRACT_KEYS,
] as const;
export type ContractKey = (typeof CONTRACT_KEYS)[number];
export type ContractAddresses = Partial<Record<ContractKey, Address>>;

/** The address of a deployed contract; an error naming it when the contracts file has none. */
export function requireContract(contracts: ContractAddresses, key: ContractKey): Address {
  const address = contracts[key];
  if (!address) throw new Error(`the ${key} contract is not configured: the contracts file has no ${key}`);
  return address;
}

/** A contract creation signed and recorded before it was sent (src/chain/deploy.ts): what a resumed run checks. */
export interface PendingDeployment {
  key: ContractKey;
  nonce: number;
  hash: Hex;
  /** The signed transaction, sent again as it is when it never reached the chain. */
  raw: Hex;
}

export interface ContractsFile {
  chainId: number;
  contracts: ContractAddresses;
  /** Deployment block of each contract, where the indexer starts. */
  deployBlocks?: Partial<Record<ContractKey, string>>;
  /** False while a deployment is under way or was interrupted: the service refuses the file until it finishes. */
  complete?: boolean;
  pending?: PendingDeployment;
  /** The roles the deployment gave (src/chain/deploy.ts DeployRoles), kept so a resumed run gives the same. */
  roles?: { platform: Address; oracle: Address; feeRecipient: Address; owner?: Address };
  /** What a block explorer needs to verify each deployed contract's source, besides the standard-JSON input. */
  verification?: Partial<Record<ContractKey, { contract: string; constructorArgs: Hex }>>;
}

export function readContractsFile(file: string): ContractsFile | undefined {
  if (!existsSync(file)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`contracts file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const obj = parsed as { chainId?: unknown; contracts?: Record<string, unknown>; deployBlocks?: unknown };
  if (typeof obj.chainId !== 'number' || typeof obj.contracts !== 'object' || obj.contracts === null) {
    throw new Error(`contracts file ${file} must hold { chainId: number, contracts: { name: address } }`);
  }
  const contracts: ContractAddresses = {};
  for (const [key, value] of Object.entries(obj.contracts)) {
    if (!(CONTRACT_KEYS as readonly string[]).includes(key)) {
      throw new Error(`contracts file ${file}: unknown contract "${key}" (known: ${CONTRACT_KEYS.join(', ')})`);
    }
    if (typeof value !== 'string' || !isAddress(value, { strict: false })) {
      throw new Error(`contracts file ${file}: ${key} is not an address`);
    }
    contracts[key as ContractKey] = getAddress(value);
  }
  const extra = parsed as {
    complete?: unknown;
    pending?: Record<string, unknown>;
    roles?: Record<string, unknown>;
    verification?: unknown;
  };
  const roles = extra.roles;
  if (
    roles !== undefined &&
    !['platform', 'oracle', 'feeRecipient'].every(
      (r) => typeof roles?.[r] === 'string' && isAddress(roles[r] as string),
    )
  ) {
    throw new Error(`contracts file ${file}: roles must hold the platform, oracle and feeRecipient addresses`);
  }
  if (roles?.owner !== undefined && (typeof roles.owner !== 'string' || !isAddress(roles.owner))) {
    throw new Error(`contracts file ${file}: roles.owner must be an address`);
  }
  const pending = extra.pending;
  if (
    pending !== undefined &&
    (typeof pending !== 'object' ||
      pending === null ||
      !(CONTRACT_KEYS as readonly string[]).includes(String(pending.key)) ||
      typeof pending.nonce !== 'number' ||
      !isHex(pending.hash) ||
      !isHex(pending.raw))
  ) {
    throw new Error(`contracts file ${file}: pending must hold { key, nonce, hash, raw }`);
  }
  return {
    chainId: obj.chainId,
    contracts,
    deployBlocks: (obj.deployBlocks ?? {}) as ContractsFile['deployBlocks'],
    ...(typeof extra.complete === 'boolean' ? { complete: extra.complete } : {}),
    ...(pending ? { pending: pending as unknown as PendingDeployment } : {}),
    ...(roles ? { roles: roles as NonNullable<ContractsFile['roles']> } : {}),
    ...(extra.verification ? { verification: extra.verification as ContractsFile['verification'] } : {}),
  };
}

/** Writes atomically (temp file, then rename), so a crash never leaves half a file. */
export function writeContractsFile(file: string, data: ContractsFile): void {
  writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`);
}

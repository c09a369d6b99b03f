// Deployed contract addresses: the names every area uses, and the file that keeps them across restarts.
import { existsSync, readFileSync } from 'node:fs';
import { type Address, getAddress, isAddress } from 'viem';
import { writeFileAtomic } from '../files.ts';

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
] as const;
export type ContractKey = (typeof CONTRACT_KEYS)[number];
export type ContractAddresses = Partial<Record<ContractKey, Address>>;

/** The address of a deployed contract; an error naming it when the contracts file has none. */
export function requireContract(contracts: ContractAddresses, key: ContractKey): Address {
  const address = contracts[key];
  if (!address) throw new Error(`the ${key} contract is not configured: the contracts file has no ${key}`);
  return address;
}

export interface ContractsFile {
  chainId: number;
  contracts: ContractAddresses;
  /** Deployment block of each contract, where the indexer starts. */
  deployBlocks?: Partial<Record<ContractKey, string>>;
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
  return {
    chainId: obj.chainId,
    contracts,
    deployBlocks: (obj.deployBlocks ?? {}) as ContractsFile['deployBlocks'],
  };
}

/** Writes atomically (temp file, then rename), so a crash never leaves half a file. */
export function writeContractsFile(file: string, data: ContractsFile): void {
  writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`);
}

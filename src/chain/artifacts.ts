// Compiled contract artifacts (bytecode and storage layout) produced by scripts/build-contracts.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Abi, Hex } from 'viem';

export const ARTIFACTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'artifacts');

export interface Artifact {
  contractName: string;
  /** The source unit it was compiled from (`contracts/AccessCard.sol`), as the standard-JSON input names it. */
  sourceName: string;
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
  storageLayout: { storage: { label: string; slot: string; offset: number; type: string }[] };
}

const cache = new Map<string, Artifact>();

export function loadArtifact(name: string): Artifact {
  let artifact = cache.get(name);
  if (!artifact) {
    try {
      artifact = JSON.parse(readFileSync(path.join(ARTIFACTS_DIR, `${name}.json`), 'utf8')) as Artifact;
    } catch (err) {
      throw new Error(`artifact ${name} missing: run npm run build:contracts (${(err as Error).message})`);
    }
    cache.set(name, artifact);
  }
  return artifact;
}

/** The compiler's standard-JSON input of the build (every source, the settings) and the compiler's version. */
export const STANDARD_INPUT_FILE = path.join(ARTIFACTS_DIR, 'standard-input.json');

/** Storage slot of a top-level state variable, for tests that set state directly with anvil_setStorageAt. */
export function storageSlot(name: string, label: string): bigint {
  const entry = loadArtifact(name).storageLayout.storage.find((s) => s.label === label);
  if (!entry) throw new Error(`${name} has no state variable ${label}`);
  return BigInt(entry.slot);
}

// What the compiled contracts were built from: the Solidity sources under contracts/, the compiler, and the
// published artifacts deployed as they are. scripts/build-contracts.ts builds from this and stamps artifacts/ with
// its digest; the service's start (src/main.ts) compares the stamp, and refuses artifacts older than the sources.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS_DIR } from './artifacts.ts';
import { EVM_VERSION } from './hardfork.ts';

export { EVM_VERSION };

const require = createRequire(import.meta.url);
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CONTRACTS_DIR = path.join(REPO_ROOT, 'contracts');
/** The typed ABIs, in the package the service and the web app share. */
export const GENERATED_DIR = path.join(REPO_ROOT, 'packages', 'shared', 'src', 'generated');
export const STAMP_FILE = path.join(ARTIFACTS_DIR, '.build-hash');
export const STANDARD_INPUT_FILE = path.join(ARTIFACTS_DIR, 'standard-input.json');
/** The build script: its settings are part of what a build depends on. */
const BUILD_SCRIPT = path.join(REPO_ROOT, 'scripts', 'build-contracts.ts');
/** Published artifacts deployed as they are, by artifact name: Uniswap's (a Foundry artifact) and Safe 1.5.0's (npm
 * `@safe-global/safe-smart-account`, Hardhat artifacts whose code src/chain/safe.ts checks against the canonical
 * code hashes). */
export const PUBLISHED = {
  PoolManager: '@uniswap/v4-core/out/PoolManager.sol/PoolManager.json',
  SafeL2: '@safe-global/safe-smart-account/build/artifacts/contracts/SafeL2.sol/SafeL2.json',
  SafeProxyFactory:
    '@safe-global/safe-smart-account/build/artifacts/contracts/proxies/SafeProxyFactory.sol/SafeProxyFactory.json',
  CompatibilityFallbackHandler:
    '@safe-global/safe-smart-account/build/artifacts/contracts/handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler.json',
  MultiSendCallOnly:
    '@safe-global/safe-smart-account/build/artifacts/contracts/libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json',
} as const;

/**
 * Contracts the platform did not write, vendored under contracts/vendor/ (its README names their origin and
 * licences) and compiled as they were audited: Zodiac Roles v2.1 with solc 0.8.21, optimizer runs 100, for
 * Shanghai, with the source names its own build gave them (`contracts/Roles.sol`, `@gnosis.pm/zodiac/...`).
 */
export const VENDOR_DIR = path.join(CONTRACTS_DIR, 'vendor');
export const VENDORED = {
  compiler: 'solc-0.8.21',
  evmVersion: 'shanghai',
  optimizerRuns: 100,
  /** The sources compiled (their imports come along), by their standard-JSON name. */
  entries: [
    'contracts/Roles.sol',
    'contracts/adapters/MultiSendUnwrapper.sol',
    '@gnosis.pm/zodiac/contracts/factory/ModuleProxyFactory.sol',
  ],
  /** The artifacts written: the module, its two linked libraries, the multisend adapter and the proxy factory. */
  contracts: ['Roles', 'Integrity', 'Packer', 'MultiSendUnwrapper', 'ModuleProxyFactory'],
} as const;
export const VENDOR_STANDARD_INPUT_FILE = path.join(ARTIFACTS_DIR, 'vendor-standard-input.json');

/** The file behind a vendored source name: the Roles package's own `contracts/...`, or a package's under its name. */
export function vendoredSourcePath(key: string): string {
  return key.startsWith('contracts/')
    ? path.join(VENDOR_DIR, 'zodiac-modifier-roles', key)
    : path.join(VENDOR_DIR, ...key.split('/'));
}

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return p === VENDOR_DIR ? [] : listSources(p);
    return e.name.endsWith('.sol') ? [p] : [];
  });
}

function listAll(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? listAll(p) : [p];
  });
}

/** The Solidity sources by their standard-JSON key, and the digest of everything a build depends on. */
export function contractSources(): { digest: string; sources: Record<string, { content: string }> } {
  const solcVersion = (require('solc/package.json') as { version: string }).version;
  const files = listSources(CONTRACTS_DIR).sort();
  const sources: Record<string, { content: string }> = {};
  const hash = createHash('sha256').update(`solc ${solcVersion} ${EVM_VERSION}\n`);
  for (const f of files) {
    const key = path.relative(REPO_ROOT, f).split(path.sep).join('/');
    const content = readFileSync(f, 'utf8');
    sources[key] = { content };
    hash.update(`${key}\n${content}\n`);
  }
  for (const file of Object.values(PUBLISHED)) hash.update(readFileSync(require.resolve(file)));
  const vendoredVersion = (require(`${VENDORED.compiler}/package.json`) as { version: string }).version;
  hash.update(`vendored: solc ${vendoredVersion} ${JSON.stringify(VENDORED)}\n`);
  for (const f of listAll(VENDOR_DIR).sort()) hash.update(`${path.relative(VENDOR_DIR, f)}\n`).update(readFileSync(f));
  hash.update(readFileSync(BUILD_SCRIPT));
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  return { digest: hash.digest('hex'), sources };
}

/** True when the artifacts were built from the sources as they are now (the start-up check of src/main.ts). */
export function artifactsMatchSources(): boolean {
  return (
    existsSync(STAMP_FILE) &&
    readFileSync(STAMP_FILE, 'utf8') === contractSources().digest &&
    existsSync(path.join(GENERATED_DIR, 'abis.ts')) &&
    existsSync(STANDARD_INPUT_FILE) &&
    existsSync(VENDOR_STANDARD_INPUT_FILE)
  );
}

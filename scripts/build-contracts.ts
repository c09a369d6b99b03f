// Compiles contracts/**/*.sol with the pinned solc-js and OpenZeppelin from node_modules into
// artifacts/<Name>.json (abi, bytecode, storage layout) and packages/shared/src/generated/abis.ts (typed ABIs for viem,
// which the service and the web app import as @ai-economy/shared/abis).
// Uniswap v4's PoolManager is not compiled here: its published artifact (npm @uniswap/v4-core, built by Uniswap with
// solc 0.8.26 for cancun) is copied into artifacts/ and its ABI into abis.ts, so the platform deploys the real one.
// It also writes artifacts/standard-input.json: the compiler's version and its standard-JSON input with every source
// the build used (OpenZeppelin's and v4-core's included), which is what a block explorer verifies deployed code
// against (`npm run cli -- deploy` copies it next to the contracts file).
// The vendored contracts (contracts/vendor/: Zodiac Roles v2.1 and its module proxy factory) are compiled apart, with
// the compiler and settings they were audited with (src/chain/contract-sources.ts VENDORED), into the same artifacts/
// and abis.ts, with their own artifacts/vendor-standard-input.json; Safe 1.5.0 is copied from its npm artifacts.
// Skips the work when neither the sources nor the compiler changed since the last build (the digest of
// src/chain/contract-sources.ts, which the service's start checks too).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS_DIR as artifactsDir } from '../src/chain/artifacts.ts';
import {
  artifactsMatchSources,
  contractSources,
  EVM_VERSION,
  GENERATED_DIR as generatedDir,
  PUBLISHED,
  REPO_ROOT as root,
  STAMP_FILE as stampFile,
  STANDARD_INPUT_FILE as standardInputFile,
  VENDORED,
  vendoredSourcePath,
  VENDOR_STANDARD_INPUT_FILE as vendorStandardInputFile,
} from '../src/chain/contract-sources.ts';
import { writeFileAtomic } from '../src/files.ts';

const require = createRequire(import.meta.url);

function resolveImport(importPath: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(require.resolve(importPath), 'utf8') };
  } catch {
    const local = path.join(root, importPath);
    if (existsSync(local)) return { contents: readFileSync(local, 'utf8') };
    return { error: `File not found: ${importPath}` };
  }
}

/** A contract of the vendored build: its ABI, creation code (library slots unlinked) and runtime code. */
export interface VendoredContract {
  sourceName: string;
  abi: unknown[];
  bytecode: string;
  deployedBytecode: string;
  /** Where each library's address goes in the creation code and in the runtime code, as solc reports it. */
  linkReferences: Record<string, Record<string, { start: number; length: number }[]>>;
  deployedLinkReferences: Record<string, Record<string, { start: number; length: number }[]>>;
}

/**
 * Compiles the vendored contracts (contracts/vendor/, Zodiac Roles v2.1 and the module proxy factory) with the
 * compiler and settings they were audited with. Pure: writes nothing, so a test can compare a fresh build with the
 * recorded one.
 */
export function compileVendored(): {
  compilerVersion: string;
  input: Record<string, unknown>;
  contracts: Record<string, VendoredContract>;
} {
  const solc = require(VENDORED.compiler);
  const read = (key: string): { contents: string } | { error: string } => {
    const file = vendoredSourcePath(key);
    return existsSync(file) ? { contents: readFileSync(file, 'utf8') } : { error: `File not found: ${key}` };
  };
  const settings = {
    evmVersion: VENDORED.evmVersion,
    optimizer: { enabled: true, runs: VENDORED.optimizerRuns },
  };
  const sources: Record<string, { content: string }> = {};
  for (const key of VENDORED.entries) {
    const found = read(key);
    if (!('contents' in found)) throw new Error(found.error);
    sources[key] = { content: found.contents };
  }
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      ...settings,
      outputSelection: {
        '*': {
          '*': [
            'abi',
            'evm.bytecode.object',
            'evm.bytecode.linkReferences',
            'evm.deployedBytecode.object',
            'evm.deployedBytecode.linkReferences',
          ],
        },
      },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: read }));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(
      `compilation of the vendored contracts failed:\n${errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n')}`,
    );
  }
  const allSources: Record<string, { content: string }> = {};
  for (const key of Object.keys(output.sources as Record<string, unknown>).sort()) {
    const found = read(key);
    if (!('contents' in found)) throw new Error(found.error);
    allSources[key] = { content: found.contents };
  }
  const contracts: Record<string, VendoredContract> = {};
  for (const [sourceName, byName] of Object.entries(output.contracts as Record<string, Record<string, any>>)) {
    for (const [name, c] of Object.entries(byName)) {
      if (!(VENDORED.contracts as readonly string[]).includes(name)) continue;
      contracts[name] = {
        sourceName,
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
        linkReferences: c.evm.bytecode.linkReferences,
        deployedLinkReferences: c.evm.deployedBytecode.linkReferences,
      };
    }
  }
  for (const name of VENDORED.contracts) if (!contracts[name]) throw new Error(`the vendored build has no ${name}`);
  return {
    compilerVersion: `v${(solc.version() as string).replace(/\.Emscripten.*$/, '')}`,
    input: {
      language: 'Solidity',
      sources: allSources,
      settings: { ...settings, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
    },
    contracts,
  };
}

export function buildContracts({ force = false } = {}): { compiled: boolean } {
  const { digest, sources } = contractSources();
  if (!force && artifactsMatchSources()) return { compiled: false };

  const solc = require('solc');
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'storageLayout'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: resolveImport }));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(
      `Solidity compilation failed:\n${errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n')}`,
    );
  }
  mkdirSync(artifactsDir, { recursive: true });
  mkdirSync(generatedDir, { recursive: true });
  // The same input with the imported sources written out, so it compiles without this build's import callback.
  const allSources: Record<string, { content: string }> = {};
  for (const key of Object.keys(output.sources as Record<string, unknown>).sort()) {
    const found = sources[key] ?? resolveImport(key);
    if (!('content' in found) && !('contents' in found)) throw new Error(`source ${key} not found`);
    allSources[key] = { content: 'content' in found ? found.content : found.contents };
  }
  writeFileAtomic(
    standardInputFile,
    JSON.stringify({
      compilerVersion: `v${(solc.version() as string).replace(/\.Emscripten.*$/, '')}`,
      input: {
        ...input,
        sources: allSources,
        settings: { ...input.settings, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
      },
    }),
  );
  const abiLines: string[] = [
    '// Generated by scripts/build-contracts.ts from contracts/. Do not edit.',
    '/* eslint-disable */',
  ];
  const names: string[] = [];
  for (const [source, contracts] of Object.entries(output.contracts as Record<string, Record<string, any>>)) {
    if (!source.startsWith('contracts/')) continue;
    for (const [name, c] of Object.entries(contracts)) {
      const bytecode = c.evm.bytecode.object as string;
      writeFileAtomic(
        path.join(artifactsDir, `${name}.json`),
        JSON.stringify({
          contractName: name,
          sourceName: source,
          abi: c.abi,
          bytecode: bytecode ? `0x${bytecode}` : '0x',
          deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
          storageLayout: c.storageLayout,
        }),
      );
      abiLines.push(`export const ${name}Abi = ${JSON.stringify(c.abi)} as const;`);
      names.push(name);
    }
  }
  const vendored = compileVendored();
  writeFileAtomic(
    vendorStandardInputFile,
    JSON.stringify({ compilerVersion: vendored.compilerVersion, input: vendored.input }),
  );
  for (const [name, c] of Object.entries(vendored.contracts)) {
    writeFileAtomic(
      path.join(artifactsDir, `${name}.json`),
      JSON.stringify({ contractName: name, ...c, storageLayout: { storage: [] } }),
    );
    abiLines.push(`export const ${name}Abi = ${JSON.stringify(c.abi)} as const;`);
    names.push(name);
  }
  for (const [name, file] of Object.entries(PUBLISHED)) {
    const published = JSON.parse(readFileSync(require.resolve(file), 'utf8'));
    // Foundry's artifacts keep the code under `.object`, Hardhat's as a string.
    const code = (c: string | { object: string }) => (typeof c === 'string' ? c : c.object);
    writeFileAtomic(
      path.join(artifactsDir, `${name}.json`),
      JSON.stringify({
        contractName: name,
        sourceName: file,
        abi: published.abi,
        bytecode: code(published.bytecode),
        deployedBytecode: code(published.deployedBytecode),
        storageLayout: { storage: [] },
      }),
    );
    abiLines.push(`export const ${name}Abi = ${JSON.stringify(published.abi)} as const;`);
    names.push(name);
  }
  abiLines.push(`export const contractNames = ${JSON.stringify(names.sort())} as const;`);
  writeFileAtomic(path.join(generatedDir, 'abis.ts'), `${abiLines.join('\n')}\n`);
  writeFileAtomic(stampFile, digest);
  return { compiled: true };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const { compiled } = buildContracts({ force: process.argv.includes('--force') });
  console.log(compiled ? `contracts compiled in ${Date.now() - started} ms` : 'contracts up to date');
}

// Compiles contracts/**/*.sol with the pinned solc-js and OpenZeppelin from node_modules into
// artifacts/<Name>.json (abi, bytecode, storage layout) and src/chain/generated/abis.ts (typed ABIs for viem).
// Uniswap v4's PoolManager is not compiled here: its published artifact (npm @uniswap/v4-core, built by Uniswap with
// solc 0.8.26 for cancun) is copied into artifacts/ and its ABI into abis.ts, so the platform deploys the real one.
// It also writes artifacts/standard-input.json: the compiler's version and its standard-JSON input with every source
// the build used (OpenZeppelin's and v4-core's included), which is what a block explorer verifies deployed code
// against (`npm run cli -- deploy` copies it next to the contracts file).
// Skips the work when neither the sources nor the compiler changed since the last build.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../src/files.ts';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const contractsDir = path.join(root, 'contracts');
const artifactsDir = path.join(root, 'artifacts');
const generatedDir = path.join(root, 'src', 'chain', 'generated');
const stampFile = path.join(artifactsDir, '.build-hash');
const standardInputFile = path.join(artifactsDir, 'standard-input.json');
const EVM_VERSION = 'cancun';
/** Published artifacts deployed as they are, by artifact name. */
const PUBLISHED = { PoolManager: '@uniswap/v4-core/out/PoolManager.sol/PoolManager.json' } as const;

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return listSources(p);
    return e.name.endsWith('.sol') ? [p] : [];
  });
}

function resolveImport(importPath: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(require.resolve(importPath), 'utf8') };
  } catch {
    const local = path.join(root, importPath);
    if (existsSync(local)) return { contents: readFileSync(local, 'utf8') };
    return { error: `File not found: ${importPath}` };
  }
}

/** The Solidity sources by their standard-JSON key, and the digest of everything a build depends on. */
function contractSources(): { digest: string; sources: Record<string, { content: string }> } {
  const solcVersion = (require('solc/package.json') as { version: string }).version;
  const files = listSources(contractsDir).sort();
  const sources: Record<string, { content: string }> = {};
  const hash = createHash('sha256').update(`solc ${solcVersion} ${EVM_VERSION}\n`);
  for (const f of files) {
    const key = path.relative(root, f).split(path.sep).join('/');
    const content = readFileSync(f, 'utf8');
    sources[key] = { content };
    hash.update(`${key}\n${content}\n`);
  }
  for (const file of Object.values(PUBLISHED)) hash.update(readFileSync(require.resolve(file)));
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  return { digest: hash.digest('hex'), sources };
}

/** True when the artifacts were built from the sources as they are now (the start-up check of src/main.ts). */
export function artifactsMatchSources(): boolean {
  return (
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8') === contractSources().digest &&
    existsSync(path.join(generatedDir, 'abis.ts')) &&
    existsSync(standardInputFile)
  );
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
  for (const [name, file] of Object.entries(PUBLISHED)) {
    const published = JSON.parse(readFileSync(require.resolve(file), 'utf8'));
    writeFileAtomic(
      path.join(artifactsDir, `${name}.json`),
      JSON.stringify({
        contractName: name,
        sourceName: file,
        abi: published.abi,
        bytecode: published.bytecode.object,
        deployedBytecode: published.deployedBytecode.object,
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

// Opening the chain: a remote RPC with a contracts file, and the local deployment that runs once and finishes
// an interrupted run without redeploying what exists.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MockUSDCAbi, PrimaryTokenAbi } from '@ai-economy/shared/abis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilNode, startAnvil } from '../../src/chain/anvil.ts';
import { createChainClients, devAddresses } from '../../src/chain/client.ts';
import { readContractsFile, writeContractsFile } from '../../src/chain/contracts/addresses.ts';
import { deployLocalContracts } from '../../src/chain/deploy.ts';
import { DEV_PRIMARY_GRANT, DEV_USDC_GRANT } from '../../src/chain/deploy-steps.ts';
import { openChain } from '../../src/chain/index.ts';
import { loadConfig } from '../../src/config.ts';

let node: AnvilNode;
const dir = mkdtempSync(path.join(tmpdir(), 'aie-chain-'));

beforeAll(async () => {
  node = await startAnvil();
});
afterAll(async () => {
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('deployLocalContracts', () => {
  it('deploys once, funds dev accounts once, and a second run changes nothing', async () => {
    const clients = createChainClients({ chainId: 31337, rpcUrl: node.rpcUrl, local: true, timeoutMs: 5000 });
    const saved: { contracts: number; pending?: string; complete?: boolean }[] = [];
    const first = await deployLocalContracts(clients, undefined, {
      baseUrl: 'http://x',
      save: (f) =>
        saved.push({ contracts: Object.keys(f.contracts).length, pending: f.pending?.key, complete: f.complete }),
    });
    expect(Object.keys(first.contracts).sort()).toEqual([
      'accessCard',
      'cardSafeOwner',
      'decisionAnchor',
      'distributor',
      'emissionToken',
      'feeHook',
      'identityRegistry',
      'launcherApprover',
      'moduleProxyFactory',
      'poolManager',
      'primaryToken',
      'rolesSingleton',
      'safeFallbackHandler',
      'safeModuleSetup',
      'safeMultiSendCallOnly',
      'safeProxyFactory',
      'safeSingleton',
      'staking',
      'timelock',
      'tokenLauncher',
      'usdc',
      'validationRegistry',
    ]);
    // Persisted before each creation is sent (its signed transaction, pending) and after it is mined, so a crash
    // in between neither loses a contract nor deploys one twice; the CREATE2 hook and the custody contracts (at
    // deterministic addresses) need no pending record.
    expect(saved.filter((s) => s.pending).length).toBe(12);
    expect([...new Set(saved.map((s) => s.contracts))]).toEqual(Array.from({ length: 23 }, (_, i) => i));
    expect(saved.at(-1)).toEqual({ contracts: 22, pending: undefined, complete: true });
    const blockBefore = await clients.publicClient.getBlockNumber({ cacheTime: 0 });

    const second = await deployLocalContracts(clients, first, { baseUrl: 'http://x' });
    expect(second.contracts).toEqual(first.contracts);
    expect(await clients.publicClient.getBlockNumber({ cacheTime: 0 })).toBe(blockBefore);
    for (const account of devAddresses().slice(1)) {
      const balance = await clients.publicClient.readContract({
        address: first.contracts.usdc!,
        abi: MockUSDCAbi,
        functionName: 'balanceOf',
        args: [account],
      });
      expect(balance).toBe(DEV_USDC_GRANT);
      const primary = await clients.publicClient.readContract({
        address: first.contracts.primaryToken!,
        abi: PrimaryTokenAbi,
        functionName: 'balanceOf',
        args: [account],
      });
      expect(primary).toBe(DEV_PRIMARY_GRANT);
    }
    // Only the distributor may mint the primary token (within its per-epoch cap): the platform key gave its role up.
    const token = { address: first.contracts.primaryToken!, abi: PrimaryTokenAbi } as const;
    const minter = await clients.publicClient.readContract({ ...token, functionName: 'MINTER_ROLE' });
    const hasRole = (account: `0x${string}`) =>
      clients.publicClient.readContract({ ...token, functionName: 'hasRole', args: [minter, account] });
    expect(await hasRole(clients.platform.account.address)).toBe(false);
    expect(await hasRole(first.contracts.distributor!)).toBe(true);
  });

  it('finishes an interrupted deployment: a recorded address without code is deployed again', async () => {
    const clients = createChainClients({ chainId: 31337, rpcUrl: node.rpcUrl, local: true, timeoutMs: 5000 });
    const first = await deployLocalContracts(clients, undefined, { baseUrl: 'http://x' });
    const broken = { ...first, contracts: { usdc: first.contracts.usdc, accessCard: devAddresses()[5] } };
    const repaired = await deployLocalContracts(clients, broken, { baseUrl: 'http://x' });
    expect(repaired.contracts.usdc).toBe(first.contracts.usdc);
    expect(repaired.contracts.accessCard).not.toBe(devAddresses()[5]);
  });
});

describe('openChain with CHAIN_RPC_URL', () => {
  const key = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

  it('reads the addresses from the contracts file and makes no chain call to start', async () => {
    const file = path.join(dir, 'contracts.json');
    writeContractsFile(file, {
      chainId: 8453,
      contracts: {
        accessCard: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
        usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      },
    });
    // An RPC URL where nothing listens: start-up must still succeed.
    const config = loadConfig({ CHAIN_RPC_URL: 'http://127.0.0.1:1', PLATFORM_PRIVATE_KEY: key, CONTRACTS_FILE: file });
    const { chain } = await openChain(config, () => {});
    expect(chain.chainId).toBe(8453);
    expect(chain.local).toBe(false);
    expect(chain.contracts.usdc).toBe('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
    expect(chain.platform.account.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    // Base's explorer is known; EXPLORER_URL names another.
    expect(chain.explorerUrl).toBe('https://basescan.org');
    const remote = { CHAIN_RPC_URL: 'http://127.0.0.1:1', PLATFORM_PRIVATE_KEY: key, CONTRACTS_FILE: file };
    const configured = await openChain(loadConfig({ ...remote, EXPLORER_URL: 'https://explorer.example/' }), () => {});
    expect(configured.chain.explorerUrl).toBe('https://explorer.example');
  });

  it('refuses a missing file, a malformed file, an unknown contract name and a chain id mismatch', async () => {
    const base = { CHAIN_RPC_URL: 'http://127.0.0.1:1', PLATFORM_PRIVATE_KEY: key };
    await expect(
      openChain(loadConfig({ ...base, CONTRACTS_FILE: path.join(dir, 'none.json') }), () => {}),
    ).rejects.toThrow(/does not exist/);
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, '{"chainId":8453,"contracts":{"accessCard":"0x123"}}');
    expect(() => readContractsFile(bad)).toThrow(/accessCard is not an address/);
    writeFileSync(bad, '{"chainId":8453,"contracts":{"teleporter":"0x5FbDB2315678afecb367f032d93F642f64180aa3"}}');
    expect(() => readContractsFile(bad)).toThrow(/unknown contract "teleporter"/);
    writeFileSync(bad, 'not json');
    expect(() => readContractsFile(bad)).toThrow(/not valid JSON/);
    const good = path.join(dir, 'contracts.json');
    await expect(openChain(loadConfig({ ...base, CONTRACTS_FILE: good, CHAIN_ID: '1' }), () => {})).rejects.toThrow(
      /does not match/,
    );
  });
});

describe('a second local chain in the same process', () => {
  it('deploys, although viem counted nonces of the same accounts on another chain of the same id', async () => {
    // The deployment above sent from account 0 on chain 31337: viem's nonce manager, process-wide, counted them.
    const opened = await openChain(
      loadConfig({ DATA_DIR: mkdtempSync(path.join(dir, 'second-')), BASE_URL: 'http://x', RPC_TIMEOUT_MS: '5000' }),
      () => {},
    );
    try {
      expect(opened.chain.chainId).toBe(31337);
      expect(opened.chain.contracts.usdc).toMatch(/^0x[0-9a-fA-F]{40}$/);
      const code = await opened.chain.publicClient.getCode({ address: opened.chain.contracts.usdc! });
      expect(code?.length).toBeGreaterThan(2);
    } finally {
      await opened.stop();
    }
  }, 60_000);
});

// The whole service as a newcomer runs it: a real process on embedded defaults (PGlite, its own anvil), driven
// over HTTP and the chain; its chain's clock moved past the end of the running epoch (as `npm run demo` does);
// stopped with SIGTERM and started again on the same data directory, where the chain's clock has not gone back.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccessCardAbi, MockUSDCAbi } from '@ai-economy/shared/abis';
import { type Address, createPublicClient, createWalletClient, http } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { devAccount, makeViemChain } from '../../src/chain/client.ts';
import { killServices, lastLine, runCli, type ServiceProcess, startService } from '../helpers/process.ts';
import { signedRequest } from '../helpers/security.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'aie-e2e-'));
let server: ServiceProcess | undefined;

/** The service on embedded defaults: nothing but its data directory (and a free port) set. */
async function start(): Promise<{ base: string }> {
  server = await startService({ DATA_DIR: dataDir });
  return server;
}

async function stop(): Promise<number | null> {
  const code = await server!.stop();
  server = undefined;
  return code;
}

afterAll(async () => {
  killServices();
  // A service killed before it stopped (a start that timed out) leaves its embedded chain running, as a crash does for
  // the next start to claim: end that node too, so it neither outlives the test nor saves its state into the
  // directory being removed (an ENOTEMPTY rmdir).
  const pidFile = path.join(dataDir, 'chain-state.json.pid');
  if (existsSync(pidFile)) {
    const node = Number(readFileSync(pidFile, 'utf8').trim().split(/\s+/)[0]);
    try {
      // Only that node: a pid the system gave to another process since is left alone.
      const command = readFileSync(`/proc/${node}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (Number.isInteger(node) && node > 0 && command.includes('anvil') && command.includes(dataDir)) {
        process.kill(node, 'SIGKILL');
      }
    } catch {
      // already gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

describe('npm start on embedded defaults', () => {
  let contracts: { accessCard: Address; usdc: Address };
  let rpcUrl: string;
  /** The chain's time after its clock was moved a week ahead. */
  let movedTo: bigint;

  it('serves health within 60 s, lists the contracts, and lets a dev account mint a card and read its metadata', async () => {
    const { base } = await start();
    const chainInfo = ((await (await fetch(`${base}/api/chain`)).json()) as any).data;
    contracts = chainInfo.contracts;
    rpcUrl = chainInfo.rpcUrl;
    expect(contracts.accessCard).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(contracts.usdc).toMatch(/^0x[0-9a-fA-F]{40}$/);

    const viemChain = makeViemChain(chainInfo.chainId, rpcUrl);
    const publicClient = createPublicClient({ chain: viemChain, transport: http(rpcUrl) });
    const buyer = createWalletClient({ account: devAccount(2), chain: viemChain, transport: http(rpcUrl) });
    const price = await publicClient.readContract({
      address: contracts.accessCard,
      abi: AccessCardAbi,
      functionName: 'mintPrice',
    });
    await publicClient.waitForTransactionReceipt({
      hash: await buyer.writeContract({
        address: contracts.usdc,
        abi: MockUSDCAbi,
        functionName: 'approve',
        args: [contracts.accessCard, price],
      }),
    });
    const receipt = await publicClient.waitForTransactionReceipt({
      hash: await buyer.writeContract({ address: contracts.accessCard, abi: AccessCardAbi, functionName: 'mint' }),
    });
    expect(receipt.status).toBe('success');
    const owner = await publicClient.readContract({
      address: contracts.accessCard,
      abi: AccessCardAbi,
      functionName: 'ownerOf',
      args: [1n],
    });
    expect(owner).toBe(devAccount(2).address);

    const metadata = await fetch(`${base}/api/nft/metadata/1`);
    expect(metadata.status).toBe(200);
    const body = (await metadata.json()) as any;
    expect(body.attributes).toContainEqual({ trait_type: 'Tier', value: 'Black' });

    // The card's holder creates a company and hires its C-suite, signing each request over real HTTP.
    const signedFetch = async (method: 'POST', path: string, payload?: unknown) => {
      const raw = payload === undefined ? undefined : JSON.stringify(payload);
      const headers = await signedRequest(devAccount(2), method, path, payload);
      return fetch(`${base}${path}`, { method, headers, ...(raw === undefined ? {} : { body: raw }) });
    };
    const created = await signedFetch('POST', '/api/companies', { name: 'E2E Agents', category: 'DEFI_YIELD' });
    expect(created.status).toBe(201);
    const company = ((await created.json()) as any).data;
    expect(company).toMatchObject({ slug: 'e2e-agents', cardTokenId: 1, cardLocked: true, status: 'INCORPORATING' });
    const suite = await signedFetch('POST', `/api/companies/${company.id}/deploy-suite`);
    expect(suite.status).toBe(200);
    const { created: hired } = ((await suite.json()) as any).data;
    expect(hired.map((a: { status: string }) => a.status)).toEqual(Array(7).fill('ACTIVE'));
    const view = ((await (await fetch(`${base}/api/companies/e2e-agents`)).json()) as any).data;
    expect(view.status).toBe('PRIVATE');
    // The local chain has no block explorer: no link rather than a relative one.
    expect(chainInfo.explorerUrl).toBeNull();

    // The demo ends the running epoch by moving the chain's clock past its end.
    const epoch = ((await (await fetch(`${base}/api/epochs/current`)).json()) as any).data;
    expect(epoch.epochNumber).toBe(0);
    await publicClient.request({ method: 'evm_increaseTime' as never, params: [epoch.nextEpochIn + 60] as never });
    await publicClient.request({ method: 'evm_mine' as never, params: [] as never });
    expect(((await (await fetch(`${base}/api/epochs/current`)).json()) as any).data.epochNumber).toBe(1);
    movedTo = (await publicClient.getBlock({ blockTag: 'latest' })).timestamp;

    expect(await stop()).toBe(0);
    // The node stopped with the service.
    await expect(publicClient.getBlockNumber({ cacheTime: 0 })).rejects.toThrow();
  }, 120_000);

  it('starts again on the same data directory with the same contracts and the minted card', async () => {
    const { base } = await start();
    const chainInfo = ((await (await fetch(`${base}/api/chain`)).json()) as any).data;
    expect(chainInfo.contracts.accessCard).toBe(contracts.accessCard);
    expect(chainInfo.contracts.usdc).toBe(contracts.usdc);
    const publicClient = createPublicClient({
      chain: makeViemChain(chainInfo.chainId, chainInfo.rpcUrl),
      transport: http(chainInfo.rpcUrl),
    });
    const owner = await publicClient.readContract({
      address: contracts.accessCard,
      abi: AccessCardAbi,
      functionName: 'ownerOf',
      args: [1n],
    });
    expect(owner).toBe(devAccount(2).address);
    // The database kept the company and its agents; the card is still locked to it on-chain.
    const company = ((await (await fetch(`${base}/api/companies/e2e-agents`)).json()) as any).data;
    expect(company.agents).toHaveLength(7);
    const locked = await publicClient.readContract({
      address: contracts.accessCard,
      abi: AccessCardAbi,
      functionName: 'companyDeployed',
      args: [1n],
    });
    expect(locked).toBe(true);

    // The chain resumed where its clock was, a week ahead of the server's: still epoch 1, blocks still forward.
    expect((await publicClient.getBlock({ blockTag: 'latest' })).timestamp).toBeGreaterThanOrEqual(movedTo);
    expect(((await (await fetch(`${base}/api/epochs/current`)).json()) as any).data.epochNumber).toBe(1);
    // A new company hires its C-suite on that chain: the agent-wallet proofs' deadlines follow the chain's clock.
    const viemChain = makeViemChain(chainInfo.chainId, chainInfo.rpcUrl);
    const founder = devAccount(3);
    const wallet = createWalletClient({ account: founder, chain: viemChain, transport: http(chainInfo.rpcUrl) });
    const price = await publicClient.readContract({
      address: contracts.accessCard,
      abi: AccessCardAbi,
      functionName: 'mintPrice',
    });
    await publicClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: contracts.usdc,
        abi: MockUSDCAbi,
        functionName: 'approve',
        args: [contracts.accessCard, price],
      }),
    });
    await publicClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({ address: contracts.accessCard, abi: AccessCardAbi, functionName: 'mint' }),
    });
    const signedFetch = async (method: 'POST', path: string, payload?: unknown) => {
      const raw = payload === undefined ? undefined : JSON.stringify(payload);
      const headers = await signedRequest(founder, method, path, payload);
      return fetch(`${base}${path}`, { method, headers, ...(raw === undefined ? {} : { body: raw }) });
    };
    const created = await signedFetch('POST', '/api/companies', { name: 'After Restart', category: 'DEFI_YIELD' });
    expect(created.status).toBe(201);
    const suite = await signedFetch('POST', `/api/companies/${((await created.json()) as any).data.id}/deploy-suite`);
    expect(suite.status).toBe(200);
    const deployed = ((await suite.json()) as any).data;
    expect(
      deployed.created.map((a: { status: string }) => a.status),
      JSON.stringify(deployed.dualityResults),
    ).toEqual(Array(7).fill('ACTIVE'));

    // The README's next step: an API key, made while the service holds the embedded database, through the service.
    const made = await runCli(['api-keys', 'create', '--name', 'e2e reader'], { DATA_DIR: dataDir });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain(
      `Database: the embedded PGlite under ${path.join(dataDir, 'pg')}, through the running service at http://127.0.0.1:`,
    );
    const key = lastLine(made.stdout);
    expect((await fetch(`${base}/api/v1/tokens`, { headers: { 'x-api-key': key } })).status).toBe(200);
    expect((await fetch(`${base}/api/v1/tokens`, { headers: { 'x-api-key': `${key.slice(0, -1)}x` } })).status).toBe(
      401,
    );
    expect(await stop()).toBe(0);

    // With the service stopped, the CLI opens the database itself and finds the same key.
    const listed = await runCli(['api-keys', 'list', '--json'], { DATA_DIR: dataDir });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toBe(`Database: the embedded PGlite under ${path.join(dataDir, 'pg')}.\n`);
    expect(JSON.parse(listed.stdout).map((k: { name: string }) => k.name)).toContain('e2e reader');
  }, 180_000);
});

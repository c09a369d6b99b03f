// The whole service as a newcomer runs it: a real process on embedded defaults (PGlite, its own anvil), driven
// over HTTP and the chain; stopped with SIGTERM and started again on the same data directory.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Address, createPublicClient, createWalletClient, http } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { devAccount, makeViemChain } from '../../src/chain/client.ts';
import { AccessCardAbi, MockUSDCAbi } from '../../src/chain/generated/abis.ts';
import { signedRequest } from '../helpers/security.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'aie-e2e-'));
let server: ChildProcess | undefined;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function start(port: number): Promise<{ base: string; output: () => string }> {
  let output = '';
  server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  server.stdout?.on('data', collect);
  server.stderr?.on('data', collect);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited early: ${output}`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok && ((await res.json()) as any).data.status === 'ok') return { base, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server not healthy within 60 s: ${output}`);
}

async function stop(): Promise<number | null> {
  const s = server!;
  const exited = new Promise<number | null>((resolve) => s.once('exit', (code) => resolve(code)));
  s.kill('SIGTERM');
  const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000))]);
  if (code === 'timeout') {
    s.kill('SIGKILL');
    throw new Error('server did not stop within 15 s of SIGTERM');
  }
  server = undefined;
  return code;
}

afterAll(async () => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start on embedded defaults', () => {
  let contracts: { accessCard: Address; usdc: Address };
  let rpcUrl: string;

  it('serves health within 60 s, lists the contracts, and lets a dev account mint a card and read its metadata', async () => {
    const { base } = await start(await freePort());
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

    expect(await stop()).toBe(0);
    // The node stopped with the service.
    await expect(publicClient.getBlockNumber({ cacheTime: 0 })).rejects.toThrow();
  }, 120_000);

  it('starts again on the same data directory with the same contracts and the minted card', async () => {
    const { base } = await start(await freePort());
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
    expect(await stop()).toBe(0);
  }, 120_000);
});

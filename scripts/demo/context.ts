import { MockUSDCAbi } from '@ai-economy/shared/abis';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  maxUint256,
  type PublicClient,
} from 'viem';
import type { HDAccount } from 'viem/accounts';
import { ANVIL_CHAIN_ID } from '../../src/chain/anvil.ts';
import { devAccount } from '../../src/chain/client.ts';
import { walletAuthorizationHeader, walletSignatureMessage } from '../../src/domain/auth/wallet-signature.ts';
import type { DemoOptions } from './args.ts';
import { type DemoCompany, planCompanies } from './plan.ts';
import type { Progress } from './progress.ts';

// ---------------------------------------------------------------------------------------------------------------
// HTTP: the service's envelope, wallet signatures, bearer secrets.

export interface ApiResult {
  status: number;
  body: any;
}

export class Api {
  private readonly usedStamps = new Set<string>();
  constructor(private readonly base: string) {}

  async call(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT',
    path: string,
    options: { body?: unknown; signer?: HDAccount; bearer?: string } = {},
  ): Promise<ApiResult> {
    const raw = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = {};
    if (raw !== undefined) headers['content-type'] = 'application/json';
    if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
    if (options.signer) {
      // A signature is accepted once: never sign the same request twice within one second.
      let ts = Math.floor(Date.now() / 1000);
      const key = (t: number) => `${options.signer!.address} ${method} ${path} ${raw ?? ''} ${t}`;
      while (this.usedStamps.has(key(ts))) ts--;
      this.usedStamps.add(key(ts));
      const signature = await options.signer.signMessage({
        message: walletSignatureMessage(method, path, ts, raw ?? ''),
      });
      headers.authorization = walletAuthorizationHeader(options.signer.address, ts, signature);
    }
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, { method, headers, ...(raw === undefined ? {} : { body: raw }) });
    } catch (err) {
      throw new DemoError(
        `cannot reach the service at ${this.base} (${(err as Error).message}); start it with npm start, or pass --url`,
      );
    }
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, body };
  }

  /** The `data` of a 2xx answer; anything else throws with the service's error. */
  async data(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT',
    path: string,
    options: { body?: unknown; signer?: HDAccount; bearer?: string } = {},
  ) {
    const res = await this.call(method, path, options);
    if (res.status < 200 || res.status >= 300) throw new DemoError(`${method} ${path}: ${describe(res)}`);
    return res.body?.data ?? res.body;
  }
}

export class DemoError extends Error {}

export function describe(res: ApiResult): string {
  const error = res.body?.error;
  if (error && typeof error === 'object') return `${res.status} ${error.code}: ${error.message}`;
  return `${res.status} ${typeof res.body === 'string' ? res.body.slice(0, 200) : JSON.stringify(res.body)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Chain.

export interface ChainInfo {
  chainId: number;
  rpcUrl?: string;
  contracts: Partial<Record<string, Address>>;
}

export interface Ctx {
  api: Api;
  options: DemoOptions;
  progress: Progress;
  client: PublicClient;
  rpcUrl: string;
  contracts: {
    accessCard: Address;
    usdc: Address;
    primaryToken: Address;
    staking: Address;
    tokenLauncher: Address;
    distributor: Address;
  };
  /** Dev accounts 0-9 of the mnemonic. */
  accounts: HDAccount[];
  /** Any address index of the mnemonic: a dev account, a treasury, a market trader. */
  account: (index: number) => HDAccount;
  wallet: (index: number) => ReturnType<typeof makeWallet>;
  /** The demo companies of the plan run (--plan). */
  plan: DemoCompany[];
  /** Companies by slug, as the service answers them. */
  companies: Map<string, any>;
  summary: string[];
  notes: string[];
}

export function makeWallet(account: HDAccount, chain: ReturnType<typeof defineChain>, rpcUrl: string) {
  return createWalletClient({ account, chain, transport: http(rpcUrl) });
}

/** Sends a transaction and waits for it; a revert throws. */
export async function send(ctx: Ctx, index: number, what: string, request: Record<string, any>) {
  const wallet = ctx.wallet(index);
  const hash: Hex = await wallet.writeContract({ ...request, account: wallet.account, chain: wallet.chain } as any);
  const receipt = await ctx.client.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new DemoError(`${what}: transaction ${hash} reverted`);
  return receipt;
}

export async function rpc(ctx: Ctx, method: string, params: unknown[]) {
  const res = await fetch(ctx.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new DemoError(`${method}: ${body.error.message}`);
  return body.result;
}

/** POST to a scheduler route with the secret; its `data`. */
export async function cron(ctx: Ctx, path: string, secret: string): Promise<any> {
  const res = await ctx.api.call('POST', path, { bearer: secret });
  if (res.status === 401) {
    throw new DemoError(`POST ${path}: 401: the secret is not the service's CRON_SECRET or ADMIN_SECRET`);
  }
  if (res.status !== 200) throw new DemoError(`POST ${path}: ${describe(res)}`);
  return res.body.data;
}

export async function ensureAllowance(ctx: Ctx, index: number, token: Address, spender: Address, amount: bigint) {
  const owner = ctx.account(index).address;
  const allowance = await ctx.client.readContract({
    address: token,
    abi: MockUSDCAbi,
    functionName: 'allowance',
    args: [owner, spender],
  });
  if (allowance >= amount) return;
  await send(ctx, index, 'approve', {
    address: token,
    abi: MockUSDCAbi,
    functionName: 'approve',
    args: [spender, maxUint256],
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Steps.

export async function connect(options: DemoOptions, progress: Progress): Promise<Ctx> {
  const api = new Api(options.url);
  const health = await api.call('GET', '/api/health');
  if (health.status !== 200) throw new DemoError(`GET /api/health: ${describe(health)}`);
  const info = (await api.data('GET', '/api/chain')) as ChainInfo;
  if (info.chainId !== ANVIL_CHAIN_ID) {
    throw new DemoError(
      `the service's chain id is ${info.chainId}, not ${ANVIL_CHAIN_ID}: the demo runs on the local anvil chain only (it moves the chain's clock and signs with public dev keys)`,
    );
  }
  if (!info.rpcUrl) throw new DemoError('GET /api/chain names no rpcUrl: the service is not on its local chain');
  const needed = ['accessCard', 'usdc', 'primaryToken', 'staking', 'tokenLauncher', 'distributor'] as const;
  for (const name of needed) {
    if (!info.contracts[name])
      throw new DemoError(`GET /api/chain names no ${name} contract: is the deployment complete?`);
  }
  const chain = defineChain({
    id: ANVIL_CHAIN_ID,
    name: 'Local (anvil)',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [info.rpcUrl] } },
  });
  // The local chain mines a transaction as it comes, but its receipt lags the hash by a moment: a wait that misses
  // it on its first look (most do) looks again after the client's pollingInterval, by default 4 s (viem's for a chain
  // of 12-second blocks). Every transaction the demo and the simulation send waited about 4 s so; polled every
  // 100 ms, about 0.1 s (the service polls its own local chain every 200 ms: src/chain/client.ts).
  const client = createPublicClient({ chain, transport: http(info.rpcUrl), pollingInterval: 100 }) as PublicClient;
  // The node itself must say 31337 too, whatever the service believes.
  const nodeChainId = await client.getChainId();
  if (nodeChainId !== ANVIL_CHAIN_ID) {
    throw new DemoError(`the RPC at ${info.rpcUrl} answers chain id ${nodeChainId}, not ${ANVIL_CHAIN_ID}: refusing`);
  }
  const accounts = Array.from({ length: 10 }, (_, i) => devAccount(i));
  const wallets = new Map<number, ReturnType<typeof makeWallet>>();
  return {
    api,
    options,
    progress,
    client,
    rpcUrl: info.rpcUrl,
    contracts: Object.fromEntries(needed.map((n) => [n, info.contracts[n]!])) as Ctx['contracts'],
    accounts,
    account: devAccount,
    wallet: (index) => {
      let w = wallets.get(index);
      if (!w) {
        w = makeWallet(devAccount(index), chain, info.rpcUrl!);
        wallets.set(index, w);
      }
      return w;
    },
    plan: planCompanies(options.plan),
    companies: new Map(),
    summary: [],
    notes: [],
  };
}

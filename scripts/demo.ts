// `npm run demo`: fills a RUNNING ai-economy service on its local anvil chain with life, over real HTTP and real
// transactions. Dev accounts 1-9 of anvil's mnemonic mint access cards, create companies across the categories and
// both leagues, deploy their C-suites, launch tokens, trade them (two graduate into their Uniswap v4 pool), stake
// primary tokens, run decision rounds, and finalize and claim a reward epoch. Each step reads the state first and
// only does what is missing, so a second run does no harm. It refuses any chain but 31337: it moves the chain's
// clock and signs with the public dev keys. Pure parts (plan, progress bar, decisions) are in scripts/demo/lib.ts.
import { existsSync, readFileSync } from 'node:fs';
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
import { type HDAccount, mnemonicToAccount } from 'viem/accounts';
import {
  AccessCardAbi,
  CompanyTokenAbi,
  MockUSDCAbi,
  PrimaryTokenAbi,
  StakingAbi,
  TokenLauncherAbi,
} from '../src/chain/generated/abis.ts';
import { chainTime } from '../src/chain/time.ts';
import { walletAuthorizationHeader, walletSignatureMessage } from '../src/domain/auth/wallet-signature.ts';
import {
  ANVIL_MNEMONIC,
  DEMO_COMPANIES,
  type DemoCompany,
  type DemoOptions,
  formatUnitsShort,
  LOCAL_CHAIN_ID,
  localCronSecret,
  parseDemoArgs,
  planEpoch,
  renderBar,
  STAKE_TARGETS,
  shortfall,
  snapshotSeconds,
  treasuryIndex,
  USAGE,
  units,
  withSlippage,
} from './demo/lib.ts';

// ---------------------------------------------------------------------------------------------------------------
// Output: a progress bar on stderr, notes above it, a summary on stdout.

class Progress {
  private done = 0;
  private label = 'starting';
  private readonly tty = process.stderr.isTTY === true;
  constructor(private readonly total: number) {}
  step(label: string) {
    this.label = label;
    this.draw();
  }
  advance(label?: string) {
    this.done++;
    if (label) this.label = label;
    this.draw();
  }
  note(line: string) {
    if (this.tty) process.stderr.write('\r\x1b[2K');
    process.stderr.write(`  ${line}\n`);
    if (this.tty) this.draw();
  }
  finish() {
    this.done = this.total;
    this.label = 'done';
    this.draw();
    if (this.tty) process.stderr.write('\n');
  }
  private draw() {
    const line = renderBar(this.done, this.total, this.label);
    if (this.tty) process.stderr.write(`\r\x1b[2K${line}`);
    else process.stderr.write(`${line}\n`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP: the service's envelope, wallet signatures, bearer secrets.

interface ApiResult {
  status: number;
  body: any;
}

class Api {
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

class DemoError extends Error {}

function describe(res: ApiResult): string {
  const error = res.body?.error;
  if (error && typeof error === 'object') return `${res.status} ${error.code}: ${error.message}`;
  return `${res.status} ${typeof res.body === 'string' ? res.body.slice(0, 200) : JSON.stringify(res.body)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Chain.

interface ChainInfo {
  chainId: number;
  rpcUrl?: string;
  contracts: Partial<Record<string, Address>>;
}

interface Ctx {
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
  accounts: HDAccount[];
  wallet: (index: number) => ReturnType<typeof makeWallet>;
  /** Companies by slug, as the service answers them. */
  companies: Map<string, any>;
  summary: string[];
  notes: string[];
}

function makeWallet(account: HDAccount, chain: ReturnType<typeof defineChain>, rpcUrl: string) {
  return createWalletClient({ account, chain, transport: http(rpcUrl) });
}

/** Sends a transaction and waits for it; a revert throws. */
async function send(ctx: Ctx, index: number, what: string, request: Record<string, any>) {
  const wallet = ctx.wallet(index);
  const hash: Hex = await wallet.writeContract({ ...request, account: wallet.account, chain: wallet.chain } as any);
  const receipt = await ctx.client.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new DemoError(`${what}: transaction ${hash} reverted`);
  return receipt;
}

async function rpc(ctx: Ctx, method: string, params: unknown[]) {
  const res = await fetch(ctx.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new DemoError(`${method}: ${body.error.message}`);
  return body.result;
}

async function ensureAllowance(ctx: Ctx, index: number, token: Address, spender: Address, amount: bigint) {
  const owner = ctx.accounts[index]!.address;
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

async function connect(options: DemoOptions, progress: Progress): Promise<Ctx> {
  const api = new Api(options.url);
  const health = await api.call('GET', '/api/health');
  if (health.status !== 200) throw new DemoError(`GET /api/health: ${describe(health)}`);
  const info = (await api.data('GET', '/api/chain')) as ChainInfo;
  if (info.chainId !== LOCAL_CHAIN_ID) {
    throw new DemoError(
      `the service's chain id is ${info.chainId}, not ${LOCAL_CHAIN_ID}: the demo runs on the local anvil chain only (it moves the chain's clock and signs with public dev keys)`,
    );
  }
  if (!info.rpcUrl) throw new DemoError('GET /api/chain names no rpcUrl: the service is not on its local chain');
  const needed = ['accessCard', 'usdc', 'primaryToken', 'staking', 'tokenLauncher', 'distributor'] as const;
  for (const name of needed) {
    if (!info.contracts[name])
      throw new DemoError(`GET /api/chain names no ${name} contract: is the deployment complete?`);
  }
  const chain = defineChain({
    id: LOCAL_CHAIN_ID,
    name: 'Local (anvil)',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [info.rpcUrl] } },
  });
  const client = createPublicClient({ chain, transport: http(info.rpcUrl) }) as PublicClient;
  // The node itself must say 31337 too, whatever the service believes.
  const nodeChainId = await client.getChainId();
  if (nodeChainId !== LOCAL_CHAIN_ID) {
    throw new DemoError(`the RPC at ${info.rpcUrl} answers chain id ${nodeChainId}, not ${LOCAL_CHAIN_ID}: refusing`);
  }
  const accounts = Array.from({ length: 10 }, (_, i) => mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: i }));
  const wallets = new Map<number, ReturnType<typeof makeWallet>>();
  return {
    api,
    options,
    progress,
    client,
    rpcUrl: info.rpcUrl,
    contracts: Object.fromEntries(needed.map((n) => [n, info.contracts[n]!])) as Ctx['contracts'],
    accounts,
    wallet: (index) => {
      let w = wallets.get(index);
      if (!w) {
        w = makeWallet(accounts[index]!, chain, info.rpcUrl!);
        wallets.set(index, w);
      }
      return w;
    },
    companies: new Map(),
    summary: [],
    notes: [],
  };
}

async function loadCompany(ctx: Ctx, slug: string) {
  const res = await ctx.api.call('GET', `/api/companies/${slug}`);
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new DemoError(`GET /api/companies/${slug}: ${describe(res)}`);
  ctx.companies.set(slug, res.body.data);
  return res.body.data;
}

/** Cards and companies: a company that exists is left alone; a card is minted only when no unused one is held. */
async function stepCompanies(ctx: Ctx) {
  let minted = 0;
  let created = 0;
  for (const c of DEMO_COMPANIES) {
    ctx.progress.step(`companies: ${c.slug}`);
    const account = ctx.accounts[c.account]!;
    const existing = await loadCompany(ctx, c.slug);
    if (existing) {
      if (existing.creatorAddress.toLowerCase() !== account.address.toLowerCase()) {
        throw new DemoError(
          `the slug ${c.slug} belongs to ${existing.creatorAddress}, not dev account ${c.account}: use a fresh DATA_DIR`,
        );
      }
      continue;
    }
    const unused = await ctx.client.readContract({
      address: ctx.contracts.accessCard,
      abi: AccessCardAbi,
      functionName: 'canDeploy',
      args: [account.address],
    });
    if (unused === 0n) {
      const price = await ctx.client.readContract({
        address: ctx.contracts.accessCard,
        abi: AccessCardAbi,
        functionName: 'mintPrice',
      });
      await ensureAllowance(ctx, c.account, ctx.contracts.usdc, ctx.contracts.accessCard, price);
      // The price just read is the most this mint pays: a price change in between reverts instead of costing more.
      await send(ctx, c.account, 'mint a card', {
        address: ctx.contracts.accessCard,
        abi: AccessCardAbi,
        functionName: 'mint',
        args: [price],
      });
      minted++;
    }
    await ctx.api.data('POST', '/api/companies', {
      signer: account,
      body: {
        name: c.name,
        slug: c.slug,
        category: c.category,
        description: c.description,
        treasuryAddress: treasuryOf(c),
      },
    });
    await loadCompany(ctx, c.slug);
    created++;
  }
  ctx.summary.push(`cards minted: ${minted}, companies created: ${created} (of ${DEMO_COMPANIES.length})`);
}

const treasuryOf = (c: DemoCompany): Address =>
  mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: treasuryIndex(c.account) }).address;

/**
 * Treasuries: each company's own address, funded by its creator up to the planned USDC, so the Fortune List's
 * treasury scores differ. Epoch rewards are minted there.
 */
async function stepTreasuries(ctx: Ctx) {
  let moved = 0n;
  for (const c of DEMO_COMPANIES) {
    const company = ctx.companies.get(c.slug);
    const treasury = treasuryOf(c);
    if (company.treasuryAddress?.toLowerCase() !== treasury.toLowerCase()) {
      ctx.progress.step(`treasuries: ${c.slug} sets its treasury`);
      await ctx.api.data('PUT', `/api/companies/${company.id}/treasury`, {
        signer: ctx.accounts[c.account]!,
        body: { treasuryAddress: treasury },
      });
      await loadCompany(ctx, c.slug);
    }
    const balance = await ctx.client.readContract({
      address: ctx.contracts.usdc,
      abi: MockUSDCAbi,
      functionName: 'balanceOf',
      args: [treasury],
    });
    const missing = shortfall(balance, units(c.treasuryUsdc, 6));
    if (missing > 0n) {
      ctx.progress.step(`treasuries: ${c.slug} funds its treasury`);
      await send(ctx, c.account, 'fund the treasury', {
        address: ctx.contracts.usdc,
        abi: MockUSDCAbi,
        functionName: 'transfer',
        args: [treasury, missing],
      });
      moved += missing;
    }
  }
  ctx.summary.push(`treasuries funded now: ${formatUnitsShort(moved, 6)} USDC`);
}

/** Leagues: a CEO directive makes HUMAN_DIRECTED (HUMAN league); a master directive STRATEGY_AUTONOMOUS. */
async function stepLeagues(ctx: Ctx) {
  let changed = 0;
  for (const c of DEMO_COMPANIES) {
    const company = ctx.companies.get(c.slug);
    const signer = ctx.accounts[c.account]!;
    if (c.ceoPrompt && company.autonomyLevel !== 'HUMAN_DIRECTED') {
      ctx.progress.step(`leagues: ${c.slug} -> HUMAN`);
      await ctx.api.data('PATCH', `/api/companies/${company.id}`, {
        signer,
        body: { ceoPrompt: c.ceoPrompt, autonomyLevel: 'HUMAN_DIRECTED' },
      });
      changed++;
    }
    if (c.masterDirective && company.masterDirective !== c.masterDirective) {
      ctx.progress.step(`leagues: ${c.slug} strategy`);
      await ctx.api.data('PATCH', `/api/companies/${company.id}/engine`, {
        signer,
        body: { autonomyLevel: 'STRATEGY_AUTONOMOUS', masterDirective: c.masterDirective },
      });
      changed++;
    }
    await loadCompany(ctx, c.slug);
  }
  const human = [...ctx.companies.values()].filter((c) => c.league === 'HUMAN').length;
  ctx.summary.push(
    `leagues: ${human} HUMAN, ${ctx.companies.size - human} MACHINE (${changed} directive${changed === 1 ? '' : 's'} set now)`,
  );
}

/** deploy-suite for a company whose seven roles are not all held by an active agent (and not PUBLIC yet). */
async function stepSuites(ctx: Ctx) {
  let deployed = 0;
  for (const c of DEMO_COMPANIES) {
    const company = ctx.companies.get(c.slug);
    const active = company.agents.filter((a: any) => a.status === 'ACTIVE').length;
    if (active === 7 || company.status === 'PUBLIC') continue;
    ctx.progress.step(`suites: ${c.slug} hires 7 agents`);
    const result = await ctx.api.data('POST', `/api/companies/${company.id}/deploy-suite`, {
      signer: ctx.accounts[c.account]!,
    });
    const failed = Object.values(result.dualityResults ?? {}).filter((r: any) => r.status !== 'ACTIVE').length;
    if (failed) ctx.progress.note(`${c.slug}: ${failed} agent(s) failed their identity pipeline (a re-run retries)`);
    await loadCompany(ctx, c.slug);
    deployed++;
  }
  const agents = [...ctx.companies.values()].reduce(
    (n, c) => n + c.agents.filter((a: any) => a.status === 'ACTIVE').length,
    0,
  );
  ctx.summary.push(`suites deployed now: ${deployed}; active agents: ${agents}`);
}

/** Launches the planned tokens not launched yet. */
async function stepTokens(ctx: Ctx) {
  let launched = 0;
  for (const c of DEMO_COMPANIES) {
    if (!c.token) continue;
    let company = ctx.companies.get(c.slug);
    if (company.tokenStatus === 'PRE_PUBLIC') {
      ctx.progress.step(`tokens: launch ${c.token.symbol}`);
      await ctx.api.data('POST', `/api/companies/${company.id}/token`, {
        signer: ctx.accounts[c.account]!,
        body: { name: c.token.name, symbol: c.token.symbol },
      });
      launched++;
    }
    company = await loadCompany(ctx, c.slug);
    if (!company.tokenAddress) throw new DemoError(`${c.slug}: the token has no address after its launch`);
  }
  ctx.summary.push(`tokens launched now: ${launched}`);
}

interface TokenState {
  price: bigint;
  marketCap: bigint;
  graduated: boolean;
}

async function tokenState(ctx: Ctx, token: Address): Promise<TokenState> {
  const [[price, marketCap], graduated] = await Promise.all([
    ctx.client.readContract({
      address: ctx.contracts.tokenLauncher,
      abi: TokenLauncherAbi,
      functionName: 'priceOf',
      args: [token],
    }),
    ctx.client.readContract({
      address: ctx.contracts.tokenLauncher,
      abi: TokenLauncherAbi,
      functionName: 'graduated',
      args: [token],
    }),
  ]);
  return { price, marketCap, graduated };
}

async function buy(ctx: Ctx, index: number, token: Address, usdcWhole: number) {
  const usdcIn = units(usdcWhole, 6);
  await ensureAllowance(ctx, index, ctx.contracts.usdc, ctx.contracts.tokenLauncher, usdcIn);
  const quote = await ctx.client.readContract({
    address: ctx.contracts.tokenLauncher,
    abi: TokenLauncherAbi,
    functionName: 'quoteBuy',
    args: [token, usdcIn],
  });
  // Deadlines follow the chain's clock, which the epoch step moves, never the machine's.
  const deadline = (await chainTime(ctx.client)) + 600n;
  await send(ctx, index, `buy ${usdcWhole} USDC`, {
    address: ctx.contracts.tokenLauncher,
    abi: TokenLauncherAbi,
    functionName: 'buy',
    args: [token, usdcIn, withSlippage(quote), deadline],
    gas: 3_000_000n,
  });
}

async function sell(ctx: Ctx, index: number, token: Address, share: bigint) {
  const owner = ctx.accounts[index]!.address;
  const balance = await ctx.client.readContract({
    address: token,
    abi: CompanyTokenAbi,
    functionName: 'balanceOf',
    args: [owner],
  });
  const tokensIn = (balance * share) / 100n;
  if (tokensIn === 0n) return false;
  await ensureAllowance(ctx, index, token, ctx.contracts.tokenLauncher, tokensIn);
  const quote = await ctx.client.readContract({
    address: ctx.contracts.tokenLauncher,
    abi: TokenLauncherAbi,
    functionName: 'quoteSell',
    args: [token, tokensIn],
  });
  const deadline = (await chainTime(ctx.client)) + 600n;
  await send(ctx, index, 'sell', {
    address: ctx.contracts.tokenLauncher,
    abi: TokenLauncherAbi,
    functionName: 'sell',
    args: [token, tokensIn, withSlippage(quote), deadline],
    gas: 3_000_000n,
  });
  return true;
}

/**
 * Trades every launched token up to its target: bonding tokens until their market cap reaches their share of the
 * threshold, graduating ones until they graduate. Buyers rotate over accounts 1-9 (never the creator), and the run
 * that bought also sells a slice, so both sides show. A token at its target is left alone.
 */
async function stepTrading(ctx: Ctx) {
  let trades = 0;
  const lines: string[] = [];
  for (const c of DEMO_COMPANIES) {
    if (!c.token) continue;
    const company = ctx.companies.get(c.slug);
    const token = company.tokenAddress as Address;
    const tokenInfo = await ctx.api.data('GET', `/api/companies/${c.slug}/token`);
    const threshold = units(Number(tokenInfo.graduationThreshold ?? 10_000), 6);
    const buyers = [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((i) => i !== c.account);
    let state = await tokenState(ctx, token);
    let bought = 0;
    const chunk = Math.max(Number(threshold / 10n ** 6n) / 12, 50); // ~833 USDC at the default threshold
    if (c.token.graduate) {
      for (let i = 0; !state.graduated && i < 40; i++) {
        ctx.progress.step(
          `trading: ${c.token.symbol} toward graduation (${formatUnitsShort(state.marketCap, 6)} USDC cap)`,
        );
        await buy(ctx, buyers[i % buyers.length]!, token, Math.round(chunk * (1 + (i % 3) * 0.25)));
        bought++;
        state = await tokenState(ctx, token);
      }
      if (!state.graduated) throw new DemoError(`${c.token.symbol} did not graduate after 40 buys`);
      if (bought > 0) {
        // Trades in the new v4 pool, through the launcher.
        ctx.progress.step(`trading: ${c.token.symbol} in its v4 pool`);
        await buy(ctx, buyers[bought % buyers.length]!, token, Math.round(chunk / 2));
        bought++;
        if (await sell(ctx, buyers[0]!, token, 25n)) trades++;
      }
    } else {
      const target = (threshold * BigInt(Math.round(c.token.targetShare * 100))) / 100n;
      // Once below the target, buy 15% past it: the sell below then leaves the cap above the target.
      const buyTo = state.marketCap < target ? (target * 115n) / 100n : target;
      for (let i = 0; state.marketCap < buyTo && !state.graduated && i < 30; i++) {
        ctx.progress.step(`trading: ${c.token.symbol} (${formatUnitsShort(state.marketCap, 6)} USDC cap)`);
        await buy(ctx, buyers[i % buyers.length]!, token, Math.round((chunk / 3) * (1 + (i % 4) * 0.2)));
        bought++;
        state = await tokenState(ctx, token);
      }
      // A small sell by the first buyer: the cap stays near the target, so a second run does not buy again.
      if (bought > 1 && (await sell(ctx, buyers[0]!, token, 10n))) trades++;
    }
    trades += bought;
    state = await tokenState(ctx, token);
    lines.push(
      `  ${c.token.symbol.padEnd(7)} ${state.graduated ? 'GRADUATED' : 'BONDING  '} cap ${formatUnitsShort(state.marketCap, 6)} USDC, price ${formatUnitsShort(state.price, 6, 6)} USDC${bought ? `, ${bought} buys now` : ''}`,
    );
  }
  ctx.summary.push(`trades sent now: ${trades}`, ...lines);
}

/** Stakes primary tokens up to each account's target, and records its card's boost. */
async function stepStaking(ctx: Ctx) {
  let deposits = 0;
  for (const s of STAKE_TARGETS) {
    ctx.progress.step(`staking: dev account ${s.account}`);
    const owner = ctx.accounts[s.account]!.address;
    const [amount, , , cardId] = await ctx.client.readContract({
      address: ctx.contracts.staking,
      abi: StakingAbi,
      functionName: 'userInfo',
      args: [0n, owner],
    });
    const missing = shortfall(amount, units(s.tokens, 18));
    if (missing > 0n) {
      const allowance = await ctx.client.readContract({
        address: ctx.contracts.primaryToken,
        abi: PrimaryTokenAbi,
        functionName: 'allowance',
        args: [owner, ctx.contracts.staking],
      });
      if (allowance < missing) {
        await send(ctx, s.account, 'approve primary', {
          address: ctx.contracts.primaryToken,
          abi: PrimaryTokenAbi,
          functionName: 'approve',
          args: [ctx.contracts.staking, missing],
        });
      }
      // A fixed gas limit: anvil's estimate can fall short for the boost's card scan.
      await send(ctx, s.account, 'deposit', {
        address: ctx.contracts.staking,
        abi: StakingAbi,
        functionName: 'deposit',
        args: [0n, missing],
        gas: 1_000_000n,
      });
      deposits++;
    }
    const cards = await ctx.client.readContract({
      address: ctx.contracts.accessCard,
      abi: AccessCardAbi,
      functionName: 'balanceOf',
      args: [owner],
    });
    if (cardId === 0n && cards > 0n) {
      await send(ctx, s.account, 'refreshBoost', {
        address: ctx.contracts.staking,
        abi: StakingAbi,
        functionName: 'refreshBoost',
        args: [0n],
        gas: 1_000_000n,
      });
    }
  }
  const stats = await ctx.api.data('GET', '/api/staking/stats');
  ctx.summary.push(
    `staking: ${deposits} deposit(s) now; pool 0 effective stake ${formatUnitsShort(BigInt(stats.totalStakedPrimary), 18)}, base APY ${stats.currentBaseApy}%`,
  );
}

/** One manual decision round per staffed company, unless it already has a complete manual one. */
async function stepDecisions(ctx: Ctx) {
  let ran = 0;
  let failed = 0;
  for (const c of DEMO_COMPANIES) {
    const company = await loadCompany(ctx, c.slug);
    if (!company.agents.some((a: any) => a.status === 'ACTIVE')) continue;
    const { rounds } = await ctx.api.data('GET', `/api/companies/${company.id}/decisions`);
    if (rounds.some((r: any) => r.trigger === 'MANUAL' && r.status === 'COMPLETE')) continue;
    ctx.progress.step(`decisions: ${c.slug} runs a round`);
    const res = await ctx.api.call('POST', `/api/companies/${company.id}/decisions/run`, {
      signer: ctx.accounts[c.account]!,
    });
    if (res.status === 409) {
      ctx.progress.note(`${c.slug}: a scheduled round is running right now; skipped`);
      continue;
    }
    if (res.status !== 201) throw new DemoError(`POST /api/companies/${company.id}/decisions/run: ${describe(res)}`);
    if (res.body.data.status === 'COMPLETE') ran++;
    else {
      failed++;
      ctx.progress.note(`${c.slug}: round FAILED in ${res.body.data.failedPhase}: ${res.body.data.error}`);
    }
  }
  ctx.summary.push(`decision rounds run now: ${ran}${failed ? ` (${failed} failed)` : ''}`);
}

/** POST to a scheduler route with the secret; its `data`. */
async function cron(ctx: Ctx, path: string, secret: string): Promise<any> {
  const res = await ctx.api.call('POST', path, { bearer: secret });
  if (res.status === 401) {
    throw new DemoError(`POST ${path}: 401: the secret is not the service's CRON_SECRET or ADMIN_SECRET`);
  }
  if (res.status !== 200) throw new DemoError(`POST ${path}: ${describe(res)}`);
  return res.body.data;
}

/**
 * Today's (UTC) score snapshot: the service's score-snapshot job takes it at 00:00 UTC; when none holds the demo
 * companies yet and the scheduler secret is known, POST /api/cron/score-snapshot takes today's now (once per date).
 */
async function stepSnapshot(ctx: Ctx): Promise<number | undefined> {
  ctx.progress.step('scores: looking for the latest snapshot');
  const slugs = new Set(DEMO_COMPANIES.map((c) => c.slug));
  const ranked = async () => {
    const list = await ctx.api.data('GET', '/api/fortune-list?limit=100');
    return { list, ours: (list.companies as any[]).filter((e) => slugs.has(e.company.slug)) };
  };
  let { list, ours } = await ranked();
  if (ours.length === 0 && ctx.options.secret) {
    ctx.progress.step('scores: POST /api/cron/score-snapshot');
    const d = await cron(ctx, '/api/cron/score-snapshot', ctx.options.secret);
    if (d.status === 'taken') ctx.summary.push(`score snapshot ${d.date} taken now: ${d.companies} companies scored`);
    ({ list, ours } = await ranked());
  }
  if (ours.length === 0) {
    const nextHour = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000).toISOString().slice(11, 16);
    const message = ctx.options.secret
      ? `today's score snapshot was taken before the demo companies existed (a date is taken once); they are scored in tomorrow's (00:00 UTC), then run npm run demo again to finalize an epoch and claim.`
      : `no score snapshot holds the demo companies yet, and no scheduler secret is known to take one now (--secret, CRON_SECRET, or the development ./data/cron-secret of a local npm start). The service's job takes today's at the top of the hour while none is taken (next: ${nextHour} UTC); then run npm run demo again to finalize an epoch and claim.`;
    ctx.notes.push(message);
    ctx.summary.push('score snapshot: none with the demo companies yet (see the notes)');
    return undefined;
  }
  const date = String(list.epoch).slice(0, 10);
  const leader = ours.reduce((a: any, b: any) => (b.rank < a.rank ? b : a));
  ctx.summary.push(
    `score snapshot ${date}: ${ours.length} demo companies ranked; best ${leader.company.slug} #${leader.rank} (${leader.score.overall})`,
  );
  if (ours.length < DEMO_COMPANIES.length) {
    ctx.notes.push(
      `the snapshot of ${date} was taken before ${DEMO_COMPANIES.length - ours.length} demo companies existed; a date is taken once, so they join the next day's`,
    );
  }
  return snapshotSeconds(list.epoch);
}

async function claimables(ctx: Ctx): Promise<Map<string, any[]>> {
  const out = new Map<string, any[]>();
  for (const c of DEMO_COMPANIES) {
    const company = ctx.companies.get(c.slug);
    const data = await ctx.api.data('GET', `/api/epochs/claimable/${company.id}`);
    out.set(c.slug, data.claimable ?? []);
  }
  return out;
}

async function distribute(ctx: Ctx): Promise<boolean> {
  if (!ctx.options.secret) {
    ctx.notes.push(
      "no CRON_SECRET or ADMIN_SECRET known, so POST /api/cron/epoch-distribute was not called: the scheduler's epoch-distribute job finalizes the ended epoch at 5 minutes past the hour (and at start); run npm run demo again afterwards to claim. Or pass --secret (the service's CRON_SECRET).",
    );
    return false;
  }
  ctx.progress.step('epochs: POST /api/cron/epoch-distribute');
  const d = await cron(ctx, '/api/cron/epoch-distribute', ctx.options.secret);
  ctx.summary.push(
    `epoch ${d.epoch}: ${d.status}${d.participantCount !== undefined ? `, ${d.participantCount} participants` : ''}${d.reason ? ` (${d.reason})` : ''}`,
  );
  return true;
}

/**
 * The reward epoch: when the running epoch holds a snapshot of the demo companies, the chain's clock moves past its
 * end (anvil's evm_increaseTime + evm_mine), the epoch is distributed and every company claims. A second run finds
 * the rewards and only claims what is left.
 */
async function stepEpoch(ctx: Ctx, snapshotAt: number | undefined) {
  ctx.progress.step('epochs: reading the running epoch');
  const current = await ctx.api.data('GET', '/api/epochs/current');
  let rewards = await claimables(ctx);
  const hasReward = [...rewards.values()].some((list) => list.length > 0);
  const plan = planEpoch(current, hasReward, snapshotAt);
  if (plan.kind === 'wait-snapshot') {
    ctx.summary.push(`epoch ${current.epochNumber}: running, not finalized (waits for a score snapshot)`);
    return;
  }
  if (plan.kind === 'advance') {
    ctx.progress.step(`epochs: moving the chain ${Math.round(plan.seconds / 3600)} h ahead`);
    await rpc(ctx, 'evm_increaseTime', [plan.seconds]);
    await rpc(ctx, 'evm_mine', []);
    ctx.summary.push(
      `chain clock moved ${plan.seconds} s ahead (evm_increaseTime): epoch ${current.epochNumber} ended`,
    );
  }
  if (plan.kind !== 'claim') {
    if (!(await distribute(ctx))) return;
    rewards = await claimables(ctx);
  }
  if (plan.kind === 'claim') {
    ctx.summary.push(
      `epoch ${current.epochNumber}: running, ${Math.round(current.nextEpochIn / 3600)} h of chain time left; earlier rewards found`,
    );
  }
  let claimed = 0;
  let total = 0n;
  for (const c of DEMO_COMPANIES) {
    const company = ctx.companies.get(c.slug);
    for (const entry of rewards.get(c.slug) ?? []) {
      if (entry.alreadyClaimed) continue;
      ctx.progress.step(`epochs: ${c.slug} claims epoch ${entry.epochNumber}`);
      const result = await ctx.api.data('POST', '/api/epochs/claim', {
        signer: ctx.accounts[c.account]!,
        body: { companyId: company.id, epochNumber: entry.epochNumber },
      });
      if (!result.alreadyClaimed) {
        claimed++;
        total += BigInt(result.amount);
      }
    }
  }
  const after = await claimables(ctx);
  const paid = [...after.values()].flat().filter((e) => e.alreadyClaimed).length;
  ctx.summary.push(
    `claims now: ${claimed} (${formatUnitsShort(total, 18)} primary tokens to the treasuries); claimed in all: ${paid}`,
  );
}

function urls(ctx: Ctx): string[] {
  const base = ctx.options.url;
  const graduated = DEMO_COMPANIES.find((c) => c.token?.graduate)!.slug;
  const human = DEMO_COMPANIES.find((c) => c.ceoPrompt)!.slug;
  const staker = ctx.accounts[STAKE_TARGETS[0]!.account]!.address;
  const rows: [string, string][] = [
    ['/api/docs', 'the API reference'],
    ['/api/fortune-list', 'the ranked score snapshot'],
    [`/api/companies/${graduated}`, 'a company and its seven agents'],
    [`/api/companies/${graduated}/token`, 'a graduated token (Uniswap v4 pool)'],
    [`/api/companies/${human}/decisions`, "a HUMAN-league company's decision rounds"],
    [`/api/epochs/claimable/${graduated}`, "a company's epoch rewards"],
    ['/api/epochs/current', 'the running epoch (chain time)'],
    ['/api/staking/stats', 'the staking pool'],
    [`/api/staking/position/${staker}`, "dev account 1's stake and card boost"],
    ['/api/v1/tokens', 'API key (x-api-key): npm run cli -- api-keys create --name demo'],
    ['/api/v1/events', 'live events (SSE); API key once any key exists: curl -N -H "x-api-key: aie_..."'],
  ];
  const width = Math.max(...rows.map(([p]) => base.length + p.length));
  return rows.map(([p, what]) => `${`${base}${p}`.padEnd(width)}  ${what}`);
}

async function main() {
  let options: DemoOptions;
  try {
    options = parseDemoArgs(process.argv.slice(2), process.env);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  options.secret ??= localCronSecret(options.url, process.env, (file) =>
    existsSync(file) ? readFileSync(file, 'utf8') : undefined,
  );
  const started = Date.now();
  const steps: [string, (ctx: Ctx) => Promise<unknown>][] = [
    ['cards and companies', stepCompanies],
    ['treasuries', stepTreasuries],
    ['leagues', stepLeagues],
    ['C-suites', stepSuites],
    ['tokens', stepTokens],
    ['trading', stepTrading],
    ['staking', stepStaking],
    ['decision rounds', stepDecisions],
  ];
  const progress = new Progress(steps.length + 3);
  progress.step(`connecting to ${options.url}`);
  const ctx = await connect(options, progress);
  progress.advance('connected');
  for (const [name, run] of steps) {
    progress.step(name);
    await run(ctx);
    progress.advance(name);
  }
  const snapshotAt = await stepSnapshot(ctx);
  progress.advance('scores');
  await stepEpoch(ctx, snapshotAt);
  progress.finish();

  const out = [
    '',
    `ai-economy demo on ${options.url} (chain ${LOCAL_CHAIN_ID}, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    ...ctx.summary.map((l) => (l.startsWith('  ') ? `  ${l}` : `  - ${l}`)),
    ...(ctx.notes.length ? ['', 'Notes:', ...ctx.notes.map((n) => `  - ${n}`)] : []),
    '',
    'Open:',
    ...urls(ctx).map((u) => `  ${u}`),
    '',
  ];
  process.stdout.write(out.join('\n'));
}

main().catch((err) => {
  process.stderr.write(`\ndemo failed: ${err instanceof DemoError ? err.message : (err as Error).stack}\n`);
  process.exitCode = 1;
});

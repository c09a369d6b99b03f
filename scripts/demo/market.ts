import { AccessCardAbi, CompanyTokenAbi, PrimaryTokenAbi, StakingAbi, TokenLauncherAbi } from '@ai-economy/shared/abis';
import type { Address } from 'viem';
import { chainTime } from '../../src/chain/time.ts';
import { loadCompany } from './companies.ts';
import { type Ctx, DemoError, ensureAllowance, send } from './context.ts';
import { MARKET_TRADER_INDICES } from './days-plan.ts';
import { STAKE_TARGETS } from './plan.ts';
import { formatUnitsShort, shortfall, units, withSlippage } from './units.ts';

export async function stepTokens(ctx: Ctx) {
  let launched = 0;
  for (const c of ctx.plan) {
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

export interface TokenState {
  price: bigint;
  marketCap: bigint;
  graduated: boolean;
}

export async function tokenState(ctx: Ctx, token: Address): Promise<TokenState> {
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

/** Account `index` trades `amountIn` (USDC for a buy, tokens for a sale) through the launcher, within slippage. */
async function trade(ctx: Ctx, index: number, side: 'buy' | 'sell', token: Address, amountIn: bigint, what: string) {
  const spent = side === 'buy' ? ctx.contracts.usdc : token;
  await ensureAllowance(ctx, index, spent, ctx.contracts.tokenLauncher, amountIn);
  const quote = await ctx.client.readContract({
    address: ctx.contracts.tokenLauncher,
    abi: TokenLauncherAbi,
    functionName: side === 'buy' ? 'quoteBuy' : 'quoteSell',
    args: [token, amountIn],
  });
  // Deadlines follow the chain's clock, which the epoch step moves, never the machine's.
  const deadline = (await chainTime(ctx.client)) + 600n;
  await send(ctx, index, what, {
    address: ctx.contracts.tokenLauncher,
    abi: TokenLauncherAbi,
    functionName: side,
    args: [token, amountIn, withSlippage(quote), deadline],
    gas: 3_000_000n,
  });
}

export async function buy(ctx: Ctx, index: number, token: Address, usdcWhole: number) {
  await trade(ctx, index, 'buy', token, units(usdcWhole, 6), `buy ${usdcWhole} USDC`);
}

export async function sell(ctx: Ctx, index: number, token: Address, share: bigint) {
  const owner = ctx.account(index).address;
  const balance = await ctx.client.readContract({
    address: token,
    abi: CompanyTokenAbi,
    functionName: 'balanceOf',
    args: [owner],
  });
  const tokensIn = (balance * share) / 100n;
  if (tokensIn === 0n) return false;
  await trade(ctx, index, 'sell', token, tokensIn, 'sell');
  return true;
}

/**
 * Trades every launched token up to its target: bonding tokens until their market cap reaches their share of the
 * threshold, graduating ones until they graduate. Buyers rotate over the market traders (days-plan.ts: wallets
 * linked to no company), and the run that bought also sells a slice, so both sides show. A token at its target is
 * left alone.
 */
export async function stepTrading(ctx: Ctx) {
  let trades = 0;
  const lines: string[] = [];
  for (const c of ctx.plan) {
    if (!c.token) continue;
    const company = ctx.companies.get(c.slug);
    const token = company.tokenAddress as Address;
    const tokenInfo = await ctx.api.data('GET', `/api/companies/${c.slug}/token`);
    const threshold = units(Number(tokenInfo.graduationThreshold ?? 10_000), 6);
    const buyers = MARKET_TRADER_INDICES;
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
export async function stepStaking(ctx: Ctx) {
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

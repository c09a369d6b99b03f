// What the demo's agents act with. With custody (the service's default) a company's agents trade and stake from its
// Safe through their roles: the Safe is the treasury the creator funded with USDC (companies.ts), and gets the
// planned primary tokens here; after the rounds, what the Safe holds is read back from the company's portfolio.
// Without custody the CFOs of AGENT_FUNDING's companies get USDC or primary tokens from their creator, up to the
// planned amount (a second run sends only what their rounds spent), and what each wallet holds is read back from
// GET /api/agents/{id}/portfolio.
import { type Address, erc20Abi } from 'viem';
import { loadCompany } from './companies.ts';
import { type Ctx, send } from './context.ts';
import { AGENT_FUNDING } from './plan.ts';
import { shortfall, units } from './units.ts';

const cfoOf = (company: any) => company.agents.find((a: any) => a.role === 'CFO' && a.status === 'ACTIVE');

export async function stepAgentWallets(ctx: Ctx) {
  let funded = 0;
  for (const plan of AGENT_FUNDING) {
    const c = ctx.plan.find((d) => d.slug === plan.slug);
    if (!c) continue;
    const company = await loadCompany(ctx, c.slug);
    const safe: Address | undefined = company.custody?.safe;
    const cfo = cfoOf(company);
    if (!safe && !cfo) continue;
    const address: Address | undefined = safe ?? (await ctx.api.data('GET', `/api/agents/${cfo.id}/portfolio`)).address;
    if (!address) continue;
    for (const [token, whole, decimals] of [
      // The Safe holds the treasury's USDC already.
      [ctx.contracts.usdc, safe ? undefined : plan.usdc, 6],
      [ctx.contracts.primaryToken, plan.primary, 18],
    ] as const) {
      if (!whole) continue;
      const balance = await ctx.client.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address],
      });
      const missing = shortfall(balance, units(whole, decimals));
      if (missing === 0n) continue;
      ctx.progress.step(`agent wallets: ${c.slug} funds its ${safe ? 'Safe' : 'CFO'}`);
      await send(ctx, c.account, safe ? 'fund the Safe' : 'fund the CFO wallet', {
        address: token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [address, missing],
      });
      funded++;
    }
  }
  ctx.summary.push(`agent funds sent now: ${funded} transfer${funded === 1 ? '' : 's'}`);
}

/** What the funded agents hold after their rounds: the company's Safe with custody, the CFO's wallet without. */
export async function stepAgentPortfolios(ctx: Ctx) {
  for (const plan of AGENT_FUNDING) {
    const company = ctx.companies.get(plan.slug);
    if (company?.custody) {
      const p = (await ctx.api.data('GET', `/api/companies/${company.id}/portfolio`)).safe;
      if (!p) continue;
      const positions = (p.positions ?? [])
        .filter((x: any) => x.balance !== '0')
        .map((x: any) => `${x.symbol} ${x.balance}`);
      const staked = p.balances && p.balances.staked !== '0' ? `, ${p.balances.staked} primary staked` : '';
      ctx.summary.push(
        `  ${plan.slug} Safe: ${p.balances?.usdc ?? '?'} USDC${positions.length ? `, ${positions.join(', ')}` : ''}${staked}; realised PnL ${p.totals?.realizedPnlUsdc ?? '?'} USDC`,
      );
      continue;
    }
    const cfo = company && cfoOf(company);
    if (!cfo) continue;
    const p = await ctx.api.data('GET', `/api/agents/${cfo.id}/portfolio`);
    const positions = p.positions.filter((x: any) => x.balance !== '0').map((x: any) => `${x.symbol} ${x.balance}`);
    const staked = p.balances && p.balances.staked !== '0' ? `, ${p.balances.staked} primary staked` : '';
    ctx.summary.push(
      `  ${plan.slug} CFO: ${p.balances?.usdc ?? '?'} USDC${positions.length ? `, ${positions.join(', ')}` : ''}${staked}; realised PnL ${p.totals.realizedPnlUsdc} USDC`,
    );
  }
}

// The demo's agent wallets: the CFOs of AGENT_FUNDING's companies get USDC or primary tokens from their creator, up
// to the planned amount (a second run sends only what their rounds spent), which their decision rounds then trade
// and stake; after the rounds, what each wallet holds is read back from GET /api/agents/{id}/portfolio.
import { erc20Abi } from 'viem';
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
    const cfo = cfoOf(company);
    if (!cfo) continue;
    const { address } = await ctx.api.data('GET', `/api/agents/${cfo.id}/portfolio`);
    if (!address) continue;
    for (const [token, whole, decimals] of [
      [ctx.contracts.usdc, plan.usdc, 6],
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
      ctx.progress.step(`agent wallets: ${c.slug} funds its CFO`);
      await send(ctx, c.account, 'fund the CFO wallet', {
        address: token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [address, missing],
      });
      funded++;
    }
  }
  ctx.summary.push(`agent wallets funded now: ${funded} transfer${funded === 1 ? '' : 's'}`);
}

/** What the funded agents hold after their rounds. */
export async function stepAgentPortfolios(ctx: Ctx) {
  for (const plan of AGENT_FUNDING) {
    const company = ctx.companies.get(plan.slug);
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

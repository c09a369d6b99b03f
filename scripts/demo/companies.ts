import { AccessCardAbi, MockUSDCAbi } from '@ai-economy/shared/abis';
import type { Address } from 'viem';
import { ANVIL_CHAIN_ID } from '../../src/chain/anvil.ts';
import { devAccount } from '../../src/chain/client.ts';
import { treasuryAcceptanceTypedData } from '../../src/domain/treasuries/acceptance.ts';
import { type Ctx, DemoError, describe, ensureAllowance, send } from './context.ts';
import { type DemoCompany, treasuryIndex } from './plan.ts';
import { formatUnitsShort, shortfall, units } from './units.ts';

export async function loadCompany(ctx: Ctx, slug: string) {
  const res = await ctx.api.call('GET', `/api/companies/${slug}`);
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new DemoError(`GET /api/companies/${slug}: ${describe(res)}`);
  ctx.companies.set(slug, res.body.data);
  return res.body.data;
}

/** Cards and companies: a company that exists is left alone; a card is minted only when no unused one is held. */
export async function stepCompanies(ctx: Ctx) {
  let minted = 0;
  let created = 0;
  for (const c of ctx.plan) {
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
      },
    });
    await loadCompany(ctx, c.slug);
    created++;
  }
  ctx.summary.push(`cards minted: ${minted}, companies created: ${created} (of ${ctx.plan.length})`);
}

const treasuryAccount = (c: DemoCompany) => devAccount(treasuryIndex(c.account));
export const treasuryOf = (c: DemoCompany): Address => treasuryAccount(c).address;

/**
 * Treasuries, funded by each creator up to the planned USDC, so the Fortune List's treasury scores differ; epoch
 * rewards are minted there. A company with custody (the service's default, docs/contracts.md "Custody") has its Safe
 * as its treasury from its deploy-suite: the money its agents trade and stake through their roles is the money the
 * Fortune List counts. A company without (COMPANY_CUSTODY=none) gets an address of its own, proven with the
 * treasury's EIP-712 acceptance (docs/api/companies.md "Treasury").
 */
export async function stepTreasuries(ctx: Ctx) {
  let moved = 0n;
  for (const c of ctx.plan) {
    const company = ctx.companies.get(c.slug);
    const safe: Address | undefined = company.custody?.safe;
    const treasury = safe ?? treasuryOf(c);
    if (
      !safe &&
      (company.treasuryAddress?.toLowerCase() !== treasury.toLowerCase() || company.treasuryStatus !== 'PROVEN')
    ) {
      ctx.progress.step(`treasuries: ${c.slug} proves its treasury`);
      // The deadline counts from the chain's clock, which the demo moves.
      const deadline = Number((await ctx.client.getBlock({ blockTag: 'pending' })).timestamp) + 3600;
      const signature = await treasuryAccount(c).signTypedData(
        treasuryAcceptanceTypedData(company.id, treasury, ANVIL_CHAIN_ID, deadline),
      );
      await ctx.api.data('PUT', `/api/companies/${company.id}/treasury`, {
        signer: ctx.accounts[c.account]!,
        body: { treasuryAddress: treasury, acceptance: { deadline, signature } },
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
export async function stepLeagues(ctx: Ctx) {
  let changed = 0;
  for (const c of ctx.plan) {
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
    const limits = company.toolkitConfig?.limits ?? {};
    if (c.limits && Object.entries(c.limits).some(([k, v]) => limits[k] !== v)) {
      ctx.progress.step(`leagues: ${c.slug} limits`);
      await ctx.api.data('PATCH', `/api/companies/${company.id}`, {
        signer,
        body: { toolkitConfig: { ...company.toolkitConfig, limits: { ...limits, ...c.limits } } },
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
export async function stepSuites(ctx: Ctx) {
  let deployed = 0;
  for (const c of ctx.plan) {
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

// The simulated world: the demo's context (API client, chain helpers, the steps that create companies), the parties
// (an honest actor or an attacker's strategy, and what each funded and holds), fresh mnemonic wallets and their
// funding, and the companies every party created.

import { AccessCardAbi } from '@ai-economy/shared/abis';
import { type Address, erc20Abi } from 'viem';
import type { HDAccount } from 'viem/accounts';
import { loadCompany, stepCompanies, stepLeagues, stepSuites, stepTreasuries } from '../../scripts/demo/companies.ts';
import { type Ctx, rpc, send } from '../../scripts/demo/context.ts';
import { stepTokens } from '../../scripts/demo/market.ts';
import { type DemoCompany, treasuryIndex } from '../../scripts/demo/plan.ts';
import { units } from '../../scripts/demo/units.ts';
import { devAccount } from '../../src/chain/client.ts';
import type { Rng } from './rng.ts';

/** Who acts: one honest actor or one attacker at one setting. Money in base units of USDC (6 decimals). */
export interface Party {
  name: string;
  honest: boolean;
  /** USDC sent to the party's wallets from outside (the dev accounts). */
  funded: bigint;
  /** A cost that leaves no trace on the chain: the interest on money held, at the stated rate. */
  financing: bigint;
  /** Mnemonic indices of every wallet the party controls (creators, treasuries, fresh wallets). */
  wallets: Set<number>;
  /** Slugs of the companies it created. */
  companies: string[];
}

/** A company of the simulation: the demo's plan entry and its party. */
export interface SimCompany {
  plan: DemoCompany;
  party: Party;
}

/** The plan of a company before the world gives it an account. */
export type CompanySpec = Omit<DemoCompany, 'account'> & { cfoUsdc?: number };

/** Gas for a fresh wallet (anvil_setBalance: the local chain only). */
const GAS_GRANT_WEI = 100n * 10n ** 18n;
/** Dev accounts 1-9 hold a million USDC each (src/chain/deploy-steps.ts DEV_USDC_GRANT): the simulation's bank. */
const FUNDERS = [1, 2, 3, 4, 5, 6, 7, 8, 9];
/** Fresh wallets (traders, an attacker's buyers) start at this mnemonic index. */
const FIRST_WALLET = 50_000;

/**
 * The mnemonic index of the n-th company's creator: blocks of a hundred, every other one, so each company's
 * treasury (treasuryIndex: the creator's index + 100) falls in the gap and never on another creator.
 */
export const creatorIndex = (n: number) => 10_000 + (n % 100) + 200 * Math.floor(n / 100);

export class World {
  readonly parties: Party[] = [];
  readonly companies: SimCompany[] = [];
  private nextWallet = FIRST_WALLET;
  private companiesMade = 0;
  private funder = 0;
  private cardPrice: bigint | undefined;
  private readonly accountCache = new Map<number, HDAccount>();

  constructor(
    readonly ctx: Ctx,
    readonly rng: Rng,
    readonly log: (line: string) => void,
  ) {
    // The demo's steps read a creator as ctx.accounts[index]; here any mnemonic index is an account.
    const account = (i: number) => {
      let a = this.accountCache.get(i);
      if (!a) {
        a = devAccount(i);
        this.accountCache.set(i, a);
      }
      return a;
    };
    ctx.account = account;
    ctx.accounts = new Proxy([] as HDAccount[], {
      get: (target, key) =>
        typeof key === 'string' && /^\d+$/.test(key) ? account(Number(key)) : Reflect.get(target, key),
    });
    ctx.plan = [];
  }

  party(name: string, honest: boolean): Party {
    const p: Party = { name, honest, funded: 0n, financing: 0n, wallets: new Set(), companies: [] };
    this.parties.push(p);
    return p;
  }

  address(index: number): Address {
    return this.ctx.account(index).address;
  }

  /** A fresh wallet of the party, with gas and `usdc` whole USDC. */
  async freshWallet(party: Party, usdc: number): Promise<number> {
    const index = this.nextWallet++;
    await this.fund(party, index, usdc);
    return index;
  }

  /** Gas and `usdc` whole USDC to wallet `index` of the party, from the dev accounts. */
  async fund(party: Party, index: number, usdc: number) {
    party.wallets.add(index);
    const address = this.address(index);
    if ((await this.ctx.client.getBalance({ address })) < GAS_GRANT_WEI / 2n) {
      await rpc(this.ctx, 'anvil_setBalance', [address, `0x${GAS_GRANT_WEI.toString(16)}`]);
    }
    const amount = units(usdc, 6);
    if (amount === 0n) return;
    for (;;) {
      const from = FUNDERS[this.funder];
      if (from === undefined) throw new Error('the dev accounts ran out of USDC: a smaller run, please');
      if ((await this.usdcOf(this.address(from))) >= amount) {
        await send(this.ctx, from, 'fund a wallet', {
          address: this.ctx.contracts.usdc,
          abi: erc20Abi,
          functionName: 'transfer',
          args: [address, amount],
        });
        party.funded += amount;
        return;
      }
      this.funder++;
    }
  }

  async usdcOf(address: Address): Promise<bigint> {
    return this.ctx.client.readContract({
      address: this.ctx.contracts.usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [address],
    });
  }

  async tokenBalance(token: Address, index: number): Promise<bigint> {
    return this.ctx.client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [this.address(index)],
    });
  }

  /**
   * Companies of the party through the public routes and the contracts, by the demo's steps: each creator gets gas
   * and USDC for its card, its treasury and its CFO, mints the card, creates the company, proves and funds its
   * treasury, deploys the C-suite, launches the token and sets the directives; then the CFO gets its USDC.
   */
  async addCompanies(party: Party, specs: CompanySpec[]): Promise<SimCompany[]> {
    this.cardPrice ??= await this.ctx.client.readContract({
      address: this.ctx.contracts.accessCard,
      abi: AccessCardAbi,
      functionName: 'mintPrice',
    });
    const plans: DemoCompany[] = [];
    for (const spec of specs) {
      const { cfoUsdc, ...rest } = spec;
      const account = creatorIndex(this.companiesMade++);
      const plan: DemoCompany = { ...rest, account };
      await this.fund(party, account, Number(this.cardPrice / 10n ** 6n) + spec.treasuryUsdc + (cfoUsdc ?? 0) + 5);
      party.wallets.add(treasuryIndex(account));
      plans.push(plan);
    }
    const before = this.ctx.plan;
    this.ctx.plan = plans;
    try {
      await stepCompanies(this.ctx);
      await stepTreasuries(this.ctx);
      await stepSuites(this.ctx);
      await stepTokens(this.ctx);
      await stepLeagues(this.ctx);
    } finally {
      this.ctx.plan = [...before, ...plans];
    }
    const made = plans.map((plan) => ({ plan, party }));
    for (const [i, spec] of specs.entries()) {
      if (spec.cfoUsdc) await this.fundCfo(plans[i]!, spec.cfoUsdc);
    }
    for (const m of made) party.companies.push(m.plan.slug);
    this.companies.push(...made);
    return made;
  }

  /** The creator moves `usdc` whole USDC to its company's CFO wallet, which the agents trade with. */
  private async fundCfo(plan: DemoCompany, usdc: number) {
    const company = await loadCompany(this.ctx, plan.slug);
    const cfo = company.agents.find((a: any) => a.role === 'CFO' && a.status === 'ACTIVE');
    if (!cfo) return;
    const { address } = await this.ctx.api.data('GET', `/api/agents/${cfo.id}/portfolio`);
    if (!address) return;
    await send(this.ctx, plan.account, 'fund the CFO wallet', {
      address: this.ctx.contracts.usdc,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [address, units(usdc, 6)],
    });
  }

  /** Every launched token of the simulation, with whether an honest company issued it. */
  tokens(): { slug: string; symbol: string; token: Address; honest: boolean }[] {
    return this.companies
      .filter((c) => c.plan.token && this.ctx.companies.get(c.plan.slug)?.tokenAddress)
      .map((c) => ({
        slug: c.plan.slug,
        symbol: c.plan.token!.symbol,
        token: this.ctx.companies.get(c.plan.slug).tokenAddress as Address,
        honest: c.party.honest,
      }));
  }

  companyId(slug: string): string {
    return this.ctx.companies.get(slug).id as string;
  }
}

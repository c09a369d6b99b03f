// The simulated world: the demo's context (API client, chain helpers, the steps that create companies), the parties
// (an honest actor or an attacker's strategy, and what each funded and holds), fresh mnemonic wallets and their
// funding, and the companies every party created.

import { AccessCardAbi, PrimaryTokenAbi, StakingAbi } from '@ai-economy/shared/abis';
import { type Address, erc20Abi } from 'viem';
import type { HDAccount } from 'viem/accounts';
import { loadCompany, stepCompanies, stepLeagues, stepSuites, stepTreasuries } from '../../scripts/demo/companies.ts';
import { type Ctx, rpc, send } from '../../scripts/demo/context.ts';
import { stepTokens } from '../../scripts/demo/market.ts';
import { type DemoCompany, treasuryIndex } from '../../scripts/demo/plan.ts';
import { units } from '../../scripts/demo/units.ts';
import { devAccount } from '../../src/chain/client.ts';
import { holderSignedCall } from '../../test/helpers/safe.ts';
import type { Rng } from './rng.ts';

/** Who acts: one honest actor or one attacker at one setting. Money in base units of USDC (6 decimals). */
export interface Party {
  name: string;
  honest: boolean;
  /** USDC sent to the party's wallets from outside (the dev accounts). */
  funded: bigint;
  /** A cost that leaves no trace on the chain: the interest on money held, at the stated rate. */
  financing: bigint;
  /** Emission wei a staking attack's card bought (its boost's part of the emission it harvested). */
  earnedEmission: bigint;
  /** Mnemonic indices of every wallet the party controls (creators, treasuries, fresh wallets). */
  wallets: Set<number>;
  /** Slugs of the companies it created. */
  companies: string[];
  /** What a closed attack got through (a copied symbol launched): each fails the run's invariants. */
  breaches: string[];
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

/** A party with nothing spent, earned or held yet. */
export function newParty(name: string, honest: boolean): Party {
  return {
    name,
    honest,
    funded: 0n,
    financing: 0n,
    earnedEmission: 0n,
    wallets: new Set(),
    companies: [],
    breaches: [],
  };
}

export class World {
  readonly parties: Party[] = [];
  readonly companies: SimCompany[] = [];
  private nextWallet = FIRST_WALLET;
  private companiesMade = 0;
  private funder = 0;
  /** The dev accounts' transfers one at a time: two at once from one account would take the same nonce. */
  private funding: Promise<unknown> = Promise.resolve();
  /** The access card's price in USDC base units, read when the first company is made. */
  cardPrice: bigint | undefined;
  private readonly accountCache = new Map<number, HDAccount>();
  /**
   * Wall-clock milliseconds spent per phase (setup steps, the days' actors, rounds and snapshots): summed over
   * concurrent work, so a phase run six at once counts six times its wall time. Reported as `timings`.
   */
  readonly timings: Record<string, number> = {};

  /** Runs `fn`, adding its wall-clock time to `timings[label]`. */
  async timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
    const t = Date.now();
    try {
      return await fn();
    } finally {
      this.timings[label] = (this.timings[label] ?? 0) + Date.now() - t;
    }
  }

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
    // Every transaction the simulation sends is waited for here (scripts/demo/context.ts send): its gas is booked to
    // the address that sent it, so a party's gas is its wallets' (the service's own transactions, which the
    // platform pays for, are not in it).
    const wait = ctx.client.waitForTransactionReceipt.bind(ctx.client);
    ctx.client.waitForTransactionReceipt = (async (args: Parameters<typeof wait>[0]) => {
      const receipt = await wait(args);
      const from = receipt.from.toLowerCase();
      this.gasByAddress.set(from, (this.gasByAddress.get(from) ?? 0n) + receipt.gasUsed);
      return receipt;
    }) as typeof ctx.client.waitForTransactionReceipt;
  }

  /** Gas units used by the transactions each address (lower case) sent through the simulation. */
  private readonly gasByAddress = new Map<string, bigint>();

  /** Gas units the party's wallets used. */
  gasOf(party: Party): bigint {
    let gas = 0n;
    for (const index of party.wallets) gas += this.gasByAddress.get(this.address(index).toLowerCase()) ?? 0n;
    return gas;
  }

  party(name: string, honest: boolean): Party {
    const p = newParty(name, honest);
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
    const transfer = this.funding.then(() => this.transferFromFunders(address, amount));
    this.funding = transfer.catch(() => undefined);
    await transfer;
    party.funded += amount;
  }

  private async transferFromFunders(address: Address, amount: bigint) {
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
        return;
      }
      this.funder++;
    }
  }

  /** `tokens` whole primary tokens to wallet `index`, from the dev accounts (each starts with a million). */
  async fundPrimary(index: number, tokens: number) {
    const to = this.address(index);
    const amount = units(tokens, 18);
    const transfer = this.funding.then(async () => {
      for (const from of FUNDERS) {
        const held = await this.ctx.client.readContract({
          address: this.ctx.contracts.primaryToken,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [this.address(from)],
        });
        if (held < amount) continue;
        await send(this.ctx, from, 'fund primary tokens', {
          address: this.ctx.contracts.primaryToken,
          abi: erc20Abi,
          functionName: 'transfer',
          args: [to, amount],
        });
        return;
      }
      throw new Error('the dev accounts ran out of primary tokens: a smaller run, please');
    });
    this.funding = transfer.catch(() => undefined);
    await transfer;
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
   * Companies of the party through the public routes and the contracts, by the demo's steps in the demo's order:
   * each creator gets gas and USDC for its card, its treasury and its agents, mints the card, creates the company,
   * deploys the C-suite (with custody, the service's default, that sets up the company's Safe, which becomes its
   * proven treasury), funds the treasury (without custody: proves an address of its own first), launches the token
   * and sets the directives; then the agents get their trading USDC (with custody the Safe already holds it: the
   * treasury is what they trade). Several parties' companies are made at once (main.ts): the steps run on a copy of
   * the context with this call's plan, and every creator is an account of its own.
   */
  async addCompanies(party: Party, specs: CompanySpec[]): Promise<SimCompany[]> {
    const plans: DemoCompany[] = specs.map(({ cfoUsdc, ...rest }) => ({
      ...rest,
      account: creatorIndex(this.companiesMade++),
    }));
    this.cardPrice ??= await this.ctx.client.readContract({
      address: this.ctx.contracts.accessCard,
      abi: AccessCardAbi,
      functionName: 'mintPrice',
    });
    for (const [i, spec] of specs.entries()) {
      const account = plans[i]!.account;
      const usdc = Number(this.cardPrice / 10n ** 6n) + spec.treasuryUsdc + (spec.cfoUsdc ?? 0) + 5;
      await this.timed('setup: fund the creators', () => this.fund(party, account, usdc));
      party.wallets.add(treasuryIndex(account));
    }
    const ctx: Ctx = { ...this.ctx, plan: plans };
    await this.timed('setup: cards and companies', () => stepCompanies(ctx));
    await this.timed('setup: C-suites (deploy-suite)', () => stepSuites(ctx));
    await this.timed('setup: treasuries', () => stepTreasuries(ctx));
    await this.timed('setup: tokens', () => stepTokens(ctx));
    await this.timed('setup: directives and limits', () => stepLeagues(ctx));
    this.ctx.plan.push(...plans);
    const made = plans.map((plan) => ({ plan, party }));
    for (const [i, spec] of specs.entries()) {
      if (spec.cfoUsdc) await this.fundAgents(plans[i]!, spec.cfoUsdc);
    }
    for (const m of made) {
      party.companies.push(m.plan.slug);
      const safe = this.safeOf(m.plan.slug);
      if (safe) this.safes.set(safe.toLowerCase(), m);
    }
    this.companies.push(...made);
    return made;
  }

  /** Safe addresses (lower case) of the companies with custody. */
  readonly safes = new Map<string, SimCompany>();

  /** The company's Safe when it has custody. */
  safeOf(slug: string): Address | undefined {
    return this.ctx.companies.get(slug)?.custody?.safe ?? undefined;
  }

  /** Where the company's treasury is: its Safe with custody, else the creator's treasury address. */
  treasuryOf(c: SimCompany): Address {
    return this.safeOf(c.plan.slug) ?? this.address(treasuryIndex(c.plan.account));
  }

  /**
   * The creator moves `usdc` whole USDC to what its company's agents trade with: its Safe with custody (the
   * treasury, which they trade whole), else its CFO's wallet.
   */
  private async fundAgents(plan: DemoCompany, usdc: number) {
    const company = await loadCompany(this.ctx, plan.slug);
    let address: Address | undefined = company.custody?.safe;
    if (!address) {
      const cfo = company.agents.find((a: any) => a.role === 'CFO' && a.status === 'ACTIVE');
      if (!cfo) return;
      address = (await this.ctx.api.data('GET', `/api/agents/${cfo.id}/portfolio`)).address;
    }
    if (!address) return;
    await send(this.ctx, plan.account, 'fund the agents', {
      address: this.ctx.contracts.usdc,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [address, units(usdc, 6)],
    });
  }

  /**
   * The card's holder takes `usdc` whole USDC out of its company's Safe to `to`: the Safe transaction that
   * POST /api/companies/{id}/safe/withdrawal builds, signed by the holder and executed from its wallet.
   */
  async withdrawFromSafe(c: SimCompany, usdc: number, to: Address) {
    const holder = this.ctx.account(c.plan.account);
    const w = await this.ctx.api.data('POST', `/api/companies/${this.companyId(c.plan.slug)}/safe/withdrawal`, {
      signer: holder,
      body: { amount: String(usdc), to },
    });
    await send(this.ctx, c.plan.account, 'withdraw from the Safe', await holderSignedCall(w, holder));
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

/** A fixed gas limit for staking calls: anvil's estimate can fall short for the boost's card scan (as the demo's). */
export const STAKING_GAS = 1_000_000n;

/**
 * Wallet `account` stakes `amount` primary-token wei in the staking contract's pool 0: it approves the staking
 * contract for the amount, then deposits it with its card's boost (`depositAndBoost`) or at 1x (`deposit`).
 */
export async function stake(world: World, account: number, amount: bigint, { boost }: { boost: boolean }) {
  await send(world.ctx, account, 'approve the stake', {
    address: world.ctx.contracts.primaryToken,
    abi: PrimaryTokenAbi,
    functionName: 'approve',
    args: [world.ctx.contracts.staking, amount],
  });
  await send(world.ctx, account, boost ? 'stake with the card' : 'stake at 1x', {
    address: world.ctx.contracts.staking,
    abi: StakingAbi,
    functionName: boost ? 'depositAndBoost' : 'deposit',
    args: [0n, amount],
    gas: STAKING_GAS,
  });
}

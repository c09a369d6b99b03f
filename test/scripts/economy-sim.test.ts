// The pure parts of `npm run sim` (bench/economy/): the seeded PRNG and its distributions, the command line, the
// draw of an attacker's setting, the accounts of the companies, and the report's arithmetic (break-even, the most
// profitable setting, the invariants).
import { describe, expect, it } from 'vitest';
import { allSettings, drawSetting, inParallel, interest, type Strategy, tolerant } from '../../bench/economy/actor.ts';
import { STRATEGIES } from '../../bench/economy/adversaries/index.ts';
import { lateJoiner } from '../../bench/economy/adversaries/late-joiner.ts';
import { namedSymbols } from '../../bench/economy/adversaries/symbol-tricks.ts';
import { parseSimArgs } from '../../bench/economy/args.ts';
import { POOL_FEE_BPS, tradeFee } from '../../bench/economy/attribution.ts';
import { DOCS_END, DOCS_START, docsSection, honestShareSvg, replaceSection } from '../../bench/economy/docs.ts';
import { fieldTreasuryMedian, HONEST_FIELD_TREASURY_MEDIAN_USDC } from '../../bench/economy/honest/kinds.ts';
import {
  attackerResult,
  BREAK_EVEN_BAR,
  bestPerStrategy,
  breakEvenBar,
  CAPITAL_RATE_PER_YEAR,
  capitalCost,
  formatTable,
  gasUsdc,
  gini,
  honestBreakEven,
  invariants,
} from '../../bench/economy/report.ts';
import { Rng } from '../../bench/economy/rng.ts';
import { creatorIndex, newParty, type Party, type World } from '../../bench/economy/world.ts';
import { treasuryIndex } from '../../scripts/demo/plan.ts';

const USDC = 1_000_000n;
const TOKEN = 10n ** 18n;

describe('setting actors up in parallel', () => {
  it('runs at most the limit at once, starts them in order and throws the first failure after all settle', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const done: number[] = [];
    const work = async (n: number) => {
      started.push(n);
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, (n % 3) * 5));
      running--;
      done.push(n);
    };
    await inParallel([0, 1, 2, 3, 4, 5, 6], 3, work);
    expect(most).toBe(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    done.length = 0;
    const failing = (n: number) => (n === 1 ? Promise.reject(new Error('one')) : work(n));
    await expect(inParallel([0, 1, 2], 2, failing)).rejects.toThrow('one');
    expect(running).toBe(0);
  });
});

describe('the seeded PRNG', () => {
  it('gives the same numbers for the same seed, and other numbers for another', () => {
    const draw = (seed: number) => {
      const r = new Rng(seed);
      return [r.next(), r.int(1, 100), r.logNormal(40, 0.8), r.poisson(1.5), r.fork('x').next()];
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it('draws Poisson arrivals and log-normal sizes with the asked mean and median', () => {
    const r = new Rng(1);
    const n = 20_000;
    let arrivals = 0;
    const sizes: number[] = [];
    for (let i = 0; i < n; i++) {
      arrivals += r.poisson(1.5);
      sizes.push(r.logNormal(40, 0.8));
    }
    expect(arrivals / n).toBeCloseTo(1.5, 1);
    sizes.sort((a, b) => a - b);
    expect(sizes[n / 2]!).toBeGreaterThan(38);
    expect(sizes[n / 2]!).toBeLessThan(42);
  });

  it('forks streams that do not depend on draws made elsewhere', () => {
    const a = new Rng(3);
    const b = new Rng(3);
    const fa = a.fork('market');
    const fb = b.fork('market');
    b.next();
    expect(fa.next()).toBe(fb.next());
  });
});

describe('npm run sim: the command line', () => {
  it('takes the seed, the companies, the days and the attackers, with defaults', () => {
    expect(parseSimArgs([], {})).toMatchObject({ seed: 1, companies: 10, days: 30, attackers: 0.1 });
    expect(parseSimArgs(['--seed', '42', '--companies=30', '--days', '8', '--attackers', '0.1'], {})).toMatchObject({
      seed: 42,
      companies: 30,
      days: 8,
      attackers: 0.1,
    });
  });

  it('refuses values out of range or unknown flags', () => {
    expect(() => parseSimArgs(['--companies', '2'], {})).toThrow(/--companies must be a whole number 3-200/);
    expect(() => parseSimArgs(['--attackers', '0.9'], {})).toThrow(/--attackers/);
    expect(() => parseSimArgs(['--days', '1.5'], {})).toThrow(/--days/);
    expect(() => parseSimArgs(['--seed'], {})).toThrow(/needs a value/);
    expect(() => parseSimArgs(['--fast'], {})).toThrow(/unknown option/);
    expect(() => parseSimArgs(['--url', 'ftp://x'], {})).toThrow(/--url must be an http\(s\) URL/);
    expect(parseSimArgs(['--url', 'http://h:1/'], {}).url).toBe('http://h:1');
  });
});

describe('attackers', () => {
  it('every strategy has a name of its own and a grid to draw from', () => {
    expect(new Set(STRATEGIES.map((s) => s.name)).size).toBe(STRATEGIES.length);
    for (const s of STRATEGIES) expect(Object.values(s.grid).every((v) => v.length > 0)).toBe(true);
  });

  it('draws only settings that fit the run, the same ones for the same seed', () => {
    const late = STRATEGIES.find((s) => s.name === 'late-joiner')!;
    const draws = (seed: number) => {
      const r = new Rng(seed);
      return Array.from({ length: 50 }, () => drawSetting(late, r, 3));
    };
    expect(draws(5).every((p) => p!.joinDay! < 3)).toBe(true);
    expect(draws(5)).toEqual(draws(5));
    const any: Strategy<{ a: number }> = { name: 'x', summary: '', grid: { a: [1, 2] }, create: () => ({}) as never };
    expect([1, 2]).toContain(drawSetting(any, new Rng(1), 1)!.a);
    // A run too short for every setting has none (it drew for ever before).
    expect(drawSetting({ ...any, fits: () => false }, new Rng(1), 1)).toBeUndefined();
    expect(allSettings(late)).toHaveLength(Object.values(late.grid).reduce((n, v) => n * v.length, 1));
  });

  it("caps an attacker's money at the median honest company's treasury, its kinds counted by weight", () => {
    const kind = (weight: number, treasuryMedianUsdc: number) => ({ weight, treasuryMedianUsdc });
    // 40% at 3,000, 25% at 10,000, 35% at 20,000: the median company is at 10,000.
    expect(fieldTreasuryMedian([kind(0.35, 20_000), kind(0.25, 10_000), kind(0.25, 3_000), kind(0.15, 3_000)])).toBe(
      10_000,
    );
    // A field mostly of builders has a builder's median; one mostly quiet, a quiet company's.
    expect(fieldTreasuryMedian([kind(0.6, 20_000), kind(0.4, 3_000)])).toBe(20_000);
    expect(fieldTreasuryMedian([kind(0.2, 20_000), kind(0.8, 3_000)])).toBe(3_000);
  });

  it('charges interest on money held: 10,000 USDC for a year at 5% is 500 USDC', () => {
    expect(interest(10_000, 365)).toBe(500n * USDC);
    expect(interest(0, 30)).toBe(0n);
  });

  it("counts a late joiner's held treasury at the stated cost of capital in its cost and its break-even", async () => {
    expect(CAPITAL_RATE_PER_YEAR).toBe(0.05);
    expect(capitalCost(10_000, 365)).toBe(500n * USDC);
    // Its money is drawn within the honest field's range: at most its median company's, and none (a pure sybil card).
    const held = lateJoiner.grid.treasuryUsdc;
    expect(HONEST_FIELD_TREASURY_MEDIAN_USDC).toBe(10_000);
    expect(Math.max(...held)).toBe(HONEST_FIELD_TREASURY_MEDIAN_USDC);
    expect(held).toContain(0);
    const added: { treasuryUsdc?: number }[] = [];
    const world = {
      addCompanies: async (_party: Party, specs: { treasuryUsdc?: number }[]) => {
        added.push(...specs);
        return [];
      },
    } as unknown as World;
    const party = newParty('late-joiner#0', false);
    // Two cards joining on day 2 of an 8-day run, each holding 20,000 USDC: 40,000 held for 6 days at 5% a year.
    const actor = lateJoiner.create({ joinDay: 2, cards: 2, treasuryUsdc: 20_000 }, party, new Rng(1), 8);
    await actor.startDay!(world, 0);
    await actor.startDay!(world, 1);
    expect(party.financing).toBe(0n);
    await actor.startDay!(world, 2);
    expect(added).toHaveLength(2);
    expect(added.map((c) => c.treasuryUsdc)).toEqual([20_000, 20_000]);
    const cost = Math.round(((40_000 * 0.05 * 6) / 365) * 1e6);
    expect(party.financing).toBe(BigInt(cost)); // 32.876712 USDC
    await actor.startDay!(world, 3);
    expect(party.financing).toBe(BigInt(cost));
    // The break-even counts it: the cards (funded and spent) plus the interest, over the tokens earned.
    const cards = 200n * USDC;
    const r = attackerResult('late-joiner', {}, [], cards + party.financing, 10_000n * TOKEN);
    expect(r.costUsdc).toBe(232.88);
    expect(r.breakEven).toBe(0.023288);
  });

  it("never gives two companies the same creator, nor a creator another company's treasury", () => {
    const creators = Array.from({ length: 1_000 }, (_, i) => creatorIndex(i));
    const treasuries = creators.map(treasuryIndex);
    const all = new Set([...creators, ...treasuries]);
    expect(all.size).toBe(2_000);
    // Fresh wallets start at 50,000: clear of 1,000 companies.
    expect(Math.max(...all)).toBeLessThan(50_000);
  });
});

describe('the report', () => {
  const cheap = attackerResult('volume', { wallets: 4 }, ['v'], 108n * USDC, 18_000n * TOKEN);
  const dear = attackerResult('volume', { wallets: 10 }, ['w'], 500n * USDC, 1_000n * TOKEN);
  const none = attackerResult('late', { joinDay: 6 }, ['l'], 100n * USDC, 0n);

  it('values the tokens at four prices and divides the cost by them for the break-even', () => {
    expect(cheap.valueUsdc).toEqual({ '0.001': 18, '0.01': 180, '0.1': 1_800, '1': 18_000 });
    expect(cheap.breakEven).toBe(0.006);
    expect(none.breakEven).toBeNull();
  });

  it('counts USDC its wallets gained on prices as taken from the other traders, not as a lower cost', () => {
    // Funded 400 USDC, its wallets hold 450 at the end: 50 taken on the price (after 4 of fees), the cost is the
    // card's 100 and the fees, not -50.
    const taker = attackerResult('volume', { wallets: 4 }, ['v'], -50n * USDC, 10_000n * TOKEN, {
      feesUsdc: 4,
      takenUsdc: 154,
      paidBy: { 'outside traders': -150 },
    });
    expect(taker.costUsdc).toBe(104);
    expect(taker.takenUsdc).toBe(154);
    expect(taker.breakEven).toBe(0.0104);
    expect(invariants([taker], []).filter((i) => !i.ok)).toEqual([]);
  });

  it("fails when an attacker took honest agents' USDC", () => {
    const taker = attackerResult('herd', { cards: 1 }, ['h'], 0n, 0n, {
      feesUsdc: 2,
      takenUsdc: 80,
      paidBy: { 'outside traders': 10, 'honest agents of sim-trader-001': -70 },
    });
    const failed = invariants([taker], []).filter((i) => !i.ok);
    expect(failed.map((i) => i.name)).toEqual(['herd (cards=1): honest agents lose nothing to it']);
    expect(failed[0]!.detail).toContain('lost 70 USDC');
    const fair = attackerResult('herd', { cards: 1 }, ['h'], 0n, 0n, {
      feesUsdc: 2,
      takenUsdc: 80,
      paidBy: { 'honest agents of sim-trader-001': 5 },
    });
    expect(invariants([fair], []).every((i) => i.ok)).toBe(true);
  });

  it("books a graduated token's pool trades at the pool hook's 2.5%, not at the curve's fee", () => {
    // On the curve (1%): a buy of 101 USDC is 100 for the curve and 1 of fee; a sale that paid 99 grossed 100.
    expect(tradeFee('buy', 'CURVE', 101n * USDC, 100n)).toBe(1n * USDC);
    expect(tradeFee('sell', 'CURVE', 99n * USDC, 100n)).toBe(1n * USDC);
    // In the pool (the hook's 2.5%, PlatformFeeHook.FEE_BIPS; no curve fee): a buy of 400 USDC paid 10 of it in
    // tokens; a sale that received 97.5 grossed 100. Before, both were booked at the curve's 1% (4 and 0.98).
    expect(POOL_FEE_BPS).toBe(250n);
    expect(tradeFee('buy', 'POOL', 400n * USDC, 100n)).toBe(10n * USDC);
    expect(tradeFee('sell', 'POOL', 97_500_000n, 100n)).toBe(2_500_000n);
    // At any curve fee, the pool's is the hook's.
    expect(tradeFee('buy', 'POOL', 400n * USDC, 0n)).toBe(10n * USDC);
  });

  it('tells a strategy why a trade was left out on its slippage bound, and throws anything else', async () => {
    const why: string[] = [];
    expect(
      await tolerant(
        async () => {
          throw new Error('execution reverted: LauncherSlippage(1, 2)\nmore');
        },
        (w) => why.push(w),
      ),
    ).toBe(false);
    expect(why).toEqual(['execution reverted: LauncherSlippage(1, 2)']);
    await expect(
      tolerant(async () => {
        throw new Error('connection refused');
      }),
    ).rejects.toThrow('connection refused');
  });

  it('charges gas at the stated price: a million gas at 0.01 gwei and 3,000 USDC an ether is 0.03 USDC', () => {
    expect(gasUsdc(1_000_000n)).toBeCloseTo(0.03, 10);
    const withGas = attackerResult('late', { cards: 1 }, ['l'], 100n * USDC, 10_000n * TOKEN, undefined, 10_000_000n);
    expect(withGas).toMatchObject({ gasUnits: 10_000_000, gasUsdc: 0.3, costUsdc: 100.3, breakEven: 0.01003 });
  });

  it('fails when a closed attack got through, and finds the symbols a directive names', () => {
    const copy = attackerResult('symbol-tricks', { copycats: 1 }, ['s'], 100n * USDC, 1_000n * TOKEN);
    expect(invariants([copy], []).every((i) => i.ok)).toBe(true);
    copy.breaches = ['a second B001 launched (201): symbols must be unique'];
    expect(
      invariants([copy], [])
        .filter((i) => !i.ok)
        .map((i) => i.name),
    ).toEqual(['symbol-tricks (copycats=1): a closed attack stays closed']);
    expect(namedSymbols('Trade only liquid tokens. Buy 20 USDC of N001 once it launches, or $x, not T1a.')).toEqual([
      'N001',
    ]);
  });

  it('measures the inequality of the honest rewards: 0 when equal, (n-1)/n when one company takes all', () => {
    expect(gini([5, 5, 5, 5])).toBe(0);
    expect(gini([0, 0, 0, 100])).toBe(0.75);
    expect(gini([1, 2, 3, 4])).toBe(0.25);
    expect(gini([])).toBeNull();
    expect(gini([0, 0])).toBeNull();
  });

  it("keeps each strategy's most profitable setting: the lowest break-even", () => {
    expect(bestPerStrategy([dear, none, cheap])).toEqual([cheap, none]);
  });

  it('fails the invariants on a cheap attack, a small honest share, or rewards past the pool', () => {
    const epochs = [
      {
        epoch: 0,
        rewardPoolTokens: 100_000,
        paidTokens: 100_000,
        honestTokens: 95_000,
        honestShare: 0.95,
        participants: 9,
      },
    ];
    expect(invariants([dear, none], epochs).every((i) => i.ok)).toBe(true);
    const failed = (list: ReturnType<typeof invariants>) => list.filter((i) => !i.ok).map((i) => i.name);
    expect(failed(invariants([cheap], epochs))).toEqual(['volume: break-even >= 0.01 USDC']);
    expect(failed(invariants([], [{ ...epochs[0]!, honestShare: 0.5 }]))).toEqual(['epoch 0: honest share >= 90%']);
    expect(failed(invariants([], [{ ...epochs[0]!, paidTokens: 100_001 }]))).toEqual([
      'epoch 0: rewards within the pool',
    ]);
  });

  it('holds attacks to 0.01 USDC a token, or to the cheapest honest company where a field pays every one less', () => {
    // A 100 USDC card and 10,000 USDC held for 73 days (100 USDC at 5%) for 20,000 tokens: 0.01 a token.
    expect(honestBreakEven(100_000_000n, 10_000, 73, 20_000)).toBe(0.01);
    expect(honestBreakEven(100_000_000n, 0, 30, 0)).toBeNull();
    // A field of ten over a month pays honest companies 0.003-0.004 a token: that is the bar there.
    expect(breakEvenBar([0.0035, 0.003, null, 0.004])).toBe(0.003);
    // A larger field, or one epoch, pays them more dearly: the bar stays 0.01; none paid, 0.01.
    expect(breakEvenBar([0.02, 0.05])).toBe(BREAK_EVEN_BAR);
    expect(breakEvenBar([null])).toBe(BREAK_EVEN_BAR);
    // The late joiner of the month's default run (0.0036) passes a field where honest companies paid 0.003, and
    // fails the 0.01 of one where none paid under 0.01.
    const monthCard = { ...cheap, strategy: 'late-joiner', breakEven: 0.0036 };
    const epochs = [
      { epoch: 0, rewardPoolTokens: 100, paidTokens: 100, honestTokens: 95, honestShare: 0.95, participants: 9 },
    ];
    expect(invariants([monthCard], epochs, undefined, breakEvenBar([0.003, 0.004])).every((i) => i.ok)).toBe(true);
    expect(invariants([monthCard], epochs, undefined, breakEvenBar([0.02])).find((i) => !i.ok)?.name).toBe(
      'late-joiner: break-even >= 0.01 USDC',
    );
  });

  it('fails when the staking emission paid and owed passes what the contract accrued', () => {
    const ok = invariants([], [], { accruedTokens: 1_000, paidTokens: 600, pendingTokens: 400 });
    expect(ok.find((i) => i.name === 'emission paid within emission accrued')?.ok).toBe(true);
    const over = invariants([], [], { accruedTokens: 1_000, paidTokens: 600, pendingTokens: 400.000001 });
    expect(over.filter((i) => !i.ok).map((i) => i.name)).toEqual(['emission paid within emission accrued']);
  });

  it('prints a row per attacker and a line per invariant', () => {
    const epochs = [
      {
        epoch: 0,
        rewardPoolTokens: 100_000,
        paidTokens: 100_000,
        honestTokens: 95_000,
        honestShare: 0.95,
        participants: 9,
      },
    ];
    const text = formatTable({
      seed: 1,
      commit: 'abc',
      options: {},
      seconds: 1,
      honestCompanies: 8,
      attackerCompanies: 2,
      marketTrades: 10,
      market: { fundedUsdc: 36_000, valueUsdc: 35_500, pnlUsdc: -500 },
      honestAgents: { realizedUsdc: 12.5, unrealizedUsdc: -3 },
      attackers: [cheap, none],
      best: [cheap, none],
      epochs,
      invariants: invariants([cheap, none], epochs),
    });
    expect(text).toMatch(/\* volume +wallets=4 +108\.00 +0\.0000 +0\.00 +18000\.00/);
    expect(text).toMatch(/late +joinDay=6 .* never/);
    expect(text).toContain('honest share 95.00%');
    expect(text).toContain('outside market: -500.00 USDC');
    expect(text).toContain("honest agents' PnL: realised 12.50 USDC, unrealised -3.00 USDC");
    expect(text).toContain('FAIL volume: break-even >= 0.01 USDC (0.006 USDC)');
  });
});

describe("the report's section of docs/economics.md and its chart", () => {
  const report = {
    seed: 2,
    commit: 'abc1234',
    options: { companies: 20, days: 3, attackers: 0.1 },
    seconds: 100,
    honestCompanies: 18,
    attackerCompanies: 2,
    marketTrades: 60,
    market: { fundedUsdc: 36_000, valueUsdc: 36_000, pnlUsdc: 0 },
    honestAgents: { realizedUsdc: 0, unrealizedUsdc: 0 },
    attackers: [],
    best: [
      attackerResult('herd', { wallets: 10 }, ['h'], 100n * USDC, 2_000n * TOKEN, {
        feesUsdc: 1,
        takenUsdc: 0,
        paidBy: { 'honest agents of sim-trader-001': -12.5 },
      }),
    ],
    epochs: [
      {
        epoch: 0,
        rewardPoolTokens: 100_000,
        paidTokens: 100_000,
        honestTokens: 88_000,
        honestShare: 0.88,
        participants: 20,
      },
    ],
    invariants: [{ name: 'epoch 0: honest share >= 90%', ok: false, detail: '88.00%' }],
  };
  report.attackers = report.best as never;

  it('writes the table between its markers, seed and commit included, and keeps the rest of the page', () => {
    const section = docsSection(report, 'images/x.svg');
    expect(section).toContain('Seed 2, commit abc1234');
    expect(section).toMatch(/\| herd \(wallets=10\) \| 100\.00 \|.*\| 0\.0500 \|/);
    expect(section).toContain('| 0 | 100,000 | 100,000 | 88.00% |');
    expect(section).toContain("Honest agents' USDC lost on attackers' tokens: 12.50");
    expect(section).toContain('failed: epoch 0: honest share >= 90%');
    const page = replaceSection(`# T\n\nbefore\n\n${DOCS_START}\nold\n${DOCS_END}\n\nafter\n`, section);
    expect(page).toContain('before');
    expect(page).toContain('after');
    expect(page).not.toContain('old');
    expect(replaceSection(page, section)).toBe(page);
  });

  it('draws a bar per epoch, red under the 90% line', () => {
    const svg = honestShareSvg(report);
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain('88.0%');
    expect(svg).toContain('fill="#c62828"');
  });
});

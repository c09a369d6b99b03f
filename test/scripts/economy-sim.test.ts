// The pure parts of `npm run sim` (bench/economy/): the seeded PRNG and its distributions, the command line, the
// draw of an attacker's setting, the accounts of the companies, and the report's arithmetic (break-even, the most
// profitable setting, the invariants).
import { describe, expect, it } from 'vitest';
import { allSettings, drawSetting, inParallel, interest, type Strategy } from '../../bench/economy/actor.ts';
import { STRATEGIES } from '../../bench/economy/adversaries/index.ts';
import { parseSimArgs } from '../../bench/economy/args.ts';
import { attackerResult, bestPerStrategy, formatTable, gini, invariants } from '../../bench/economy/report.ts';
import { Rng } from '../../bench/economy/rng.ts';
import { creatorIndex } from '../../bench/economy/world.ts';
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
    expect(parseSimArgs([], {})).toMatchObject({ seed: 1, companies: 10, days: 8, attackers: 0.1 });
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

  it('charges interest on money held: 10,000 USDC for a year at 5% is 500 USDC', () => {
    expect(interest(10_000, 365)).toBe(500n * USDC);
    expect(interest(0, 30)).toBe(0n);
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
    expect(text).toMatch(/\* volume +wallets=4 +108\.00 +0\.00 +18000\.00/);
    expect(text).toMatch(/late +joinDay=6 .* never/);
    expect(text).toContain('honest share 95.00%');
    expect(text).toContain('outside market: -500.00 USDC');
    expect(text).toContain("honest agents' PnL: realised 12.50 USDC, unrealised -3.00 USDC");
    expect(text).toContain('FAIL volume: break-even >= 0.01 USDC (0.006 USDC)');
  });
});

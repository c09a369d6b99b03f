// The simulation's field, search and sweep (bench/economy/field.ts, search.ts, params.ts, args.ts), without the chain:
// how many cards the attackers hold, which settings a search runs and which it keeps, and the owner's parameters.
import { describe, expect, it } from 'vitest';
import { allSettings, type Strategy } from '../../bench/economy/actor.ts';
import { STRATEGIES } from '../../bench/economy/adversaries/index.ts';
import { CI_RUN, parseSimArgs } from '../../bench/economy/args.ts';
import { attackerCards, cardsHeld, drawAttackers, honestBar } from '../../bench/economy/field.ts';
import { formatSweep, OWNER_PARAMS, paramsEnv, parseParamConfig, parseParamFlag } from '../../bench/economy/params.ts';
import { attackerResult, invariants, type SimReport } from '../../bench/economy/report.ts';
import { Rng } from '../../bench/economy/rng.ts';
import { bestRow, formatSearch, runSearch, searchRow, searchSettings } from '../../bench/economy/search.ts';

const late = STRATEGIES.find((s) => s.name === 'late-joiner')!;

describe("the field: the attackers' share counts their cards", () => {
  it('gives a 10-company field at 10% one attacking card, so no three-card sybil', () => {
    expect(attackerCards(10, 0.1)).toBe(1);
    expect(attackerCards(4, 0.1)).toBe(1);
    expect(attackerCards(30, 0.1)).toBe(3);
    expect(attackerCards(10, 0)).toBe(0);
    for (let seed = 0; seed < 40; seed++) {
      const drawn = drawAttackers(STRATEGIES, new Rng(seed), { seed, days: 8, cards: 1 });
      expect(cardsHeld(drawn)).toBe(1);
    }
    // Seed 1 starts with the late joiner: one card, where the default run drew three (25% of its twelve companies).
    const [first] = drawAttackers(STRATEGIES, new Rng(1), { seed: 1, days: 8, cards: 1 });
    expect(first!.strategy.name).toBe('late-joiner');
    expect(first!.params.cards).toBe(1);
  });

  it('spends the cards of a larger share, and the CI run keeps its two one-card attackers', () => {
    for (let seed = 0; seed < 20; seed++) {
      expect(cardsHeld(drawAttackers(STRATEGIES, new Rng(seed), { seed, days: 8, cards: 5 }))).toBe(5);
    }
    const ci = drawAttackers(STRATEGIES, new Rng(CI_RUN.seed), {
      seed: CI_RUN.seed,
      days: CI_RUN.days,
      cards: attackerCards(CI_RUN.companies, CI_RUN.attackers),
    });
    expect(ci.map((a) => a.strategy.name)).toEqual(['fresh-wallet-volume', 'herding']);
  });

  it('holds the honest share to 90%, or to the honest head count of a field too small for 10%', () => {
    expect(honestBar(9, 1)).toBe(0.9);
    expect(honestBar(18, 2)).toBe(0.9);
    expect(honestBar(3, 1)).toBe(0.75);
    // The default run's old field: nine honest companies and three sybil cards.
    expect(honestBar(9, 3)).toBe(0.75);
    const epoch = {
      epoch: 0,
      rewardPoolTokens: 100,
      paidTokens: 100,
      honestTokens: 76,
      honestShare: 0.76,
      participants: 4,
    };
    const held = (bar: number) =>
      invariants([], [epoch], undefined, 0.01, bar).find((i) => i.name.includes('honest share'))!;
    expect(held(honestBar(3, 1)).ok).toBe(true);
    expect(held(honestBar(9, 1)).ok).toBe(false);
  });
});

describe('a search over a strategy grid', () => {
  it('runs the whole grid that fits when it is small enough, else a seeded sample of the budget', () => {
    const fitting = allSettings(late).filter((s) => late.fits!(s, 2));
    expect(fitting.every((s) => s.joinDay < 2)).toBe(true);
    expect(searchSettings(late, { days: 2, budget: 100, seed: 1 })).toEqual(fitting);
    const a = searchSettings(late, { days: 8, budget: 5, seed: 1 });
    expect(a).toHaveLength(5);
    expect(new Set(a.map((s) => JSON.stringify(s))).size).toBe(5);
    expect(searchSettings(late, { days: 8, budget: 5, seed: 1 })).toEqual(a);
    expect(searchSettings(late, { days: 8, budget: 5, seed: 2 })).not.toEqual(a);
    const none: Strategy<{ a: number }> = {
      name: 'x',
      summary: '',
      grid: { a: [1] },
      fits: () => false,
      create: () => ({}) as never,
    };
    expect(searchSettings(none, { days: 1, budget: 3, seed: 1 })).toEqual([]);
  });

  const report = (earned: bigint, cost: bigint, cards: number): SimReport =>
    ({
      attackers: [attackerResult('late-joiner', {}, [], cost, earned)],
      epochs: [
        { epoch: 0, rewardPoolTokens: 100, paidTokens: 100, honestTokens: 80, honestShare: 0.8, participants: 3 },
      ],
      companies: [
        { slug: 'h0', party: 'h', honest: true, rewardTokens: { 0: 50 } },
        { slug: 'h1', party: 'h', honest: true, rewardTokens: { 0: 30 } },
        ...Array.from({ length: cards }, (_, i) => ({
          slug: `a${i}`,
          party: 'a',
          honest: false,
          rewardTokens: { 0: 20 / cards },
        })),
      ],
      invariants: [{ name: 'x', ok: false, detail: '' }],
    }) as unknown as SimReport;
  const TOKEN = 10n ** 18n;
  const USDC = 10n ** 6n;

  it("keeps the lowest break-even, compares a card's reward with an honest company's, and goes on past a failed run", async () => {
    const outcomes = [
      report(20n * TOKEN, 100n * USDC, 1), // 5 USDC a token
      report(20n * TOKEN, 40n * USDC, 2), // 2 USDC a token: the best
      new Error('the service exited early'),
      report(0n, 100n * USDC, 1), // never
    ];
    let i = 0;
    const settings = [{ cards: 1 }, { cards: 2 }, { cards: 3 }, { cards: 1 }];
    const rows = await runSearch(late, settings, 2, async (field) => {
      expect(field.honest).toBe(2);
      expect(field.attackers[0]!.strategy).toBe(late);
      const o = outcomes[i++]!;
      if (o instanceof Error) throw o;
      return o;
    });
    expect(rows).toHaveLength(4);
    expect(rows[2]!.error).toContain('exited early');
    expect(bestRow(rows)).toBe(rows[1]);
    expect(rows[1]!.result!.breakEven).toBe(2);
    // 10 tokens a card against an honest mean of 40.
    expect(rows[1]!.perCardVsHonest).toBe(0.25);
    expect(rows[3]!.result!.breakEven).toBeNull();
    const text = formatSearch('late-joiner', rows, 'head');
    expect(text).toContain('* cards=2');
    expect(text).toContain('run failed');
    expect(text).toContain('most profitable: late-joiner at cards=2');
    expect(searchRow(late, { cards: 1 }, report(20n * TOKEN, 100n * USDC, 1)).failed).toEqual(['x']);
  });

  it('takes --search with a strategy of its own, on a small run unless told otherwise', () => {
    const o = parseSimArgs(['--search', 'late-joiner', '--budget', '3'], {});
    expect(o).toMatchObject({ search: 'late-joiner', budget: 3, companies: 4, days: 2 });
    expect(parseSimArgs(['--search', 'late-joiner', '--days', '5'], {}).days).toBe(5);
    expect(() => parseSimArgs(['--search', 'nope'], {})).toThrow(/no strategy "nope"/);
    expect(() => parseSimArgs(['--budget', '0'], {})).toThrow(/--budget/);
    expect(parseSimArgs([], {})).toMatchObject({ companies: 10, days: 30, search: undefined });
  });
});

describe("the owner's parameters and a sweep", () => {
  it('reads --param, --sweep and --values against each parameter and its range', () => {
    expect(parseParamFlag('pool=1000000')).toEqual(['pool', 1_000_000]);
    expect(() => parseParamFlag('curveFeeBps=201')).toThrow(/0-200/);
    expect(() => parseParamFlag('nope=1')).toThrow(/unknown owner parameter "nope"/);
    expect(() => parseParamFlag('pool')).toThrow(/NAME=VALUE/);
    const o = parseSimArgs(
      ['--param', 'pool=5', '--param', 'floorVolume=1000', '--sweep', 'curveFeeBps', '--values', '0,200'],
      {},
    );
    expect(o).toMatchObject({
      params: { pool: 5, floorVolume: 1000 },
      sweep: 'curveFeeBps',
      values: [0, 200],
      companies: 4,
    });
    expect(() => parseSimArgs(['--values', '1'], {})).toThrow(/with --sweep/);
    expect(() => parseSimArgs(['--sweep', 'minHold', '--values', '1,-5'], {})).toThrow(/minHold/);
    expect(() => parseSimArgs(['--sweep', 'pool', '--search', 'late-joiner'], {})).toThrow(/one at a time/);
  });

  it('reads a config file of parameters, and gives the service the settings among them', () => {
    expect(parseParamConfig('{"pool": 1000000, "curveFeeBps": "200"}')).toEqual({ pool: 1_000_000, curveFeeBps: 200 });
    expect(() => parseParamConfig('[1]')).toThrow(/JSON object/);
    expect(() => parseParamConfig('{"pool": true}')).toThrow(/pool/);
    expect(() => parseParamConfig('{')).toThrow(/not JSON/);
    // Settings go to the service's environment in its units; a contract's setter does not.
    expect(paramsEnv({ pool: 1_000_000, floorActivity: 12, curveFeeBps: 0 })).toEqual({
      EPOCH_REWARD_POOL: '1000000000000000000000000',
      SCORE_FLOOR_ACTIVITY_ROUNDS: '12',
    });
  });

  it("sweeps values that include each parameter's default, within its range", () => {
    for (const p of OWNER_PARAMS) {
      expect(p.sweep).toContain(p.default);
      expect(p.sweep.every((v) => v >= p.min && v <= p.max)).toBe(true);
      expect(Boolean(p.env) !== Boolean(p.call)).toBe(true);
    }
  });

  it('prints where the invariants break, value by value', () => {
    const text = formatSweep(
      'pool',
      [
        {
          value: 100_000,
          failed: [],
          honestShare: 0.95,
          bestBreakEven: { strategy: 'late-joiner', breakEven: 0.04 },
          breakEvens: [
            { strategy: 'late-joiner', breakEven: 0.04 },
            { strategy: 'herding', breakEven: null },
          ],
          seconds: 1,
        },
        {
          value: 1_000_000,
          failed: ['late-joiner: break-even >= 0.01 USDC'],
          honestShare: 0.95,
          bestBreakEven: { strategy: 'late-joiner', breakEven: 0.004 },
          seconds: 1,
        },
        { value: 5, failed: [], honestShare: null, bestBreakEven: null, seconds: 1, error: 'boom' },
      ],
      'head',
    );
    expect(text).toContain('100000 (default)');
    expect(text).toContain('FAIL 1');
    expect(text).toContain('pool=5: the run failed: boom');
    expect(text).toContain('held every invariant at: 100000 (of 100000, 1000000, 5)');
    expect(text).toContain('pool=100000: break-evens: late-joiner 0.04, herding never');
    expect(text).not.toContain('pool=1000000: break-evens');
  });
});

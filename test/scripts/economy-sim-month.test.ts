// The economy simulation's pure parts for a month of trading (bench/economy/): the epochs a run sees end, the
// staking emission accrued and paid by each epoch's end, the honest agents' PnL per company and what of it was lost
// on attackers' tokens, and the outside market's orders (distinct traders per token, sales only by holders, waves
// that never send one wallet's or one token's orders at once). The run itself is test/e2e/economy-sim.test.ts.
import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { agentsOf, type TokenFlows } from '../../bench/economy/attribution.ts';
import { epochsEnding, slotTime } from '../../bench/economy/days.ts';
import { accruedUntil, paidUntil } from '../../bench/economy/emission.ts';
import { DEFAULT_MARKET, drawOrders, type Order, waves } from '../../bench/economy/honest/outside-traders.ts';
import { type CompanyPnl, onAttackersTokens, reasonKind, sumHonestPnl } from '../../bench/economy/pnl.ts';
import { invariants } from '../../bench/economy/report.ts';
import { Rng } from '../../bench/economy/rng.ts';

const TOKEN = 10n ** 18n;

describe('a month on the chain clock', () => {
  it('sees four weekly epochs end in 30 days, after days 7, 14, 21 and 28', () => {
    expect(epochsEnding(30, 7)).toEqual([
      { epoch: 0, afterDay: 6 },
      { epoch: 1, afterDay: 13 },
      { epoch: 2, afterDay: 20 },
      { epoch: 3, afterDay: 27 },
    ]);
    expect(epochsEnding(8, 7)).toEqual([{ epoch: 0, afterDay: 6 }]);
    expect(epochsEnding(6, 7)).toEqual([]);
    // A short epoch (EPOCH_DURATION_S of a day) ends every day.
    expect(epochsEnding(4, 1).map((e) => e.afterDay)).toEqual([0, 1, 2, 3]);
  });
});

describe("a day's trading slots", () => {
  const day = Date.UTC(2026, 10, 30) / 1000;
  const h = (hours: number) => day + hours * 3_600;
  it('runs a slot at its hour, the clock moved there', () => {
    expect(slotTime(h(6), h(3))).toEqual({ at: h(6), move: true });
    expect(slotTime(h(18), h(6) + 30)).toEqual({ at: h(18), move: true });
  });
  it('runs a slot whose hour had passed (the setup ran past it) now, not never', () => {
    // A run started at 08:00 UTC: day 0's 06:00 slot runs at once; before, it was skipped and herding's day-0 buys
    // never happened.
    expect(slotTime(h(6), h(8))).toEqual({ at: h(8), move: false });
    expect(slotTime(h(18), h(20))).toEqual({ at: h(20), move: false });
    // Within a minute of its hour it runs where the clock is.
    expect(slotTime(h(6), h(6) - 30)).toEqual({ at: h(6) - 30, move: false });
  });
});

describe('the staking emission by epoch', () => {
  // 1 token a second from t=100, 2 from t=200; the first deposit at t=150.
  const steps = [
    { at: 100n, rate: TOKEN },
    { at: 200n, rate: 2n * TOKEN },
  ];

  it('accrues from the first deposit at each rate in force, up to the time asked', () => {
    expect(accruedUntil(steps, 150n, 180n)).toBe(30n * TOKEN);
    expect(accruedUntil(steps, 150n, 250n)).toBe(50n * TOKEN + 100n * TOKEN);
    expect(accruedUntil(steps, 150n, 120n)).toBe(0n);
    expect(accruedUntil(steps, undefined, 1_000n)).toBe(0n);
  });

  it('counts what was harvested by the time asked', () => {
    const harvests = [
      { at: 190n, amount: 30n * TOKEN },
      { at: 260n, amount: 50n * TOKEN },
    ];
    expect(paidUntil(harvests, 200n)).toBe(30n * TOKEN);
    expect(paidUntil(harvests, 260n)).toBe(80n * TOKEN);
  });

  it("fails an epoch whose emission paid by its end passes what had accrued by then, even if the end's total holds", () => {
    const emission = {
      accruedTokens: 1_000,
      paidTokens: 600,
      pendingTokens: 0,
      epochs: [
        { epoch: 0, accruedTokens: 250, paidTokens: 240 },
        { epoch: 1, accruedTokens: 500, paidTokens: 510 },
      ],
    };
    const failed = invariants([], [], emission).filter((i) => !i.ok);
    expect(failed.map((i) => i.name)).toEqual(['epoch 1: emission paid by its end within emission accrued by then']);
  });
});

describe("the honest agents' PnL", () => {
  const flows: TokenFlows[] = [
    {
      slug: 'sim-herd-000',
      symbol: 'H000',
      honestIssuer: false,
      pnlUsdc: { [agentsOf('sim-trader-001', true)]: -12.5, 'herding 0': 30 },
      feesUsdc: {},
    },
    {
      slug: 'sim-volume-000',
      symbol: 'V000',
      honestIssuer: false,
      pnlUsdc: { [agentsOf('sim-trader-001', true)]: 2.25, [agentsOf('sim-trader-004', true)]: 1 },
      feesUsdc: {},
    },
    {
      slug: 'sim-builder-000',
      symbol: 'B000',
      honestIssuer: true,
      pnlUsdc: { [agentsOf('sim-trader-001', true)]: -40 },
      feesUsdc: {},
    },
  ];

  it("nets a company's agents on the attackers' tokens only (an honest token's loss is the market's)", () => {
    expect(onAttackersTokens(flows, 'sim-trader-001')).toBe(-10.25);
    expect(onAttackersTokens(flows, 'sim-trader-004')).toBe(1);
    expect(onAttackersTokens(flows, 'sim-quiet-002')).toBe(0);
  });

  it("sums the companies; one company's gain on attackers' tokens does not offset another's loss", () => {
    const company = (slug: string, realizedUsdc: number, unrealizedUsdc: number, on: number): CompanyPnl => ({
      slug,
      realizedUsdc,
      unrealizedUsdc,
      onAttackersTokensUsdc: on,
      buys: realizedUsdc === 0 && unrealizedUsdc === 0 ? 0 : 2,
      sells: 0,
      refused: {},
    });
    const sum = sumHonestPnl([
      company('sim-trader-001', 3.1, -1.05, -10.25),
      company('sim-trader-004', -2, 0.5, 1),
      company('sim-quiet-002', 0, 0, 0),
    ]);
    expect(sum).toMatchObject({ realizedUsdc: 1.1, unrealizedUsdc: -0.55, lostToAttackersUsdc: 10.25 });
    // The quiet company, which never traded, is left out of the list.
    expect(sum.companies!.map((c) => c.slug)).toEqual(['sim-trader-001', 'sim-trader-004']);
  });

  it('counts like refusals together, whatever their figures and symbols', () => {
    expect(reasonKind('B000 is 5 h old; agents buy tokens at least 24 h old')).toBe(
      reasonKind('T001 is 12 h old; agents buy tokens at least 24 h old'),
    );
  });
});

describe('the outside market', () => {
  const wallets = Array.from({ length: DEFAULT_MARKET.traders }, (_, i) => 50_000 + i);
  const tokens = [
    { slug: 'sim-trader-001', token: '0x0000000000000000000000000000000000000002' as Address, product: false },
    { slug: 'sim-builder-000', token: '0x0000000000000000000000000000000000000001' as Address, product: true },
  ];

  const month = (seed: number) => {
    const rng = new Rng(seed);
    const holders = new Map<Address, Set<number>>();
    const slots: Order[][] = [];
    for (let s = 0; s < 60; s++) {
      const orders = drawOrders(rng, DEFAULT_MARKET, wallets, tokens, holders);
      for (const o of orders) {
        if (o.buyUsdc === undefined) continue;
        const held = holders.get(o.token) ?? new Set<number>();
        holders.set(o.token, held);
        held.add(o.trader);
      }
      slots.push(orders);
    }
    return { slots, holders };
  };

  it('draws the same orders for the same seed, whatever order the tokens come in', () => {
    const a = drawOrders(new Rng(5), DEFAULT_MARKET, wallets, tokens, new Map());
    const b = drawOrders(new Rng(5), DEFAULT_MARKET, wallets, [...tokens].reverse(), new Map());
    expect(a).toEqual(b);
    expect(a.length).toBeGreaterThan(0);
  });

  it("gives a product's token distinct traders enough for the buy rules' ten in a day, and sales only by holders", () => {
    const { slots } = month(7);
    const product = tokens[1]!.token;
    const seen = new Map<Address, Set<number>>();
    for (const orders of slots) {
      for (const token of [tokens[0]!.token, product]) {
        const mine = orders.filter((o) => o.token === token);
        // One order a trader a token and slot.
        expect(new Set(mine.map((o) => o.trader)).size).toBe(mine.length);
      }
      for (const o of orders) {
        if (o.sell !== undefined) expect(seen.get(o.token)?.has(o.trader)).toBe(true);
        if (o.buyUsdc !== undefined) {
          const held = seen.get(o.token) ?? new Set<number>();
          seen.set(o.token, held);
          held.add(o.trader);
        }
      }
    }
    // Two slots a day: a product's token averages at least ten distinct traders over a day's two slots.
    let days = 0;
    let distinct = 0;
    for (let s = 0; s + 1 < slots.length; s += 2) {
      days++;
      distinct += new Set([...slots[s]!, ...slots[s + 1]!].filter((o) => o.token === product).map((o) => o.trader))
        .size;
    }
    expect(distinct / days).toBeGreaterThanOrEqual(10);
    const other = slots.flat().filter((o) => o.token === tokens[0]!.token).length;
    expect(other / slots.length).toBeLessThan(3);
  });

  it("sends orders in waves that never hold one trader's or one token's orders twice, in their drawn order", () => {
    const orders = month(3).slots.slice(10, 12).flat();
    const sent = waves(orders);
    expect(sent.flat()).toHaveLength(orders.length);
    for (const wave of sent) {
      expect(new Set(wave.map((o) => o.trader)).size).toBe(wave.length);
      expect(new Set(wave.map((o) => o.token)).size).toBe(wave.length);
    }
    const position = new Map(sent.flatMap((wave, i) => wave.map((o) => [o, i] as const)));
    for (const [i, a] of orders.entries()) {
      for (const b of orders.slice(i + 1)) {
        if (a.trader === b.trader || a.token === b.token) expect(position.get(a)!).toBeLessThan(position.get(b)!);
      }
    }
  });
});

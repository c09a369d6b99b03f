// The pure parts of `npm run demo` (scripts/demo/: plan, days-plan, args, progress, units, epoch-plan): the
// decisions that make a second run harmless.
import { describe, expect, it } from 'vitest';
import { localCronSecret, parseDemoArgs } from '../../scripts/demo/args.ts';
import {
  DEFAULT_DAYS,
  HOT_SYMBOL,
  MARKET_TRADER_INDICES,
  MAX_DAYS,
  marketOrders,
  nextMidnight,
  slotsAhead,
  TRADING_HOURS,
} from '../../scripts/demo/days-plan.ts';
import { planEpoch } from '../../scripts/demo/epoch-plan.ts';
import { DEMO_COMPANIES, DEMO_STEPS, planCompanies, treasuryIndex } from '../../scripts/demo/plan.ts';
import { renderBar } from '../../scripts/demo/progress.ts';
import { formatUnitsShort, shortfall, withSlippage } from '../../scripts/demo/units.ts';

const epoch = { epochNumber: 0, startTime: 1_000_000, endTime: 1_604_800, nextEpochIn: 600_000 };

describe('demo plan', () => {
  it('covers the seven categories, both leagues, six tokens of which two graduate', () => {
    expect(new Set(DEMO_COMPANIES.map((c) => c.category)).size).toBe(7);
    expect(DEMO_COMPANIES.some((c) => c.ceoPrompt)).toBe(true);
    expect(DEMO_COMPANIES.some((c) => !c.ceoPrompt)).toBe(true);
    expect(DEMO_COMPANIES.filter((c) => c.token).length).toBe(6);
    expect(DEMO_COMPANIES.filter((c) => c.token?.graduate).length).toBe(2);
    expect(new Set(DEMO_COMPANIES.map((c) => c.slug)).size).toBe(DEMO_COMPANIES.length);
  });

  it('stakes and funds only what is missing', () => {
    expect(shortfall(0n, 10n)).toBe(10n);
    expect(shortfall(4n, 10n)).toBe(6n);
    expect(shortfall(10n, 10n)).toBe(0n);
    expect(shortfall(12n, 10n)).toBe(0n);
  });

  it('moves the clock only when the running epoch holds a snapshot, and claims once rewards exist', () => {
    expect(planEpoch(epoch, true, undefined)).toEqual({ kind: 'claim' });
    expect(planEpoch(epoch, false, undefined)).toEqual({ kind: 'wait-snapshot' });
    expect(planEpoch(epoch, false, 1_086_400)).toEqual({ kind: 'advance', seconds: 600_005 });
    expect(planEpoch(epoch, false, epoch.endTime)).toEqual({ kind: 'wait-snapshot' });
    const later = { ...epoch, epochNumber: 1, startTime: 1_604_800, endTime: 2_209_600 };
    expect(planEpoch(later, false, 1_086_400)).toEqual({ kind: 'distribute-previous' });
  });

  it('draws the bar and formats amounts', () => {
    expect(renderBar(5, 10, 'trading', 10)).toBe('[#####-----] 5/10 trading');
    expect(renderBar(12, 10, 'x', 4)).toBe('[####] 10/10 x');
    expect(formatUnitsShort(10_809_202_383n, 6)).toBe('10,809.2');
    expect(formatUnitsShort(6_373n, 6, 6)).toBe('0.006373');
    expect(formatUnitsShort(0n, 18)).toBe('0');
    expect(withSlippage(10_000n)).toBe(9_900n);
  });

  it('reads --url and the secret, refusing what it does not know', () => {
    expect(parseDemoArgs([], {})).toEqual({
      url: 'http://localhost:3000',
      secret: undefined,
      days: DEFAULT_DAYS,
      plan: 'full',
      help: false,
    });
    expect(parseDemoArgs(['--url=http://h:1/', '--secret', 's'], { CRON_SECRET: 'c' })).toMatchObject({
      url: 'http://h:1',
      secret: 's',
    });
    expect(parseDemoArgs([], { ADMIN_SECRET: 'a' }).secret).toBe('a');
    // The port npm start was given in this shell, unless DEMO_URL says otherwise.
    expect(parseDemoArgs([], { PORT: '3917' }).url).toBe('http://localhost:3917');
    expect(parseDemoArgs([], { PORT: '3917', DEMO_URL: 'http://h:2' }).url).toBe('http://h:2');
    expect(() => parseDemoArgs(['--nope'], {})).toThrow(/unknown option/);
    expect(() => parseDemoArgs(['--url', 'ftp://x'], {})).toThrow(/http/);
  });

  it("reads a local service's development cron secret, never a remote one's", () => {
    const files: Record<string, string> = { './data/cron-secret': 'dev-secret\n', '/tmp/d/cron-secret': 'other\n' };
    const read = (file: string) => files[file];
    expect(localCronSecret('http://localhost:3000', {}, read)).toBe('dev-secret');
    expect(localCronSecret('http://127.0.0.1:4000', { DATA_DIR: '/tmp/d/' }, read)).toBe('other');
    expect(localCronSecret('http://[::1]:3000', {}, read)).toBe('dev-secret');
    expect(localCronSecret('https://api.example.com', {}, read)).toBeUndefined();
    expect(localCronSecret('http://localhost:3000', { DATA_DIR: '/nowhere' }, read)).toBeUndefined();
  });

  it('takes the full or the small plan; the small one keeps a momentum trader, the hot token and a HUMAN buyer', () => {
    expect(parseDemoArgs(['--plan', 'small'], {}).plan).toBe('small');
    expect(() => parseDemoArgs(['--plan', 'tiny'], {})).toThrow(/--plan/);
    expect(planCompanies('full')).toBe(DEMO_COMPANIES);
    const small = planCompanies('small');
    expect(small.map((c) => c.slug)).toEqual(['demo-spot-sprinters', 'demo-premarket-scouts', 'demo-neural-capital']);
    expect(small.some((c) => c.category === 'SPOT_TRADING' && c.token)).toBe(true);
    expect(small.some((c) => c.token?.symbol === HOT_SYMBOL)).toBe(true);
    // The HUMAN company's directive names a token of the plan.
    const human = small.find((c) => c.ceoPrompt)!;
    expect(small.some((c) => c.token && human.ceoPrompt!.includes(c.token.symbol))).toBe(true);
  });

  it('sets the directives after the launches they name, so Pre-Market Scouts may buy SPRNT', () => {
    // A directive counts only tokens launched before it was set (the buy rules): set before SPRNT launched, the
    // scouts' "buy SPRNT" named no token of theirs, and they never bought it.
    expect(DEMO_STEPS.indexOf('leagues')).toBeGreaterThan(DEMO_STEPS.indexOf('tokens'));
    expect(DEMO_STEPS.indexOf('leagues')).toBeLessThan(DEMO_STEPS.indexOf('decision rounds'));
    const scouts = DEMO_COMPANIES.find((c) => c.name === 'Pre-Market Scouts')!;
    expect(scouts.ceoPrompt).toContain('SPRNT');
    expect(DEMO_COMPANIES.some((c) => c.token?.symbol === 'SPRNT')).toBe(true);
    expect(new Set(DEMO_STEPS).size).toBe(DEMO_STEPS.length);
  });

  it('takes --days from 1 to 14 whole days', () => {
    expect(parseDemoArgs(['--days', '1'], {}).days).toBe(1);
    expect(parseDemoArgs([`--days=${MAX_DAYS}`], {}).days).toBe(MAX_DAYS);
    expect(() => parseDemoArgs(['--days', '0'], {})).toThrow(/--days/);
    expect(() => parseDemoArgs(['--days', String(MAX_DAYS + 1)], {})).toThrow(/--days/);
    expect(() => parseDemoArgs(['--days', '2.5'], {})).toThrow(/--days/);
    expect(() => parseDemoArgs(['--days'], {})).toThrow(/needs a value/);
  });
});

describe('the plan of days', () => {
  const day = Date.UTC(2026, 10, 26) / 1000;
  const at = (h: number, m = 0, s = 0) => day + h * 3600 + m * 60 + s;

  it("trades at the chain day's trading hours still ahead, then closes the day just past its midnight", () => {
    expect(slotsAhead(day)).toEqual(TRADING_HOURS.map((h) => at(h)));
    expect(slotsAhead(at(10))).toEqual([at(15), at(21)]);
    // A slot less than a minute ahead is gone: a resumed run never trades an hour twice.
    expect(slotsAhead(at(20, 59, 1))).toEqual([]);
    expect(slotsAhead(at(20, 59, 0))).toEqual([at(21)]);
    expect(slotsAhead(at(23, 59))).toEqual([]);
    expect(nextMidnight(at(21))).toBe(day + 86_400 + 60);
    expect(nextMidnight(day)).toBe(day + 86_400 + 60);
  });

  it('has at least ten distinct traders in every token over any 24 h, all of them market traders', () => {
    const linked = [...Array(10).keys(), ...DEMO_COMPANIES.map((x) => treasuryIndex(x.account))];
    for (const c of DEMO_COMPANIES.filter((d) => d.token)) {
      const slots = [0, 1, 2].flatMap((d) => TRADING_HOURS.map((_, slot) => marketOrders(c.token!.symbol, d, slot)));
      // A round's last 24 h hold the three slots before its own (it may run before its slot's trades).
      for (let i = 0; i + 3 <= slots.length; i++) {
        const traders = new Set(slots.slice(i, i + 3).flatMap((orders) => orders.map((o) => o.trader)));
        expect(traders.size).toBeGreaterThanOrEqual(10);
      }
      for (const o of slots.flat()) {
        expect(MARKET_TRADER_INDICES).toContain(o.trader);
        // No dev account (the companies' creators, the stakers) and no treasury trades in the market.
        expect(linked).not.toContain(o.trader);
      }
    }
  });

  it('keeps buying the hot token, and mixes sales into the others', () => {
    for (let slot = 0; slot < TRADING_HOURS.length; slot++) {
      const hot = marketOrders(HOT_SYMBOL, 1, slot);
      expect(hot.every((o) => o.side === 'buy' && o.usdc! > 0)).toBe(true);
      const other = marketOrders('PERP', 1, slot);
      expect(other.filter((o) => o.side === 'sell')).toHaveLength(1);
      expect(other.filter((o) => o.side === 'buy')).toHaveLength(3);
      expect(other.filter((o) => o.side === 'buy').every((o) => o.usdc! > 0)).toBe(true);
    }
    // The same day and slot place the same orders: a re-run is predictable.
    expect(marketOrders('SPRNT', 2, 3)).toEqual(marketOrders('SPRNT', 2, 3));
  });

  it("gives the hot token a market by money that no one wallet makes, over any 24 h (the agents' buy rules)", () => {
    const slots = [0, 1, 2].flatMap((d) => TRADING_HOURS.map((_, slot) => marketOrders(HOT_SYMBOL, d, slot)));
    for (let i = 0; i + 3 <= slots.length; i++) {
      const paid = new Map<number, number>();
      for (const o of slots.slice(i, i + 3).flat()) paid.set(o.trader, (paid.get(o.trader) ?? 0) + o.usdc!);
      const v = [...paid.values()];
      const sum = v.reduce((a, b) => a + b, 0);
      // Weighed by money: (sum v)^2 / sum v^2 at least 5 (half of 10 traders); the largest under 50%.
      expect(sum ** 2 / v.reduce((a, b) => a + b * b, 0)).toBeGreaterThanOrEqual(5);
      expect(Math.max(...v) / sum).toBeLessThan(0.5);
    }
  });
});

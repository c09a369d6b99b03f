// The pure parts of `npm run demo` (scripts/demo/: plan, args, progress, units, epoch-plan): the decisions that make a second run harmless.
import { describe, expect, it } from 'vitest';
import { localCronSecret, parseDemoArgs } from '../../scripts/demo/args.ts';
import { planEpoch } from '../../scripts/demo/epoch-plan.ts';
import { DEMO_COMPANIES } from '../../scripts/demo/plan.ts';
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
    expect(parseDemoArgs([], {})).toEqual({ url: 'http://localhost:3000', secret: undefined, help: false });
    expect(parseDemoArgs(['--url=http://h:1/', '--secret', 's'], { CRON_SECRET: 'c' })).toMatchObject({
      url: 'http://h:1',
      secret: 's',
    });
    expect(parseDemoArgs([], { ADMIN_SECRET: 'a' }).secret).toBe('a');
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
});

// A company token's top holders over HTTP: before the launch none, after buys the largest balances first with their
// share of the supply (the launcher named as the curve), the limit honoured and bounded, and an unknown company 404.
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { sharePercent } from '../../src/domain/tokens/holders.ts';
import { useTestApp } from '../helpers/app.ts';
import { staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const trading = tokenTrading(t);
const USDC = 1_000_000n;
const holdersOf = (id: string, query = '') => t.app.inject(`/api/companies/${id}/token/holders${query}`);

describe('sharePercent', () => {
  it('is the percent of the supply, 2 decimals, rounded down', () => {
    expect(sharePercent(1n, 3n)).toBe('33.33');
    expect(sharePercent(3n, 3n)).toBe('100.00');
    expect(sharePercent(1n, 100_000n)).toBe('0.00');
    expect(sharePercent(5n, 0n)).toBe('0.00');
  });
});

describe('GET /api/companies/:id/token/holders', () => {
  it('lists none before the launch, then the largest balances first with their share', async () => {
    const company = await staffedCompany(t, 1, { name: 'Holders Co' });
    const before = await holdersOf(company.id);
    expect(before.statusCode).toBe(200);
    expect(before.json().data).toMatchObject({ tokenAddress: null, holderCount: 0, holders: [] });

    const token = await trading.launch(company.id, 'HOLD', 1);
    await trading.buy(2, token, 300n * USDC);
    await trading.buy(3, token, 100n * USDC);
    await trading.index();

    const res = await holdersOf(company.id);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.tokenAddress).toBe(getAddress(token));
    expect(data.holderCount).toBe(3);
    expect(data.supply).toBe('1000000');
    const [curve, big, small] = data.holders;
    expect(curve.kind).toBe('curve');
    expect(curve.address).toBe(getAddress(t.chain.chain.contracts.tokenLauncher!));
    expect(big).toMatchObject({ kind: 'wallet', address: devAccount(2).address });
    expect(small).toMatchObject({ kind: 'wallet', address: devAccount(3).address });
    expect(Number(big.balance)).toBeGreaterThan(Number(small.balance));
    // The shares are of the supply: the three add up to 100% less rounding.
    const sum = data.holders.reduce((s: number, h: { sharePercent: string }) => s + Number(h.sharePercent), 0);
    expect(sum).toBeGreaterThan(99.97);
    expect(sum).toBeLessThanOrEqual(100);
    expect(big.sharePercent).toBe(sharePercent(await trading.balanceOf(2, token), 1_000_000n * 10n ** 18n));

    const one = await holdersOf(company.id, '?limit=1');
    expect(one.json().data.holders).toHaveLength(1);
    expect(one.json().data.holders[0].kind).toBe('curve');
  }, 120_000);

  it('refuses a limit out of bounds and answers 404 for an unknown company', async () => {
    const company = await staffedCompany(t, 1, { name: 'Holders Bounds Co' });
    for (const limit of ['0', '101', 'many']) {
      const res = await holdersOf(company.id, `?limit=${limit}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    }
    expect((await holdersOf('no-such-company')).statusCode).toBe(404);
  });
});

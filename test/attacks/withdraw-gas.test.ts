// POST /api/agents/{id}/withdraw was outside the gas budget: 23 withdrawals took a company from 3.05 M to
// 4.22 M gas against its 4 M budget, each with an ETH top-up of the agent wallet. Now a withdrawal is refused with 429
// GAS_BUDGET_EXCEEDED when it would go past the company's daily budget, with nothing signed.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { chainTxs } from '../../src/db/schema/chain.ts';
import { gasToday } from '../../src/domain/costs/gas-budget.ts';
import { startTestApp, useTestApp } from '../helpers/app.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';

// COMPANY_CUSTODY=none: this file is about the path where a company's agents act from their own wallets.
const t = useTestApp({ env: { COMPANY_CUSTODY: 'none' } });
const trading = tokenTrading(t);
const USDC = 1_000_000n;

describe('a withdrawal past the gas budget', () => {
  it('answers 429 GAS_BUDGET_EXCEEDED and moves nothing; inside the budget it withdraws', async () => {
    const co = await staffedCompany(t, 1, { name: 'Withdraw Co' });
    const put = await signed(t.app, 1, 'PUT', `/api/companies/${co.id}/treasury`, {
      treasuryAddress: devAccount(1).address,
    });
    expect(put.statusCode).toBe(200);
    await trading.fund(1, co.cfo.address, 10n * USDC);
    const used = (await gasToday(t.container, t.database.db, co.id)).gasUsed;
    // Room for anything but a withdrawal (600,000 estimated): just short of it.
    const poor = await startTestApp({
      database: t.database,
      chain: t.chain,
      env: { COMPANY_CUSTODY: 'none', COMPANY_GAS_BUDGET: String(used + 599_999n) },
    });
    try {
      const sentBefore = (await t.database.db.select().from(chainTxs).where(eq(chainTxs.fromAddress, co.cfo.address)))
        .length;
      const res = await signed(poor.app, 1, 'POST', `/api/agents/${co.cfo.id}/withdraw`);
      expect(res.statusCode).toBe(429);
      expect(res.json().error).toMatchObject({
        code: 'GAS_BUDGET_EXCEEDED',
        message: expect.stringMatching(/a withdrawal needs about 600000 more/),
      });
      expect(await trading.usdcOf(co.cfo.address)).toBe(10n * USDC);
      const sentAfter = (await t.database.db.select().from(chainTxs).where(eq(chainTxs.fromAddress, co.cfo.address)))
        .length;
      expect(sentAfter).toBe(sentBefore);
    } finally {
      await poor.close();
    }
    const rich = await startTestApp({
      database: t.database,
      chain: t.chain,
      env: { COMPANY_CUSTODY: 'none', COMPANY_GAS_BUDGET: String(used + 600_000n) },
    });
    try {
      expect((await signed(rich.app, 1, 'POST', `/api/agents/${co.cfo.id}/withdraw`)).statusCode).toBe(200);
      expect(await trading.usdcOf(co.cfo.address)).toBe(0n);
    } finally {
      await rich.close();
    }
  });
});

// Symbol squatting through the directive's clock. A token launched after the directive naming it was
// refused by block order, but any later signed edit of either directive field (the engine's masterDirective) moved
// the directive's clock past the squatter's launch, so the squatter's token counted as named by the owner and was
// bought without the buy rules (measured: 2 x 40 USDC into a 300 USDC curve). Now a directive names a token by the
// address its symbol resolved to when the creator signed that text; editing another field never re-dates it.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { companies } from '../../src/db/schema/companies.ts';
import { useTestApp } from '../helpers/app.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';

// COMPANY_CUSTODY=none: this file is about the path where a company's agents act from their own wallets.
const t = useTestApp({ env: { COMPANY_CUSTODY: 'none', MANUAL_ROUND_COOLDOWN_S: '0' } });
const trading = tokenTrading(t);
const USDC = 1_000_000n;

type Co = Awaited<ReturnType<typeof staffedCompany>>;
let buyer: Co;

async function round(co: Co) {
  const res = await signed(t.app, co.account, 'POST', `/api/companies/${co.id}/decisions/run`);
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; actionsExecuted: string[] };
}
const addressOf = async (id: string) =>
  (await t.database.db.select().from(companies).where(eq(companies.id, id)))[0]!.tokenAddress!;

beforeAll(async () => {
  buyer = await staffedCompany(t, 1, { name: 'Redate Buyer Co' });
  await trading.fund(1, buyer.cfo.address, 200n * USDC);
});

describe('a directive re-dated by an edit of another field', () => {
  it('buys nothing of a squatter token launched between the directive and the edit', async () => {
    // The owner names SQAT before it exists: the response says the symbol resolved to no token.
    const set = await signed(t.app, 1, 'PATCH', `/api/companies/${buyer.id}`, { ceoPrompt: 'Buy 40 USDC of SQAT.' });
    expect(set.statusCode).toBe(200);
    expect(set.json().data.ceoPromptTokens).toEqual({});
    // A squatter launches SQAT, a fresh token that fails the buy rules (too young).
    const squatter = await staffedCompany(t, 6, { name: 'Squat Co' });
    await trading.launch(squatter.id, 'SQAT', 6);
    // The owner then edits the engine's master directive alone, signed: the attack's re-dating step.
    const engine = await signed(t.app, 1, 'PATCH', `/api/companies/${buyer.id}/engine`, {
      masterDirective: 'Be prudent.',
    });
    expect(engine.statusCode).toBe(200);
    expect(engine.json().data.masterDirectiveTokens).toEqual({});
    const before = await trading.usdcOf(buyer.cfo.address);
    for (let i = 0; i < 2; i++) {
      const r = await round(buyer);
      expect(r.actionsExecuted).toContainEqual(
        expect.stringMatching(
          /^CFO buy_token: refused: SQAT \(0x[0-9a-fA-F]{40}\) is not the token the directive names: when its text was set, SQAT meant no launched token/,
        ),
      );
    }
    expect(await trading.usdcOf(buyer.cfo.address)).toBe(before);
  });

  it('a directive signed after the launch names the token by its address, and later edits keep it', async () => {
    const set = await signed(t.app, 1, 'PATCH', `/api/companies/${buyer.id}`, { ceoPrompt: 'Buy 10 USDC of SQAT.' });
    const squat = await t.database.db.select().from(companies).where(eq(companies.tokenSymbol, 'SQAT'));
    expect(set.json().data.ceoPromptTokens).toEqual({ SQAT: await addressOf(squat[0]!.id) });
    // An edit of another field leaves the ceoPrompt's tokens as they were signed.
    await signed(t.app, 1, 'PATCH', `/api/companies/${buyer.id}/engine`, { masterDirective: 'Mind SQAT.' });
    const [row] = await t.database.db.select().from(companies).where(eq(companies.id, buyer.id));
    expect(row!.ceoPromptTokens).toEqual({ SQAT: squat[0]!.tokenAddress });
    expect((await round(buyer)).actionsExecuted).toContainEqual(
      expect.stringMatching(/^CFO buy_token: bought about [\d.]+ SQAT for 10 USDC/),
    );
  });
});

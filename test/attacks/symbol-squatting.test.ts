// Symbol squatting. Launches did not check symbols, and agent actions refuse an ambiguous symbol: a
// card that launched a second "SPRNT" stopped every agent's buys, sells and stop-losses in SPRNT. A symbol a public
// directive names before its token launches could also be launched first by someone else. Now symbols are unique
// among launched tokens ignoring case (409 CONFLICT), a round records the address and company of every token it
// trades, and a token launched after the directive that names it was set is refused.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentActions } from '../../src/db/schema/agents.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { useTestApp } from '../helpers/app.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';

// COMPANY_CUSTODY=none: this file is about the path where a company's agents act from their own wallets.
const t = useTestApp({ env: { COMPANY_CUSTODY: 'none', MANUAL_ROUND_COOLDOWN_S: '0' } });
const trading = tokenTrading(t);
const USDC = 1_000_000n;

type Co = Awaited<ReturnType<typeof staffedCompany>>;
let owner: Co;
let buyer: Co;

const launch = (co: Co, symbol: string) =>
  signed(t.app, co.account, 'POST', `/api/companies/${co.id}/token`, { name: `${symbol} token`, symbol });
async function round(co: Co) {
  const res = await signed(t.app, co.account, 'POST', `/api/companies/${co.id}/decisions/run`);
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; actionsExecuted: string[] };
}

beforeAll(async () => {
  owner = await staffedCompany(t, 2, { name: 'Sprint Co' });
  buyer = await staffedCompany(t, 1, { name: 'Sprint Fan Co' });
  await trading.fund(1, buyer.cfo.address, 100n * USDC);
});

describe('a second token with a taken symbol', () => {
  it('is refused with 409 CONFLICT, and the first keeps trading', async () => {
    expect((await launch(owner, 'SPRNT')).statusCode).toBe(201);
    const copycat = await staffedCompany(t, 3, { name: 'Copycat Co' });
    const res = await launch(copycat, 'SPRNT');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'CONFLICT',
      message: "The symbol SPRNT is taken: symbols are unique among the platform's tokens, ignoring case",
    });
    // Another case is no way round it (and a launch takes upper case only).
    expect((await launch(copycat, 'sprnt')).statusCode).toBe(400);
    const [row] = await t.database.db.select().from(companies).where(eq(companies.id, copycat.id));
    expect(row).toMatchObject({ tokenStatus: 'PRE_PUBLIC', tokenSymbol: null, tokenLaunchRequestedAt: null });
    // Just beside it, a symbol of its own is fine.
    expect((await launch(copycat, 'SPRNT2')).statusCode).toBe(201);

    // The owner's signed directive names SPRNT: the buy goes to the one SPRNT, and the round records which.
    expect(
      (await signed(t.app, 1, 'PATCH', `/api/companies/${buyer.id}`, { ceoPrompt: 'Buy 5 USDC of SPRNT.' })).statusCode,
    ).toBe(200);
    const r = await round(buyer);
    expect(r.actionsExecuted).toContainEqual(
      expect.stringMatching(/^CFO buy_token: bought about [\d.]+ SPRNT for 5 USDC/),
    );
    const [action] = await t.database.db.select().from(agentActions).where(eq(agentActions.roundId, r.id));
    const [sprnt] = await t.database.db.select().from(companies).where(eq(companies.id, owner.id));
    expect(action).toMatchObject({ tokenAddress: sprnt!.tokenAddress, tokenCompanyId: owner.id });
  });

  it('from before symbols were unique: the later one is named by slug or address only, the first keeps the symbol', async () => {
    // As migration 0023 left an older duplicate: marked, so the symbol still names the first launch only.
    const older = await staffedCompany(t, 4, { name: 'Older Dup Co' });
    await trading.launch(older.id, 'OLDUP', 4);
    const later = await staffedCompany(t, 5, { name: 'Later Dup Co' });
    await trading.launch(later.id, 'OLDUP2', 5);
    await t.database.db
      .update(companies)
      .set({ tokenSymbol: 'oldup', tokenSymbolDuplicate: true })
      .where(eq(companies.id, later.id));
    await signed(t.app, 1, 'PATCH', `/api/companies/${buyer.id}`, { ceoPrompt: 'Buy 1 USDC of OLDUP.' });
    const r = await round(buyer);
    expect(r.actionsExecuted).toContainEqual(
      expect.stringMatching(/^CFO buy_token: bought about [\d.]+ OLDUP for 1 USDC/),
    );
    const [action] = await t.database.db.select().from(agentActions).where(eq(agentActions.roundId, r.id));
    expect(action!.tokenCompanyId).toBe(older.id);
  });
});

describe('a directive front-run by a later launch', () => {
  it('does not buy a token launched after the directive that names it was set', async () => {
    // The buyer's owner announces the buy before the token exists; someone else launches the symbol first.
    await signed(t.app, 1, 'PATCH', `/api/companies/${buyer.id}`, { ceoPrompt: 'Buy 20 USDC of NEXT.' });
    const squatter = await staffedCompany(t, 6, { name: 'Squatter Co' });
    expect((await launch(squatter, 'NEXT')).statusCode).toBe(201);
    // Ordered by block, not by time: the launch is stamped the very second the directive was set (as a local chain
    // stamps a second's blocks), yet mined in a later block, and so refused.
    const [launched] = await t.database.db.select().from(companies).where(eq(companies.id, squatter.id));
    await t.database.db
      .update(companies)
      .set({ directiveSetAt: launched!.tokenPublicAt })
      .where(eq(companies.id, buyer.id));
    const [named] = await t.database.db.select().from(companies).where(eq(companies.id, buyer.id));
    expect(launched!.tokenLaunchBlock).toBeGreaterThan(named!.directiveSetBlock!);
    const before = await trading.usdcOf(buyer.cfo.address);
    const r = await round(buyer);
    expect(r.actionsExecuted).toContainEqual(
      expect.stringMatching(
        /^CFO buy_token: refused: NEXT \(0x[0-9a-fA-F]{40}\) is not the token the directive names: when its text was set, NEXT meant no launched token; the creator signs the text again to name this one$/,
      ),
    );
    expect(await trading.usdcOf(buyer.cfo.address)).toBe(before);
    // Set again once the token exists, the directive means this token: the owner's own call (its block is the
    // launch's or later, whatever the second).
    await signed(t.app, 1, 'PATCH', `/api/companies/${buyer.id}`, { ceoPrompt: 'Buy 20 USDC of NEXT.' });
    const [reset] = await t.database.db.select().from(companies).where(eq(companies.id, buyer.id));
    expect(reset!.directiveSetBlock).toBeGreaterThanOrEqual(launched!.tokenLaunchBlock!);
    expect((await round(buyer)).actionsExecuted).toContainEqual(
      expect.stringMatching(/^CFO buy_token: bought about [\d.]+ NEXT for 20 USDC/),
    );
  });
});

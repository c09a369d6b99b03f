/// <reference lib="dom" />
// What pump.fun and virtuals users look for, in Chromium against the whole service on loopback, its anvil and a real
// database, at 390 and 1440 px with axe: a token's top holders with their share (the curve named as such, an agent
// named by its company and role), a company's logo and each agent's avatar and bio drawn from who they are where
// none is set, and a decision page that shows the C-suite's proposals and the CEO's reasoning.
import { eq } from 'drizzle-orm';
import { parseUnits } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { agents } from '../../src/db/schema/agents.ts';
import { useTestApp } from '../helpers/app.ts';
import { atBothWidths, browserUnavailable } from '../helpers/browser.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';
import { useWebApp } from '../helpers/web.ts';

// COMPANY_CUSTODY=none: the CFO trades from its own wallet, so the holder row is the agent's.
const t = useTestApp({ env: { COMPANY_CUSTODY: 'none', MANUAL_ROUND_COOLDOWN_S: '0' } });
const web = useWebApp(t);
const trading = tokenTrading(t);

let trader: Awaited<ReturnType<typeof staffedCompany>>;
let traderSlug: string;
let targetSlug: string;
let roundId: string;

describe.skipIf(browserUnavailable)('holders, faces and deliberation', () => {
  beforeAll(async () => {
    const target = await staffedCompany(t, 2, { name: 'Holder Target Co' });
    targetSlug = (await t.app.inject(`/api/companies/${target.id}`)).json().data.slug;
    const token = await trading.launch(target.id, 'HLD', 2);
    await trading.buy(3, token, parseUnits('200', 6));
    trader = await staffedCompany(t, 1, { name: 'Spot Sprinters', category: 'SPOT_TRADING' });
    traderSlug = (await t.app.inject(`/api/companies/${trader.id}`)).json().data.slug;
    await trading.fund(1, trader.cfo.address, parseUnits('500', 6));
    const directive = await signed(t.app, 1, 'PATCH', `/api/companies/${trader.id}`, {
      ceoPrompt: 'Buy 50 USDC of HLD every round.',
    });
    expect(directive.statusCode).toBe(200);
    const round = await signed(t.app, 1, 'POST', `/api/companies/${trader.id}/decisions/run`);
    expect(round.json().data.status).toBe('COMPLETE');
    roundId = round.json().data.id;
    await trading.index();
  }, 240_000);

  it('the token page lists the top holders with their share, the curve and the agent by name', async () => {
    const { page, errors, close } = await web.open(`/companies/${targetSlug}/token`);
    const holders = page.getByRole('region', { name: 'Top holders' });
    await holders.locator('tbody tr').nth(2).waitFor();
    const rows = holders.locator('tbody tr');
    expect(await rows.count()).toBe(3);
    const first = rows.first();
    expect(await first.getAttribute('data-kind')).toBe('curve');
    expect(await first.locator('td').first().textContent()).toBe('Bonding curve (unsold $HLD)');
    // The dev account bought 200 USDC, the CFO 50: the larger holder first, the CFO named (once the names arrive: the
    // address shows until then).
    const cfoRow = page.locator(`tr[data-holder="${trader.cfo.address}"]`);
    await expect.poll(() => cfoRow.locator('td').first().textContent()).toBe("Spot Sprinters' CFO");
    const shares = await rows.evaluateAll((trs) =>
      trs.map((tr) => Number(tr.querySelector('[data-share]')!.getAttribute('data-share'))),
    );
    expect(shares).toEqual([...shares].sort((a, b) => b - a));
    expect(shares.reduce((s, x) => s + x, 0)).toBeGreaterThan(99.9);
    expect(await cfoRow.locator('[data-share]').textContent()).toMatch(/^\d+\.\d{2}%$/);
    expect(await page.getByTestId('holder-count').textContent()).toMatch(/^3 addresses hold \$HLD/);
    await atBothWidths(page, 'profiles-holders');
    expect(errors).toEqual([]);
    await close();
  }, 90_000);

  it('a company shows a logo drawn from its name, each agent an avatar and a bio', async () => {
    const { page, errors, close } = await web.open(`/companies/${traderSlug}`);
    const logo = page.getByRole('img', { name: "Spot Sprinters's logo" });
    await logo.waitFor();
    expect(await logo.getAttribute('data-logo')).toBe('generated');
    expect(await logo.textContent()).toBe('SS');
    const avatars = page.locator('.agents [data-avatar]');
    await avatars.first().waitFor();
    // One avatar an agent, each its own face (no two agents drawn alike).
    const faces = await avatars.evaluateAll((svgs) => svgs.map((s) => s.innerHTML));
    expect(faces.length).toBeGreaterThanOrEqual(7);
    expect(new Set(faces).size).toBe(faces.length);
    await atBothWidths(page, 'profiles-company');

    await page.goto(`${web.base}/agents/${trader.cfo.id}`);
    const avatar = page.locator(`svg[data-avatar="${trader.cfo.id}"]`);
    await avatar.waitFor();
    // The same face as on the company page: drawn from the agent's id, not at random.
    const onCompany = faces[0];
    expect(await avatar.innerHTML()).toBe(onCompany);
    // The bio the C-suite was hired with.
    await expect
      .poll(() => page.getByTestId('agent-bio').textContent())
      .toBe(
        'Chief Financial Officer of Spot Sprinters. Guards the treasury: budgets, runway, yield on idle funds and risk-adjusted returns.',
      );
    // Without one stored: drawn from its role, what the role does and the company's directive.
    await t.database.db.update(agents).set({ description: null }).where(eq(agents.id, trader.cfo.id));
    await page.reload();
    await expect
      .poll(() => page.getByTestId('agent-bio').textContent())
      .toBe(
        "The CFO of Spot Sprinters. Guards the treasury: budgets, runway, yield on idle funds and risk-adjusted returns. Its company's directive: “Buy 50 USDC of HLD every round.”",
      );
    await atBothWidths(page, 'profiles-agent');
    expect(errors).toEqual([]);
    await close();
  }, 90_000);

  it("the decision page shows the C-suite's proposals and the CEO's reasoning", async () => {
    const { page, errors, close } = await web.open(`/decisions/${roundId}`);
    const panel = page.getByTestId('deliberation');
    await panel.getByRole('heading', { name: 'How the decision was reached' }).waitFor();
    const api = (await t.app.inject(`/api/decisions/${roundId}`)).json().data.deliberation;
    expect(api.recorded).toBe(true);
    await expect.poll(() => page.getByTestId('ceo-reasoning').textContent()).toBe(api.ceoReasoning);
    const proposals = page.getByTestId('proposals').locator('li');
    expect(await proposals.count()).toBe(api.proposals.length);
    expect(await proposals.first().textContent()).toContain(`${api.proposals[0].role} proposed: `);
    await atBothWidths(page, 'profiles-decision');
    expect(errors).toEqual([]);
    await close();
  }, 90_000);
});

/// <reference lib="dom" />
// The token board (home) and the Fortune List in Chromium against the whole service on loopback, its anvil and a
// real database: tokens launched and traded on the chain (one never traded, one past 70% of graduation, one
// graduated), the board sorted by each column (aria-sort, the order in the address) and searched (debounced, the
// history entry replaced), its tabs, a German browser's numbers, and the Fortune List's day, legend, league ranks,
// categories in words and the score column on a phone; each page checked by axe at 390 and 1440 px, with no console
// error and nothing wider than the screen.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { useTestApp } from '../helpers/app.ts';
import { accessible, atBothWidths, browserUnavailable, launchChromium } from '../helpers/browser.ts';
import { insertCompany } from '../helpers/events.ts';
import { finalizeScored } from '../helpers/scores.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const trading = tokenTrading(t);
const USDC = 1_000_000n;
const DOCS = path.resolve(import.meta.dirname, '../../docs/images');

interface Token {
  tokenSymbol: string;
  tokenStatus: string;
  price: string | null;
  marketCap: string | null;
  volume24h: string;
  priceChange24h: number | null;
  graduationProgress: number;
  holderCount: number;
  ageSeconds: number;
}

let base: string;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let context: BrowserContext;
let page: Page;
let errors: string[];
let snapshotDay: string;
const symbols: Record<string, Address> = {};

async function tokens(): Promise<Token[]> {
  const res = await fetch(`${base}/api/tokens?limit=100`);
  return ((await res.json()) as { data: Token[] }).data;
}

/** The bonding tokens the New tab lists, the newest first: launches in the same second keep the API's order. */
async function newestFirst(): Promise<string[]> {
  const bonding = (await tokens()).filter((x) => x.tokenStatus === 'BONDING');
  const order = bonding.sort((a, b) => a.ageSeconds - b.ageSeconds).map((x) => x.tokenSymbol);
  // Launches in one block share their age; a sort is stable, so they keep the API's order (newest first).
  expect([...order].sort()).toEqual(['ALPHA', 'BETA', 'EPSILON', 'GAMMA']);
  return order;
}

/** The symbols of the board's rows, top to bottom. */
const rowSymbols = (p: Page) =>
  p.locator('table.board tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-symbol')));

const historyLength = (p: Page) => p.evaluate(() => history.length);

function consoleErrors(p: Page) {
  const found: string[] = [];
  p.on('console', (m) => {
    if (m.type() === 'error') found.push(`${p.url()}: ${m.text()}`);
  });
  p.on('pageerror', (e) => found.push(`${p.url()}: ${e.message}`));
  return found;
}

/** With UPDATE_DOCS_SCREENSHOTS=1, the page at `width` as docs/web.md shows it. */
async function docsShot(p: Page, name: string, width: number) {
  if (!process.env.UPDATE_DOCS_SCREENSHOTS) return;
  mkdirSync(DOCS, { recursive: true });
  await p.setViewportSize({ width, height: 900 });
  await p.waitForTimeout(150);
  await p.screenshot({ path: path.join(DOCS, `${name}.png`), fullPage: true });
  await p.setViewportSize({ width: 1440, height: 900 });
}

/** A decimal string as the board should write it for `locale` (en-US or de-DE), cut at `places`: written here
 * independently of web/src/format.ts. */
function expected(value: string, places: number, locale: 'en-US' | 'de-DE') {
  const [whole, fraction = ''] = value.split('.');
  const [group, decimal] = locale === 'de-DE' ? ['.', ','] : [',', '.'];
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  const cut = fraction.slice(0, places).replace(/0+$/, '');
  return cut ? `${grouped}${decimal}${cut}` : grouped;
}

describe.skipIf(browserUnavailable)('the token board and the Fortune List in Chromium', () => {
  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    snapshotDay = await trading.startTradingDay();
    // Six companies, launched oldest first: ALPHA and BETA traded a little, GAMMA bought past 70% of its
    // graduation, DELTA graduated, EPSILON never traded. ZETA (human-directed, real-world assets) has no token.
    for (const [slug, symbol] of [
      ['alpha-co', 'ALPHA'],
      ['beta-co', 'BETA'],
      ['gamma-co', 'GAMMA'],
      ['delta-co', 'DELTA'],
      ['epsilon-co', 'EPSILON'],
    ] as const) {
      const company = await insertCompany(t.database.db, slug);
      await t.database.db
        .update(companies)
        .set({ creatorAddress: devAccount(1).address })
        .where(eq(companies.id, company.id));
      symbols[symbol] = await trading.launch(company.id, symbol, 1);
    }
    const zeta = await insertCompany(t.database.db, 'zeta-co');
    await t.database.db.update(companies).set({ league: 'HUMAN', category: 'RWA' }).where(eq(companies.id, zeta.id));

    await trading.buy(3, symbols.ALPHA!, 100n * USDC);
    // BETA's first buyer sells out, and a small buy at the bottom of the curve follows: its latest price is below
    // its first trade's, a negative 24-hour change.
    await trading.buy(3, symbols.BETA!, 1_000n * USDC);
    await trading.sell(3, symbols.BETA!, await trading.balanceOf(3, symbols.BETA!));
    await trading.buy(4, symbols.BETA!, 5n * USDC);
    await trading.buy(5, symbols.DELTA!, 30_000n * USDC);
    // GAMMA: bought until its bonding progress passes 70% (and stays on the curve).
    await trading.index();
    for (let i = 0; i < 40; i++) {
      const gamma = (await tokens()).find((x) => x.tokenSymbol === 'GAMMA')!;
      if (gamma.graduationProgress >= 72) break;
      await trading.buy(6, symbols.GAMMA!, 250n * USDC);
      await trading.index();
    }
    await trading.index();
    const status = await tokens();
    expect(status.find((x) => x.tokenSymbol === 'DELTA')!.tokenStatus).toBe('GRADUATED');
    const gamma = status.find((x) => x.tokenSymbol === 'GAMMA')!;
    expect(gamma.tokenStatus).toBe('BONDING');
    expect(gamma.graduationProgress).toBeGreaterThanOrEqual(70);
    expect(status.find((x) => x.tokenSymbol === 'BETA')!.priceChange24h).toBeLessThan(0);
    // Not traded yet: the curve's opening price, a quarter of the way to graduation.
    expect(status.find((x) => x.tokenSymbol === 'EPSILON')!.graduationProgress).toBe(24.99);

    // The day's blocks finalized: a snapshot reads no block above the finalized one.
    await finalizeScored(t);
    expect((await takeScoreSnapshot(t.container, t.database.db, snapshotDay)).status).toBe('taken');

    chromium = await launchChromium();
    context = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    errors = consoleErrors(page);
  }, 300_000);

  afterAll(async () => {
    await chromium?.close();
  });

  it('opens on the board: what the platform is, the New tab newest first, every column', async () => {
    await page.goto(`${base}/`);
    await page.getByRole('heading', { name: 'Token board', level: 1 }).waitFor();
    expect(await page.title()).toBe('Token board · ai-economy');
    await page.getByText(/^ai-economy is a market of companies run by AI agents/).waitFor();
    await page.locator('table.board tbody tr').first().waitFor();
    // New: every token still on its curve, the newest first; DELTA graduated.
    expect(await rowSymbols(page)).toEqual(await newestFirst());
    expect(await page.getByRole('link', { name: 'New' }).getAttribute('aria-current')).toBe('page');
    const headers = await page.locator('table.board thead th').allTextContents();
    expect(headers.map((h) => h.replace(/[▲▼]/g, '').trim())).toEqual([
      'Token',
      'Price',
      'Market cap',
      '24 h change',
      '24 h volume',
      'Bonding progress',
      'Holders',
      'Age',
    ]);
    expect(await page.locator('th[aria-sort]').count()).toBe(1);
    expect(await page.locator('th[aria-sort]').textContent()).toMatch(/^Age/);
    // Values as the API gives them, in English: BETA's change signed with a minus sign, not colour alone.
    const api = await tokens();
    const beta = api.find((x) => x.tokenSymbol === 'BETA')!;
    const row = page.locator('tr[data-symbol="BETA"]');
    expect(await row.locator('[data-col="price"]').textContent()).toBe(expected(beta.price!, 6, 'en-US'));
    expect(await row.locator('[data-col="marketCap"]').textContent()).toBe(expected(beta.marketCap!, 0, 'en-US'));
    expect(await row.locator('[data-col="change"]').textContent()).toBe(
      `\u2212${Math.abs(beta.priceChange24h!).toFixed(2)}%`,
    );
    expect(await row.locator('[data-col="holders"]').textContent()).toBe(String(beta.holderCount));
    expect(await row.getByRole('progressbar', { name: 'BETA bonding progress' }).getAttribute('aria-valuenow')).toBe(
      String(Math.round(beta.graduationProgress)),
    );
    // A token never traded: its curve's opening price, and no 24 h change.
    expect(await page.locator('tr[data-symbol="EPSILON"] [data-col="price"]').textContent()).toMatch(/^0\.00\d+$/);
    expect(await page.locator('tr[data-symbol="EPSILON"] [data-col="change"]').textContent()).toBe('—');
    await atBothWidths(page, 'board');
    await docsShot(page, 'board', 1440);
    await docsShot(page, 'board-390', 390);
  }, 90_000);

  it('sorts by each column from its header, in the address, without adding history entries', async () => {
    await page.goto(`${base}/`);
    await page.locator('table.board tbody tr').first().waitFor();
    const before = await historyLength(page);
    const api = (await tokens()).filter((x) => x.tokenStatus === 'BONDING');
    const byNumber = (key: (x: Token) => number | null, dir: 1 | -1) =>
      [...api]
        .sort((a, b) => {
          const x = key(a);
          const y = key(b);
          if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
          return dir * (x - y);
        })
        .map((x) => x.tokenSymbol);
    const columns = [
      ['Price', 'price', (x: Token) => (x.price === null ? null : Number(x.price))],
      ['Market cap', 'marketCap', (x: Token) => (x.marketCap === null ? null : Number(x.marketCap))],
      ['24 h change', 'change', (x: Token) => x.priceChange24h],
      ['24 h volume', 'volume', (x: Token) => Number(x.volume24h)],
      ['Bonding progress', 'progress', (x: Token) => x.graduationProgress],
      ['Holders', 'holders', (x: Token) => x.holderCount],
    ] as const;
    for (const [label, param, key] of columns) {
      const header = page.getByRole('columnheader', { name: new RegExp(`^${label}`) });
      await header.getByRole('button').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe(param);
      expect(new URL(page.url()).searchParams.get('dir')).toBe('desc');
      expect(await header.getAttribute('aria-sort')).toBe('descending');
      // Equal values keep the newest first (stable); the API lists newest first.
      await expect.poll(() => rowSymbols(page)).toEqual(byNumber(key, -1));
      await header.getByRole('button').click();
      await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
      expect(new URL(page.url()).searchParams.get('dir')).toBe('asc');
      await expect.poll(() => rowSymbols(page)).toEqual(byNumber(key, 1));
      expect(await page.locator('th[aria-sort]').count()).toBe(1);
    }
    // Age: the first click shows the newest first.
    await page.getByRole('columnheader', { name: /^Age/ }).getByRole('button').click();
    await expect.poll(() => rowSymbols(page)).toEqual(await newestFirst());
    expect(await historyLength(page)).toBe(before);
    // The order is in the address: a reload (or a shared link) shows the same board.
    await page.goto(`${base}/?sort=holders&dir=asc`);
    await expect.poll(() => rowSymbols(page)).toEqual(byNumber((x) => x.holderCount, 1));
    // Values outside the allowed ones are dropped.
    await page.goto(`${base}/?sort=nope&dir=up&tab=soon`);
    await expect.poll(() => rowSymbols(page)).toEqual(await newestFirst());
  }, 90_000);

  it('searches by name or symbol once typing pauses, replacing the history entry; says when nothing matches', async () => {
    await page.goto(`${base}/`);
    await page.locator('table.board tbody tr').first().waitFor();
    const before = await historyLength(page);
    const box = page.getByLabel('Search by name or symbol');
    await box.pressSequentially('gam', { delay: 40 });
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('gam');
    await expect.poll(() => rowSymbols(page)).toEqual(['GAMMA']);
    // One entry replaced, not one pushed per keystroke; the URL was never written mid-word.
    expect(await historyLength(page)).toBe(before);
    await box.fill('$beta');
    await expect.poll(() => rowSymbols(page)).toEqual(['BETA']);
    await box.fill('ALPHA-c');
    await expect.poll(() => rowSymbols(page)).toEqual(['ALPHA']);
    await box.fill('zzz');
    await page.getByText('No token here matches “zzz”.').waitFor();
    await box.fill('');
    await expect.poll(() => new URL(page.url()).searchParams.has('q')).toBe(false);
    await expect.poll(() => rowSymbols(page)).toEqual(await newestFirst());
    expect(await historyLength(page)).toBe(before);
    // The search comes back from the address.
    await page.goto(`${base}/?q=EPS`);
    expect(await box.inputValue()).toBe('EPS');
    await expect.poll(() => rowSymbols(page)).toEqual(['EPSILON']);
  }, 90_000);

  it('shows the tabs: About to graduate from 70%, Graduated; each accessible and fitting both widths', async () => {
    await page.goto(`${base}/`);
    await page.locator('table.board tbody tr').first().waitFor();
    const api = await tokens();
    await page.getByRole('link', { name: 'About to graduate' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('graduating');
    const near = api
      .filter((x) => x.tokenStatus === 'BONDING' && x.graduationProgress >= 70)
      .sort((a, b) => b.graduationProgress - a.graduationProgress)
      .map((x) => x.tokenSymbol);
    expect(near).toContain('GAMMA');
    await expect.poll(() => rowSymbols(page)).toEqual(near);
    expect(await page.getByRole('link', { name: 'About to graduate' }).getAttribute('aria-current')).toBe('page');
    await atBothWidths(page, 'board-graduating');
    await page.getByRole('link', { name: 'Graduated' }).click();
    await expect.poll(() => rowSymbols(page)).toEqual(['DELTA']);
    const delta = api.find((x) => x.tokenSymbol === 'DELTA')!;
    const bar = page.getByRole('progressbar', { name: 'DELTA bonding progress' });
    expect(await bar.getAttribute('aria-valuenow')).toBe('100');
    expect(await page.locator('tr[data-symbol="DELTA"] [data-col="marketCap"]').textContent()).toBe(
      expected(delta.marketCap!, 0, 'en-US'),
    );
    await atBothWidths(page, 'board-graduated');
    // Back: the tabs are links, one entry each.
    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('graduating');
    expect(errors).toEqual([]);
  }, 90_000);

  it("writes numbers in a German browser's way: 1.234,5", async () => {
    const german = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'de-DE' });
    try {
      const p = await german.newPage();
      const found = consoleErrors(p);
      await p.goto(`${base}/?tab=graduated`);
      await p.locator('tr[data-symbol="DELTA"]').waitFor();
      const delta = (await tokens()).find((x) => x.tokenSymbol === 'DELTA')!;
      const cap = await p.locator('tr[data-symbol="DELTA"] [data-col="marketCap"]').textContent();
      expect(cap).toMatch(/^\d{1,3}(\.\d{3})+$/);
      expect(cap).toBe(expected(delta.marketCap!, 0, 'de-DE'));
      const price = await p.locator('tr[data-symbol="DELTA"] [data-col="price"]').textContent();
      expect(price).toMatch(/^0,\d+$/);
      expect(price).toBe(expected(delta.price!, 6, 'de-DE'));
      const volume = await p.locator('tr[data-symbol="DELTA"] [data-col="volume"]').textContent();
      expect(volume).toBe(expected(delta.volume24h, 2, 'de-DE'));
      expect(volume).toMatch(/^\d{1,3}(\.\d{3})+(,\d{1,2})?$/);
      // The Fortune List's scores too.
      await p.goto(`${base}/fortune`);
      const score = await p.locator('td.score').first().textContent();
      expect(score).toMatch(/^\d+,\d\d$/);
      expect(found).toEqual([]);
    } finally {
      await german.close();
    }
  }, 90_000);

  it('the Fortune List: its UTC day, the legend, ranks within a league, categories in words, a phone-sized score column', async () => {
    await page.goto(`${base}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Fortune List' }).click();
    await page.getByRole('heading', { name: 'Fortune List', level: 1 }).waitFor();
    const list = (await (await fetch(`${base}/api/fortune-list?limit=100`)).json()) as {
      data: {
        covers: { from: string };
        companies: { rank: number; company: { slug: string; league: string; category: string } }[];
      };
    };
    const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeZone: 'UTC' }).format(
      Date.parse(list.data.covers.from),
    );
    expect(await page.getByTestId('snapshot-day').textContent()).toBe(
      `Scores of ${day} (UTC), taken at midnight UTC after it.`,
    );
    await page.getByText('How the score is made').click();
    await page.getByText('Treasury (30%)').waitFor();
    await page.getByText(/Each part is scored from 0 to 100/).waitFor();
    // Categories as words, in the rows and the filter.
    await page.locator('tr[data-company="zeta-co"]').getByText('Real-world assets · Human').waitFor();
    await page.locator('tr[data-company="alpha-co"]').getByText('AI tokens · Machine').waitFor();
    expect(await page.getByLabel('Category').locator('option').allTextContents()).toContain('DeFi yield');
    const zetaPlatform = list.data.companies.find((c) => c.company.slug === 'zeta-co')!.rank;
    expect(zetaPlatform).toBeGreaterThan(1);

    // The league filter ranks within the league (the API's `league`), the platform rank beside it.
    const before = await historyLength(page);
    await page.getByLabel('League').selectOption('HUMAN');
    await expect.poll(() => new URL(page.url()).searchParams.get('league')).toBe('HUMAN');
    const zeta = page.locator('tr[data-company="zeta-co"]');
    await expect.poll(() => zeta.getByTestId('rank').textContent()).toBe('1');
    await zeta.getByText(`(${zetaPlatform} overall)`).waitFor();
    expect(await page.locator('table.fortune tbody tr').count()).toBe(1);
    expect(await historyLength(page)).toBe(before);

    // The category select: the arrow keys change it one option at a time, and add no history entry.
    await page.getByLabel('League').selectOption('');
    const category = page.getByLabel('Category');
    await category.focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
    await expect.poll(() => new URL(page.url()).searchParams.get('category')).not.toBeNull();
    expect(await category.inputValue()).not.toBe('');
    expect(await historyLength(page)).toBe(before);
    await category.selectOption('');
    await page.locator('table.fortune tbody tr').first().waitFor();

    await atBothWidths(page, 'fortune');
    // At 390 px the score column is on screen without scrolling the table.
    await page.setViewportSize({ width: 390, height: 900 });
    await page.waitForTimeout(150);
    const score = await page.getByRole('columnheader', { name: 'Score' }).boundingBox();
    expect(score!.x + score!.width).toBeLessThanOrEqual(390);
    // The table scrolls inside a named region the keyboard reaches.
    const region = page.getByRole('region', { name: 'The Fortune List' });
    expect(await region.getAttribute('tabindex')).toBe('0');
    await accessible(page, 'fortune-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(errors).toEqual([]);
  }, 90_000);
});

/// <reference lib="dom" />
// The web app on a phone (390 px), in Chromium against the whole service on loopback, its anvil and a real database:
// the token board as cards (every figure of a token on screen with its label, nothing to scroll sideways) with a
// "Sort by" choice; the navigation reaching every page, Staking, Rewards and Activity included, without scrolling; the
// trade form one tap away from the top of a token page; transaction toasts that leave by themselves and by their
// button and never cover a button for good; the development accounts' menu within the screen.
import type { Page } from 'playwright-core';
import { parseUnits } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { NAV } from '../../web/src/nav.ts';
import { useTestApp } from '../helpers/app.ts';
import { accessible, atBothWidths, browserUnavailable } from '../helpers/browser.ts';
import { staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';
import { useWebApp } from '../helpers/web.ts';

const t = useTestApp();
const web = useWebApp(t);
const trading = tokenTrading(t);
const PHONE = { width: 390, height: 844 };

let slug: string;

/** The box of `selector`'s first match, in the viewport's coordinates. */
const boxOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((e) => {
      const r = e.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height };
    });

describe.skipIf(browserUnavailable)('the web app on a phone', () => {
  beforeAll(async () => {
    const company = await staffedCompany(t, 1, { name: 'Phone Token Co' });
    slug = company.id;
    const token = await trading.launch(company.id, 'PHONE', 1);
    await trading.buy(2, token, parseUnits('40', 6));
    await trading.index();
    web.followTrades();
  }, 240_000);

  it('the board is a list of cards: every figure on screen with its label, nothing scrolls sideways', async () => {
    const { page, errors, close } = await web.open('/', { width: PHONE.width });
    try {
      await page.setViewportSize(PHONE);
      const card = page.locator('table.board tbody tr').first();
      await card.waitFor();
      for (const label of ['Price', 'Market cap', '24 h change', '24 h volume', 'Holders', 'Age']) {
        const cell = card.locator(`td[data-label="${label}"]`);
        const box = await cell.boundingBox();
        expect(box, label).not.toBeNull();
        expect(box!.x + box!.width, label).toBeLessThanOrEqual(PHONE.width);
        // The label is written beside the figure.
        expect(await cell.evaluate((e) => getComputedStyle(e, '::before').content)).toBe(`"${label}"`);
      }
      const region = page.getByRole('region', { name: 'Tokens' });
      expect(await region.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(1);
      // The column headers' sort buttons are out of sight: a phone sorts with "Sort by", which the address keeps.
      await page.getByLabel('Sort by').selectOption({ label: 'Highest market cap first' });
      await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('marketCap');
      await atBothWidths(page, 'phone-board');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);

  it('the navigation shows every page, Staking, Rewards and Activity included, without scrolling', async () => {
    const { page, close } = await web.open('/', { width: PHONE.width });
    try {
      await page.setViewportSize(PHONE);
      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const [, label] of NAV) {
        const link = nav.getByRole('link', { name: label, exact: true });
        const box = await link.boundingBox();
        expect(box, label).not.toBeNull();
        expect(box!.x, label).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width, label).toBeLessThanOrEqual(PHONE.width);
      }
      expect(await nav.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(1);
      await nav.getByRole('link', { name: 'Activity', exact: true }).click();
      await page.getByRole('heading', { name: 'Live activity' }).waitFor();
    } finally {
      await close();
    }
  }, 60_000);

  it('the development accounts menu fits the screen, and a connected wallet keeps the header compact', async () => {
    const { page, close } = await web.open('/', { width: PHONE.width });
    try {
      await page.setViewportSize(PHONE);
      await page.getByRole('button', { name: 'Connect wallet' }).click();
      await page.locator('[data-dev-account="9"]').waitFor();
      const menu = await boxOf(page, '.wallet-menu');
      // It was 966 px tall, the ten accounts two lines each.
      expect(menu.bottom).toBeLessThanOrEqual(PHONE.height);
      expect(menu.height).toBeLessThan(600);
      await accessible(page, 'phone-dev-menu');
      // Connected, the header stays compact (it was 120 px): the brand, the address and Disconnect on one line
      // above the navigation.
      await page.locator('[data-dev-account="1"]').click();
      await page.getByRole('button', { name: 'Disconnect' }).waitFor();
      expect((await boxOf(page, 'header.top')).height).toBeLessThan(100);
    } finally {
      await close();
    }
  }, 60_000);

  it('the trade form is one tap from the top; toasts leave on their own and by their button and never cover a button', async () => {
    const { page, errors, close } = await web.open(`/companies/${slug}/token`, { width: PHONE.width, account: 3 });
    try {
      await page.setViewportSize(PHONE);
      await page.evaluate(() => window.scrollTo(0, 0));
      const jump = page.getByRole('button', { name: 'Trade $PHONE ↓' });
      const jumpBox = await jump.boundingBox();
      expect(jumpBox!.y + jumpBox!.height).toBeLessThanOrEqual(PHONE.height);
      await jump.click();
      const heading = page.getByRole('heading', { name: 'Trade', exact: true });
      await expect.poll(() => heading.evaluate((e) => e === document.activeElement)).toBe(true);
      const top = (await heading.boundingBox())!.y;
      expect(top).toBeGreaterThanOrEqual(0);
      expect(top).toBeLessThan(PHONE.height / 2);

      const buy = async () => {
        await page.getByLabel('USDC to spend').fill('5');
        await page.getByRole('button', { name: 'Buy PHONE', exact: true }).click();
        await page.locator('[data-toast="mined"]').first().waitFor({ timeout: 60_000 });
      };
      // By its button.
      await buy();
      await page.locator('[data-toast="mined"]').getByRole('button', { name: 'Dismiss' }).click();
      expect(await page.locator('[data-toast]').count()).toBe(0);
      await buy();
      // While it is open, nothing is under it for good: at the very bottom of the page (the page still grows as the
      // trade's event arrives, so scrolled there until it stops), the page ends above the toasts, and every button on
      // screen can be hit.
      await expect
        .poll(
          () =>
            page.evaluate(() => {
              window.scrollTo(0, document.documentElement.scrollHeight);
              const main = document.querySelector('main')!.getBoundingClientRect().bottom;
              return main - document.querySelector('.toasts')!.getBoundingClientRect().top;
            }),
          { timeout: 10_000 },
        )
        .toBeLessThanOrEqual(0);
      const covered = await page.evaluate(() =>
        Array.from(document.querySelectorAll('main button'))
          .map((b) => ({ b, r: b.getBoundingClientRect() }))
          .filter(
            ({ r }) =>
              r.height > 0 &&
              r.top >= 0 &&
              r.bottom <= window.innerHeight &&
              r.left >= 0 &&
              r.right <= window.innerWidth,
          )
          .filter(({ b, r }) => {
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return !(hit && b.contains(hit));
          })
          .map(({ b }) => b.textContent),
      );
      expect(covered).toEqual([]);
      // On its own: a mined toast leaves after a few seconds.
      await expect.poll(() => page.locator('[data-toast]').count(), { timeout: 15_000 }).toBe(0);
      await atBothWidths(page, 'phone-token');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 180_000);
  it('a table wider than the phone scrolls inside its box, with a shadow on the edge where more columns lie', async () => {
    const { page, errors, close } = await web.open(`/companies/${slug}/token`, { width: PHONE.width });
    try {
      await page.setViewportSize(PHONE);
      const trades = page.locator('section.table-wrap[aria-label="Trades"]');
      await trades.locator('tbody tr').first().waitFor();
      // Wider than the screen: it scrolls inside its box, never the page.
      expect(await trades.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeGreaterThan(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      // The cue: edge shadows that stay at the box's edges, under covers that scroll with the columns.
      const background = await trades.evaluate((e) => {
        const s = getComputedStyle(e);
        return { image: s.backgroundImage, attachment: s.backgroundAttachment };
      });
      expect(background.image.match(/radial-gradient/g)).toHaveLength(2);
      expect(background.attachment).toBe('local, local, scroll, scroll');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);
});

/// <reference lib="dom" />
// The web app's first visit on a slow mobile network, in Chromium against the whole service on loopback: the app
// shell (index.html's header and skeleton, styled by the stylesheet inlined into the page) painted long before the
// code arrives, React taking its place without moving anything, and no layout shift while the page's data arrives
// (docs/web.md "Tests and budgets"). The network is Chrome DevTools' "Slow 3G": 400 ms of latency and 400 kbit/s.
import type { Page } from 'playwright-core';
import { type Address, createPublicClient, erc20Abi, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devAddresses } from '../../src/chain/client.ts';
import { formatAmount } from '../../web/src/format.ts';
import { NAV } from '../../web/src/nav.ts';
import { useTestApp } from '../helpers/app.ts';
import { accessible, browserUnavailable, launchChromium } from '../helpers/browser.ts';
import { insertCompany } from '../helpers/events.ts';

const t = useTestApp();
/** anvil's ten development accounts, as the picker lists them. */
const DEV_ACCOUNTS = devAddresses();
let base: string;
let chromium: Awaited<ReturnType<typeof launchChromium>>;

/** Chrome DevTools' "Slow 3G" preset (its throughput in bytes a second). */
const SLOW_3G = {
  offline: false,
  latency: 400,
  downloadThroughput: (400 * 1024) / 8,
  uploadThroughput: (400 * 1024) / 8,
};

/** Sums the page's layout shifts from the start (not those right after an input), as CLS counts them. */
function recordLayoutShifts() {
  const w = window as unknown as { __cls: number; __shifts: string[] };
  w.__cls = 0;
  w.__shifts = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources?: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
    })[]) {
      if (e.hadRecentInput) continue;
      w.__cls += e.value;
      const nodes = (e.sources ?? []).map((s) => {
        const el = s.node as Element | undefined;
        const name = el?.tagName
          ? `${el.tagName.toLowerCase()}.${el.className}${el.getAttribute('aria-labelledby') ? `[${el.getAttribute('aria-labelledby')}]` : ''}`
          : String(s.node?.nodeName);
        return `${name} ${Math.round(s.previousRect.y)}→${Math.round(s.currentRect.y)}`;
      });
      w.__shifts.push(`${e.value.toFixed(4)} at ${e.startTime.toFixed(0)} ms: ${nodes.join(', ')}`);
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

/** A cold visit (fresh context: empty cache) on slow 3G, the layout shifts recorded from the first frame. */
async function slowVisit(url: string, width: number) {
  const context = await chromium.browser.newContext({ viewport: { width, height: 900 } });
  await context.addInitScript(recordLayoutShifts);
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  const chainReads: string[] = [];
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
  });
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/chain') chainReads.push(r.url());
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_3G);
  await page.goto(`${base}${url}`, { waitUntil: 'commit' });
  return { context, page, chainReads, errors };
}

/** The boxes of the header's parts and of the page's first heading or its placeholder, rounded to the pixel. */
function boxesOf(p: Page) {
  return p.evaluate(() => {
    const box = (e: Element | null) => {
      if (!e) return null;
      const r = e.getBoundingClientRect();
      return [r.x, r.y, r.width, r.height].map((v) => Math.round(v));
    };
    return {
      header: box(document.querySelector('header.top')),
      brand: box(document.querySelector('header.top .brand')),
      nav: Array.from(document.querySelectorAll('header.top nav a')).map(box),
      wallet: box(document.querySelector('header.top .wallet button')),
      // Where the page starts, and its title's line (the placeholder's width is not the title's).
      main: box(document.querySelector('main'))?.slice(0, 2),
      title: box(document.querySelector('main h1, main .skeleton-title'))?.filter((_, i) => i !== 2),
    };
  });
}

/** The page rendered by the app: its heading, and every skeleton replaced by what it stood for. */
async function loaded(p: Page) {
  await p.locator('main h1').waitFor();
  await expect.poll(() => p.locator('main .skeleton').count(), { timeout: 30_000 }).toBe(0);
}

describe.skipIf(browserUnavailable)('the first visit on a slow network, in Chromium', () => {
  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    chromium = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
  });

  it('paints the shell from the page alone on slow 3G, long before the code arrives, and nothing shifts as the page loads', async () => {
    const company = await insertCompany(t.database.db, 'slow-network-co');
    const visits: [string, number][] = [
      ['/', 390],
      ['/', 1440],
      // The Fortune List: its epoch line, read apart from the list, wraps above the filters on a phone.
      ['/fortune', 390],
      // A page of many panels, each loading on its own, and its code loaded after the app's.
      [`/companies/${company.slug}`, 390],
    ];
    for (const [url, width] of visits) {
      const what = `slow 3G, ${url} at ${width} px`;
      // The network is emulated and the same each visit; the machine's CPU is not (a test run shares two cores with
      // other files). So the page must arrive within 1 s and paint before the code (the paint needs nothing else),
      // and the first paint is held to web.dev's "good" 1.8 s for the best of up to three cold visits: on a quiet
      // machine it is about 0.5 s (docs/web.md), and a render-blocking regression fails all three.
      const paints: number[] = [];
      while (paints.length < 3 && !paints.some((fcp) => fcp < 1_800)) {
        const { context, page, chainReads, errors } = await slowVisit(url, width);
        try {
          await loaded(page);
          await page.waitForTimeout(500);
          const timing = await page.evaluate(() => {
            const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
            const code = performance
              .getEntriesByType('resource')
              .find((e) => /\/assets\/index-[^/]+\.js$/.test(e.name)) as PerformanceResourceTiming | undefined;
            const doc = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
            const w = window as unknown as { __cls: number; __shifts: string[] };
            return {
              fcp,
              docEnd: doc?.responseEnd ?? Number.NaN,
              codeEnd: code?.responseEnd ?? Number.NaN,
              cls: w.__cls,
              shifts: w.__shifts,
            };
          });
          console.log(
            `${what}: the page in at ${timing.docEnd.toFixed(0)} ms, first contentful paint ${timing.fcp.toFixed(0)} ms, the code in at ` +
              `${timing.codeEnd.toFixed(0)} ms, CLS ${timing.cls.toFixed(4)} (${timing.shifts.join('; ')})`,
          );
          paints.push(timing.fcp);
          expect(timing.docEnd, `${what}: the page's arrival`).toBeLessThan(1_000);
          // What painted first was the shell, not the app: the app's code had not arrived yet.
          expect(timing.fcp).toBeLessThan(timing.codeEnd);
          expect(timing.cls, `${what}: layout shifts ${timing.shifts.join('; ')}`).toBeLessThan(0.1);
          // The chain's read started with the page (the preload) and was not made twice.
          expect(chainReads.length).toBe(1);
          // Nothing refused (the inlined stylesheet is allowed by its hash) and no preload left unused.
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      }
      expect(Math.min(...paints), `${what}: first contentful paint, best of ${paints.join(', ')} ms`).toBeLessThan(
        1_800,
      );
    }
  }, 180_000);

  it('the shell has the geometry of the app: the header, its links, the wallet button and the title stay put', async () => {
    for (const width of [390, 1440]) {
      const context = await chromium.browser.newContext({ viewport: { width, height: 900 } });
      try {
        const page = await context.newPage();
        // The shell alone: the app's code never arrives.
        await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
        await page.goto(`${base}/`);
        await page.locator('header.top .brand').waitFor();
        const shell = await boxesOf(page);
        expect(shell.nav).toHaveLength(NAV.length);
        await page.unroute(/\/assets\/.*\.js$/);
        await page.goto(`${base}/`);
        await loaded(page);
        const app = await boxesOf(page);
        expect(app, `at ${width} px`).toEqual(shell);
      } finally {
        await context.close();
      }
    }
  }, 60_000);

  it("the dev-account picker shows each account's USDC balance, exact, read in one batch", async () => {
    const context = await chromium.browser.newContext({ viewport: { width: 390, height: 900 } });
    try {
      const page = await context.newPage();
      const rpcBodies: string[] = [];
      page.on('request', (r) => {
        if (r.url().startsWith(t.chain.node.rpcUrl) && r.method() === 'POST') rpcBodies.push(r.postData() ?? '');
      });
      // Dev account 3 holds an amount with all six decimals, moved just before the menu opens.
      const client = createPublicClient({ transport: http(t.chain.node.rpcUrl) });
      const usdc = t.chain.file.contracts.usdc as Address;
      const hash = await t.chain.wallet(4).writeContract({
        address: usdc,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [DEV_ACCOUNTS[3]!, 1_234_567n],
      });
      await client.waitForTransactionReceipt({ hash });
      await page.goto(`${base}/`);
      await page.locator('main h1').waitFor();
      await page.getByRole('button', { name: 'Connect wallet' }).click();
      await expect.poll(() => page.getByTestId('dev-balance-9').textContent()).toMatch(/ USDC$/);
      await expect.poll(() => page.getByTestId('dev-balance-9').textContent()).not.toBe('… USDC');
      const balances = await Promise.all(
        DEV_ACCOUNTS.map((account) =>
          client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [account] }),
        ),
      );
      for (const [i, balance] of balances.entries()) {
        expect(await page.getByTestId(`dev-balance-${i}`).textContent(), `dev account ${i}`).toBe(
          `${formatAmount(balance, 6)} USDC`,
        );
      }
      // Not rounded: the 1.234567 USDC received shows to the last decimal.
      expect(balances[3]! % 1_000_000n).not.toBe(0n);
      expect(await page.getByTestId('dev-balance-3').textContent()).toMatch(/\.\d{6} USDC$/);
      // The ten balanceOf calls (selector 0x70a08231) travelled in one request.
      const withBalances = rpcBodies.filter((b) => b.includes('0x70a08231'));
      expect(withBalances).toHaveLength(1);
      expect(withBalances[0]!.match(/0x70a08231/g)).toHaveLength(DEV_ACCOUNTS.length);
      await accessible(page, 'dev-account picker');
    } finally {
      await context.close();
    }
  }, 60_000);
});

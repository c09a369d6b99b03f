/// <reference lib="dom" />
// Debian's Chromium driven by playwright-core, started the way this machine's closed network needs (no background
// connections, no first-run work) with a fresh profile (playwright gives every launch a new one). Tests that need it skip only outside CI when no Chromium
// binary exists; in CI a missing browser is a failure (.ci/run installs it).
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why browser tests cannot run here, or undefined when they can (in CI they always must). */
export const browserUnavailable: string | undefined =
  existsSync(CHROMIUM_PATH) || process.env.CI
    ? undefined
    : `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`;

export async function launchChromium(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    close: () => browser.close(),
  };
}

export const SHOTS = path.resolve(import.meta.dirname, '../../test-results/screenshots');
export const WIDTHS = [390, 1440] as const;

/** Connects dev account `account` through the wallet menu (the local chain's picker). */
export async function connect(p: Page, account: number) {
  await p.getByRole('button', { name: 'Connect wallet' }).click();
  await p.locator(`[data-dev-account="${account}"]`).click();
  await p.getByText(`Dev ${account} ·`).waitFor();
}

/** No serious or critical accessibility violation on the page as it stands. */
export async function accessible(p: Page, name: string) {
  const result = await new AxeBuilder({ page: p }).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${name}: ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

/**
 * The page at phone and desktop widths: nothing wider than the screen, no serious accessibility violation at either
 * (a table that scrolls sideways only on a phone must be reachable by keyboard there), a screenshot of each.
 */
export async function atBothWidths(p: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of WIDTHS) {
    await p.setViewportSize({ width, height: 900 });
    await p.waitForTimeout(150);
    await accessible(p, `${name} at ${width} px`);
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    // What sticks out, named, so a failure says where to look.
    const wide = await p.evaluate(() =>
      Array.from(document.querySelectorAll('main *'))
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className} "${(e.textContent ?? '').slice(0, 40)}"`),
    );
    expect(overflow, `${name} at ${width} px is wider than the screen: ${wide.join('; ')}`).toBeLessThanOrEqual(1);
    await p.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await p.setViewportSize({ width: 1440, height: 900 });
}

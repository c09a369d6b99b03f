/// <reference lib="dom" />
// What the browser tests of the web app share: the service listening on loopback, one Chromium for the file, and
// pages opened in a context of their own (a width, optionally a dev account connected), each collecting what it logs
// as an error. Call useWebApp after useTestApp, in the file's top level.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { followStream } from '../../src/chain/streams.ts';
import { companyTokens } from '../../src/domain/tokens/company-tokens.stream.ts';
import type { TestEnv } from './app.ts';
import { connect, launchChromium } from './browser.ts';

export interface OpenPage {
  page: Page;
  /** Console errors and uncaught exceptions, each with the page's address: none is expected. */
  errors: string[];
  close(): Promise<void>;
}

export interface WebApp {
  /** The service's address, `http://127.0.0.1:port`. */
  readonly base: string;
  /**
   * Opens `url` (a path) in a new browser context at `width`, dev account `account` connected when given; `before`
   * runs on the page before it loads (to route its requests).
   */
  open(
    url: string,
    options?: { width?: number; account?: number; before?: (page: Page) => Promise<unknown> },
  ): Promise<OpenPage>;
  /** Runs the token indexer continuously (the stream's trade events come from it) until the file ends. */
  followTrades(): void;
}

/** What a page logs as an error, and its uncaught exceptions. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
  });
  return errors;
}

export function useWebApp(t: TestEnv): WebApp {
  let base = '';
  let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let stopIndexer: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    chromium = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await stopIndexer?.();
    await chromium?.close();
  });
  return {
    get base() {
      return base;
    },
    async open(url, { width = 1440, account, before } = {}) {
      const context = await chromium!.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      const errors = consoleErrors(page);
      await before?.(page);
      await page.goto(`${base}${url}`);
      if (account !== undefined) await connect(page, account);
      return { page, errors, close: () => context.close() };
    },
    followTrades() {
      if (stopIndexer) return;
      const follower = followStream(t.container, companyTokens, { confirmations: 0 })!;
      follower.start(200);
      stopIndexer = () => follower.stop();
    },
  };
}

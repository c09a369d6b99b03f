// Debian's Chromium driven by playwright-core, started the way this machine's closed network needs (no background
// connections, no first-run work) with a fresh profile (playwright gives every launch a new one). Tests that need it skip only outside CI when no Chromium
// binary exists; in CI a missing browser is a failure (.ci/run installs it).
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

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

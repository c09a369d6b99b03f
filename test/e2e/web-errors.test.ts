/// <reference lib="dom" />
// Errors in words, in Chromium against the whole service, its anvil and a real database, at 390 and 1440 px: the
// permit signature that starts a buy or a mint refused in the wallet, the node down when Buy is pressed, and two tabs
// of one wallet buying at once (the second tab's permit, once signed, cannot be used). Each reads as a sentence saying
// what happened and what to do, never a library's dump; the technical text is behind "Details", and neither the
// sentence nor the open details make a phone's page wider than its screen. The wallet's answers are the local node's,
// intercepted on their way to it (the browser's JSON-RPC, as a refusing or failing wallet would answer). Also the
// other places an error meets a person: a refused wallet connection, and a decision round that failed with a
// library's whole message (shown on the company's timeline and the decision's page).
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { decisionRounds } from '../../src/db/schema/decisions.ts';
import { useTestApp } from '../helpers/app.ts';
import { atBothWidths, browserUnavailable, connect, launchChromium } from '../helpers/browser.ts';
import { staffedCompany } from '../helpers/companies.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp();
const trading = tokenTrading(t);

let base: string;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let slug: string;

type RpcCall = { id: number; method: string };
type Answer = (call: RpcCall) => Record<string, unknown> | undefined;

/**
 * Every JSON-RPC request the page sends to the node passes through `answer`: a call it answers (a result or an
 * error) does not reach the node, the others do (one by one, so a batch can mix both).
 */
async function intercept(context: BrowserContext, answer: Answer) {
  const node = new URL(t.chain.node.rpcUrl).origin;
  await context.route(
    (url) => url.origin === node,
    async (route: Route) => {
      const body = route.request().postDataJSON() as RpcCall | RpcCall[] | null;
      if (!body) return route.continue();
      const calls = Array.isArray(body) ? body : [body];
      const answers = await Promise.all(
        calls.map(async (call) => {
          const own = answer(call);
          if (own) return { jsonrpc: '2.0', id: call.id, ...own };
          const res = await fetch(t.chain.node.rpcUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(call),
          });
          return res.json();
        }),
      );
      await route.fulfill({ json: Array.isArray(body) ? answers : answers[0] });
    },
  );
}

async function open(url: string, account: number, answer?: Answer) {
  const context = await chromium.browser.newContext({ viewport: { width: 390, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors = consoleErrors(page);
  if (answer) await intercept(context, answer);
  await page.goto(`${base}${url}`);
  await connect(page, account);
  return { page, context, errors, close: () => context.close() };
}

/** What the page logs as an error, and its uncaught exceptions: none is expected on a page that says its failure. */
function consoleErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

const nonceOf = (account: number) =>
  t.chain.chain.publicClient.getTransactionCount({ address: devAccount(account).address });

/** The failure on the page: its sentence, and no library text outside the closed details. */
async function failureOf(page: Page, sentence: RegExp) {
  const notice = page.locator('output.notice.error');
  await notice.getByText(sentence).waitFor({ timeout: 45_000 });
  const text = (await notice.textContent())!;
  expect(text).not.toMatch(/viem|Request body|Version:|Error\b|0x[0-9a-f]{20}/i);
  expect(await page.locator('details.error-details pre:visible').count()).toBe(0);
  return text;
}

/** Opens the details and checks the page at both widths with them open. */
async function detailsOpen(page: Page, name: string) {
  await page.getByText('Details', { exact: true }).click();
  await page.locator('details.error-details pre').waitFor();
  await atBothWidths(page, name);
}

const REJECTED = { error: { code: 4001, message: 'User rejected the request.' } };

describe.skipIf(browserUnavailable)('errors in words', () => {
  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const company = await staffedCompany(t, 1, { name: 'Error Words Co' });
    slug = company.id;
    await trading.launch(company.id, 'WORDS', 1);
    await trading.index();
    chromium = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await chromium?.close();
  });

  it('a refused permit signature on a buy: a sentence, nothing sent, the details behind a toggle', async () => {
    const { page, errors, close } = await open(`/companies/${slug}/token`, 2, (call) =>
      call.method === 'eth_signTypedData_v4' ? REJECTED : undefined,
    );
    try {
      const nonce = await nonceOf(2);
      await page.getByLabel('USDC to spend').fill('10');
      await page.locator('[data-quote-out]').waitFor();
      await page.getByRole('button', { name: 'Buy WORDS', exact: true }).click();
      await failureOf(page, /^You declined the request in your wallet, so the buy was not made\. Nothing was sent\.$/);
      expect(await nonceOf(2)).toBe(nonce);
      await atBothWidths(page, 'error-permit-refused');
      await detailsOpen(page, 'error-permit-refused-details');
      expect(await page.locator('details.error-details pre').textContent()).toMatch(/rejected/i);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);

  it('a refused permit signature on a mint reads the same way', async () => {
    const { page, errors, close } = await open('/mint', 3, (call) =>
      call.method === 'eth_signTypedData_v4' ? REJECTED : undefined,
    );
    try {
      await page.getByRole('button', { name: 'Mint 1' }).click();
      await failureOf(page, /^You declined the request in your wallet, so the mint was not made\. Nothing was sent\.$/);
      await atBothWidths(page, 'error-mint-permit-refused');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);

  it('a transaction refused in the wallet after the permit: the toast and the form say it, the details behind a toggle', async () => {
    const { page, errors, close } = await open(`/companies/${slug}/token`, 2, (call) =>
      call.method === 'eth_sendTransaction' ? REJECTED : undefined,
    );
    try {
      const nonce = await nonceOf(2);
      await page.getByLabel('USDC to spend').fill('10');
      await page.locator('[data-quote-out]').waitFor();
      await page.getByRole('button', { name: 'Buy WORDS', exact: true }).click();
      const sentence = 'You declined the request in your wallet, so the buy was not made. Nothing was sent.';
      await failureOf(page, new RegExp(`^${sentence.replace(/[.]/g, '\\.')}$`));
      const toast = page.locator('[data-toast="failed"]');
      await toast.getByText(sentence).waitFor();
      expect(await toast.innerText()).not.toMatch(/viem|Request body|Version:/);
      expect(await nonceOf(2)).toBe(nonce);
      await atBothWidths(page, 'error-transaction-refused');
      await toast.getByText('Details', { exact: true }).click();
      await toast.locator('details.error-details pre').waitFor();
      expect(await toast.locator('details.error-details pre').textContent()).toMatch(/rejected/i);
      await atBothWidths(page, 'error-transaction-refused-toast-details');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);

  it('the node down when Buy is pressed: the node is not answering, try again', async () => {
    let down = false;
    const { page, context, errors, close } = await open(`/companies/${slug}/token`, 2);
    try {
      await context.route(
        (url) => url.origin === new URL(t.chain.node.rpcUrl).origin,
        (route) => (down ? route.abort('connectionrefused') : route.continue()),
      );
      await page.getByLabel('USDC to spend').fill('10');
      await page.locator('[data-quote-out]').waitFor();
      down = true;
      await page.getByRole('button', { name: 'Buy WORDS', exact: true }).click();
      await failureOf(
        page,
        /^The blockchain node is not answering, so the buy was not sent\. Try again in a moment\.$/,
      );
      await atBothWidths(page, 'error-node-down');
      await detailsOpen(page, 'error-node-down-details');
      // The browser logs each refused connection to the node; nothing else.
      expect(errors.filter((e) => !/ERR_CONNECTION_REFUSED/.test(e))).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);

  it('two tabs of one wallet buying at once: the second permit, signed, cannot be used; a sentence, not the error name', async () => {
    // Both tabs sign a permit with the wallet's same permit nonce: the second tab's signature is held until the first
    // tab's buy is mined, which spends that nonce and the allowance, so the launcher refuses the second permit
    // (LauncherPermitFailed), as it did for the two tabs of the issue.
    const node = new URL(t.chain.node.rpcUrl).origin;
    let asked!: () => void;
    const signing = new Promise<void>((resolve) => {
      asked = resolve;
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const second = await open(`/companies/${slug}/token`, 4);
    await second.context.route(
      (url) => url.origin === node,
      async (route) => {
        const body = route.request().postDataJSON() as { method?: string } | { method?: string }[] | null;
        const calls = Array.isArray(body) ? body : body ? [body] : [];
        if (calls.some((c) => c.method === 'eth_signTypedData_v4')) {
          asked();
          await held;
        }
        await route.continue();
      },
    );
    const first = await open(`/companies/${slug}/token`, 4);
    try {
      for (const { page } of [second, first]) {
        await page.getByLabel('USDC to spend').fill('10');
        await page.locator('[data-quote-out]').waitFor();
      }
      await second.page.getByRole('button', { name: 'Buy WORDS', exact: true }).click();
      await signing;
      await first.page.getByRole('button', { name: 'Buy WORDS', exact: true }).click();
      await first.page.getByText(/^Bought [\d,.]+ WORDS for 10 USDC\.$/).waitFor({ timeout: 60_000 });
      const nonce = await nonceOf(4);
      release();
      const text = await failureOf(second.page, /^The permit you signed could not be used/);
      expect(text).toContain('Try again; your wallet will ask for a new signature.');
      expect(text).not.toContain('LauncherPermitFailed');
      // The second tab sent nothing.
      expect(await nonceOf(4)).toBe(nonce);
      await atBothWidths(second.page, 'error-permit-used');
      await detailsOpen(second.page, 'error-permit-used-details');
      expect(await second.page.locator('details.error-details pre').textContent()).toMatch(/LauncherPermitFailed/);
      expect([...first.errors, ...second.errors]).toEqual([]);
    } finally {
      release();
      await first.close();
      await second.close();
    }
  }, 120_000);

  it('a refused wallet connection: a sentence, the library text behind Details', async () => {
    const context = await chromium.browser.newContext({ viewport: { width: 390, height: 900 } });
    try {
      // A browser wallet that refuses every request (a person pressing Reject), its error as such wallets word it.
      await context.addInitScript(() => {
        const reject = () =>
          Promise.reject(
            Object.assign(new Error('User rejected the request.\n\nDetails: MetaMask Tx Signature: User denied.'), {
              code: 4001,
            }),
          );
        (window as unknown as { ethereum: unknown }).ethereum = {
          isMetaMask: true,
          request: reject,
          on() {},
          removeListener() {},
        };
      });
      const page = await context.newPage();
      const errors = consoleErrors(page);
      await page.goto(`${base}/`);
      await page.getByRole('button', { name: 'Connect wallet' }).click();
      await page.getByRole('menuitem', { name: 'Browser wallet' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'The wallet refused the connection.' });
      await alert.waitFor();
      expect(await alert.textContent()).toBe(
        'The wallet refused the connection. Nothing was shared; connect again when you are ready.',
      );
      expect(await page.locator('details.error-details pre').isVisible()).toBe(false);
      await atBothWidths(page, 'error-connect-refused');
      await page.getByText('Details', { exact: true }).click();
      expect(await page.locator('details.error-details pre').textContent()).toMatch(/User rejected the request/);
      await atBothWidths(page, 'error-connect-refused-details');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('a round that failed with a long technical error: a sentence on the company and decision pages, the rest behind Details', async () => {
    const id = randomUUID();
    // What a failed execution can record: a library's whole message, one line far wider than a phone.
    const error = `ContractFunctionExecutionError: The contract function "buy" reverted with the following signature: 0x${'ab'.repeat(4)}\n\nRequest Arguments:\n  from: 0x${'12'.repeat(20)}\n  data: 0x${'cd'.repeat(400)}\n\nVersion: viem@2.0.0`;
    await t.database.db.insert(decisionRounds).values({
      id,
      companyId: slug,
      cycle: 900,
      status: 'FAILED',
      trigger: 'MANUAL',
      phase: 'execution',
      error,
      finishedAt: new Date(),
    });
    const { page, errors, close } = await open(`/decisions/${id}`, 5);
    try {
      const sentence =
        'The round stopped at its step “Execution”: ContractFunctionExecutionError: The contract function "buy" reverted with the following signature: 0xabababab. Nothing after that step ran.';
      await page.getByText(sentence).waitFor();
      expect(await page.locator('details.error-details pre').isVisible()).toBe(false);
      await atBothWidths(page, 'error-round-failed');
      await page.getByText('Details', { exact: true }).click();
      expect(await page.locator('details.error-details pre').textContent()).toBe(error);
      await atBothWidths(page, 'error-round-failed-details');

      await page.goto(`${base}/companies/${slug}`);
      const round = page.locator(`[data-round="${id}"]`);
      await round.getByText(sentence).waitFor();
      await atBothWidths(page, 'error-round-failed-company');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);

  it('numeric fields keep what is typed and say what is wrong, never throw (the mint quantity and the stake)', async () => {
    const { page, errors, close } = await open('/mint', 5);
    try {
      const quantity = page.getByLabel('Cards to mint (1 to 5)');
      await page
        .getByTestId('mint-cost')
        .getByText(/^100 USDC/)
        .waitFor();
      // Backspace empties the field (it is not put back to 1), then 3 is 3 cards.
      await quantity.click();
      await quantity.press('End');
      await quantity.press('Backspace');
      expect(await quantity.inputValue()).toBe('');
      await page.getByText('Enter how many cards, from 1 to 5.').waitFor();
      expect(await page.getByRole('button', { name: 'Mint', exact: true }).isDisabled()).toBe(true);
      await quantity.press('3');
      expect(await quantity.inputValue()).toBe('3');
      await page.getByTestId('mint-cost').getByText('300 USDC (3 × 100 USDC)').waitFor();
      // A fraction is kept as typed and refused in words (it used to throw a BigInt error and blank the page).
      await quantity.fill('2.5');
      expect(await quantity.inputValue()).toBe('2.5');
      await page.getByText('Enter a whole number of cards, from 1 to 5.').waitFor();
      expect(await page.getByTestId('mint-cost').textContent()).toBe('—');
      await atBothWidths(page, 'input-mint-fraction');
      await quantity.fill('6');
      await page.getByText('You can mint 1 to 5 cards at a time.').waitFor();
      await quantity.fill('5');
      await page.getByRole('button', { name: 'Mint 5' }).waitFor();

      await page.getByRole('link', { name: 'Staking' }).first().click();
      const stake = page.getByLabel(/^Amount of /);
      for (const [text, said] of [
        ['2.5.3', 'Enter a number, such as 12.5.'],
        ['0', 'Enter an amount above zero.'],
        ['0.0000000000000000001', /has 18 decimals/],
      ] as const) {
        await stake.fill(text);
        expect(await stake.inputValue()).toBe(text);
        await page.getByText(said).first().waitFor();
      }
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);
});

// The read routes of the web app's account, agent and decision pages: their bounds and refusals (the pages
// themselves run in test/e2e/web-pages.test.ts).
import { describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { WALLET_TRADES_MAX } from '../../src/constants.ts';
import { useTestApp } from '../helpers/app.ts';
import { staffedCompany } from '../helpers/companies.ts';

const t = useTestApp();
const wallet = devAccount(1).address;
const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('wallet reads', () => {
  it('answers a wallet with no trade, at every limit inside the bounds', async () => {
    for (const limit of [1, WALLET_TRADES_MAX]) {
      const res = await get(`/api/wallets/${wallet}/trades?limit=${limit}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ wallet, trades: [] });
    }
    // The address in lower case reads the same wallet.
    expect((await get(`/api/wallets/${wallet.toLowerCase()}/trades`)).json().data.wallet).toBe(wallet);
  });

  it('refuses a limit just outside the bounds, and an invalid wallet, with 400', async () => {
    for (const limit of [0, WALLET_TRADES_MAX + 1]) {
      const res = await get(`/api/wallets/${wallet}/trades?limit=${limit}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    }
    for (const url of ['/api/wallets/0x123/trades', '/api/wallets/nope/companies']) {
      const res = await get(url);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
    }
  });

  it('lists the companies a wallet created, and none for another', async () => {
    const { id } = await staffedCompany(t, 1, { name: 'Wallet Reads Co' });
    const mine = (await get(`/api/wallets/${wallet}/companies`)).json().data;
    expect(mine).toMatchObject([
      { id, name: 'Wallet Reads Co', status: expect.any(String), tokenStatus: 'PRE_PUBLIC' },
    ]);
    expect((await get(`/api/wallets/${devAccount(2).address}/companies`)).json().data).toEqual([]);
  });

  it('answers 404 for an unknown decision or agent', async () => {
    expect((await get('/api/decisions/no-such-round')).statusCode).toBe(404);
    expect((await get('/api/agents/no-such-agent/actions')).statusCode).toBe(404);
  });
});

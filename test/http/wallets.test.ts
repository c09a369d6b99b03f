// The read routes of the web app's account, agent and decision pages: their bounds and refusals (the pages
// themselves run in test/e2e/web-pages.test.ts).
import { describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { ADDRESS_NAMES_MAX, RECENT_EVENTS_MAX, WALLET_TRADES_MAX } from '../../src/constants.ts';
import { publishEvent } from '../../src/domain/events/store.ts';
import { useTestApp } from '../helpers/app.ts';
import { staffedCompany } from '../helpers/companies.ts';
import { insertCompany, payloads } from '../helpers/events.ts';

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

  it("names an agent's wallet as its company's role and a treasury as the company's, and leaves other addresses out", async () => {
    const { cfo } = await staffedCompany(t, 3, { name: 'Spot Sprinters', treasuryAddress: devAccount(8).address });
    const stranger = devAccount(9).address;
    const res = await get(`/api/names?addresses=${cfo.address.toLowerCase()},${devAccount(8).address},${stranger}`);
    expect(res.statusCode).toBe(200);
    const names = res.json().data as { address: string; kind: string; name: string; agentId: string | null }[];
    expect(names.map((n) => [n.address, n.kind, n.name]).sort()).toEqual(
      [
        [cfo.address, 'agent', "Spot Sprinters' CFO"],
        [devAccount(8).address, 'company', "Spot Sprinters' treasury"],
      ].sort(),
    );
    expect(names.find((n) => n.kind === 'agent')?.agentId).toBe(cfo.id);
  });

  it(`names up to ${ADDRESS_NAMES_MAX} addresses at once and refuses one more, an invalid one or none with 400`, async () => {
    const many = (n: number) => Array.from({ length: n }, () => devAccount(9).address).join(',');
    expect((await get(`/api/names?addresses=${many(ADDRESS_NAMES_MAX)}`)).statusCode).toBe(200);
    for (const query of [`addresses=${many(ADDRESS_NAMES_MAX + 1)}`, 'addresses=0x123', 'addresses=,', '']) {
      const res = await get(`/api/names?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });

  it('takes addresses comma-separated or repeated, each through the address schema, and says which one is invalid', async () => {
    const a = devAccount(8).address;
    const b = devAccount(9).address.toLowerCase();
    const comma = await get(`/api/names?addresses=${a},${b}`);
    const repeated = await get(`/api/names?addresses=${a}&addresses=${b}`);
    expect(comma.statusCode).toBe(200);
    expect(repeated.statusCode).toBe(200);
    expect(repeated.json().data).toEqual(comma.json().data);
    // A mixed-case address with a wrong EIP-55 checksum, second in the list.
    const letter = a.search(/[a-fA-F]/);
    const flipped = a[letter] === a[letter]!.toLowerCase() ? a[letter]!.toUpperCase() : a[letter]!.toLowerCase();
    const wrongChecksum = `${a.slice(0, letter)}${flipped}${a.slice(letter + 1)}`;
    for (const bad of ['0x123', wrongChecksum]) {
      const res = await get(`/api/names?addresses=${b},${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.details[0].path).toBe('query.addresses.1');
      expect(res.json().error.message).toMatch(/^query\.addresses\.1 must /);
    }
    const none = await get('/api/names?addresses=,');
    expect(none.json().error.message).toBe('query.addresses must NOT have fewer than 1 items');
  });

  it(`answers the newest events, newest first, at limits 1 and ${RECENT_EVENTS_MAX}, and refuses 0 and ${RECENT_EVENTS_MAX + 1}`, async () => {
    const acme = await insertCompany(t.database.db, 'recent-acme');
    const first = await publishEvent(t.database.db, { type: 'trade', companyId: acme.id, data: payloads.trade! });
    const second = await publishEvent(t.database.db, {
      type: 'decision',
      companyId: acme.id,
      data: payloads.decision!,
    });
    const one = await get('/api/events/recent?limit=1');
    expect(one.statusCode).toBe(200);
    expect(one.json().data.map((e: { id: string }) => e.id)).toEqual([second.id]);
    const all = (await get(`/api/events/recent?limit=${RECENT_EVENTS_MAX}`)).json().data as { id: string }[];
    expect(all.slice(0, 2).map((e) => e.id)).toEqual([second.id, first.id]);
    for (const limit of [0, RECENT_EVENTS_MAX + 1])
      expect((await get(`/api/events/recent?limit=${limit}`)).statusCode).toBe(400);
  });
});

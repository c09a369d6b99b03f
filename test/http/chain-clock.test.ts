// The chain's clock is not the server's: deadlines the platform signs for the chain (the agent-wallet proof of
// deploy-suite) follow the latest block's time, so provisioning works when the chain runs ahead of the server (the
// demo moves the local chain a week to end an epoch) and when it runs behind.

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AGENT_ROLES } from '../../src/constants.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { tokenTrades } from '../../src/db/schema/tokens.ts';
import { toolNamed } from '../../src/domain/engine/tools.ts';
import type { WalletProvider } from '../../src/domain/wallets/provider.ts';
import { startTestApp, useTestApp } from '../helpers/app.ts';
import { companyBody, mintCard, signed } from '../helpers/companies.ts';

const DAY_S = 86_400;
const t = useTestApp();

/** Sets the chain's clock `seconds` away from the server's (either way) and mines a block at that time. */
async function setChainClock(secondsFromServer: number) {
  const client = t.chain.chain.publicClient;
  const at = Math.floor(Date.now() / 1000) + secondsFromServer;
  await client.request({ method: 'anvil_setTime' as never, params: [at] as never });
  await client.request({ method: 'evm_mine' as never, params: [] as never });
  const block = await client.getBlock();
  expect(Math.abs(Number(block.timestamp) - at)).toBeLessThan(60);
}

async function deployFreshCompany(account: number, name: string, app = t.app) {
  await mintCard(t.chain, account);
  const created = await signed(app, account, 'POST', '/api/companies', companyBody({ name }));
  expect(created.statusCode).toBe(201);
  const res = await signed(app, account, 'POST', `/api/companies/${created.json().data.id}/deploy-suite`);
  expect(res.statusCode).toBe(200);
  return res.json().data as { created: { role: string; status: string; id: string }[]; dualityResults: object };
}

describe('deploy-suite and the chain clock', () => {
  it('hires 7 ACTIVE agents after the chain clock moved 3 days ahead of the server', async () => {
    await setChainClock(3 * DAY_S);
    const suite = await deployFreshCompany(1, 'Ahead Co');
    expect(suite.created.map((a) => a.role)).toEqual([...AGENT_ROLES]);
    for (const agent of suite.created) expect(agent.status, JSON.stringify(suite.dualityResults)).toBe('ACTIVE');
  });

  it('hires 7 ACTIVE agents while the chain clock is 2 days behind the server', async () => {
    await setChainClock(-2 * DAY_S);
    const suite = await deployFreshCompany(2, 'Behind Co');
    for (const agent of suite.created) expect(agent.status, JSON.stringify(suite.dualityResults)).toBe('ACTIVE');
  });

  it('proves agent wallets on a chain whose clock moved on since its latest block (an idle local chain)', async () => {
    // The same wallets as the app's, but no signature at first: the agents get identities and stay FAILED.
    let signing = false;
    const wallets: WalletProvider = {
      kind: 'paused',
      addressOf: (index) => t.container.wallets.addressOf(index),
      accountOf: (index) => t.container.wallets.accountOf(index),
      signTypedData: async (index, data) => {
        if (!signing) throw new Error('signer paused');
        return t.container.wallets.signTypedData(index, data);
      },
    };
    const paused = await startTestApp({ database: t.database, chain: t.chain, wallets });
    try {
      const first = await deployFreshCompany(3, 'Idle Chain Co', paused.app);
      for (const agent of first.created) expect(agent.status).toBe('FAILED');
      // Ten minutes pass on the chain with no block mined: its next block is stamped well past the latest one's
      // time, beyond the registry's 5-minute window for a wallet proof counted from the latest block.
      const client = t.chain.chain.publicClient;
      const latest = await client.getBlock();
      await client.request({ method: 'evm_increaseTime' as never, params: [600] as never });
      expect((await client.getBlock()).number).toBe(latest.number);
      signing = true;
      const [company] = await t.database.db.select().from(companies).where(eq(companies.slug, 'idle-chain-co'));
      const retry = await signed(paused.app, 3, 'POST', `/api/companies/${company!.id}/deploy-suite`);
      expect(retry.statusCode).toBe(200);
      const results = Object.values(retry.json().data.dualityResults as Record<string, { status: string }>);
      expect(results).toHaveLength(7);
      for (const result of results) expect(result, JSON.stringify(result)).toEqual({ status: 'ACTIVE', errors: [] });
    } finally {
      await paused.close();
    }
  });
});

describe("the engine's trade windows", () => {
  it('count a trade of the last hour by the chain clock while the chain runs behind the server', async () => {
    await setChainClock(-2 * DAY_S);
    const [company] = await t.database.db.select().from(companies).where(eq(companies.slug, 'behind-co'));
    const block = await t.chain.chain.publicClient.getBlock();
    await t.database.db.insert(tokenTrades).values({
      txHash: `0x${'ab'.repeat(32)}`,
      logIndex: 0,
      companyId: company!.id,
      tokenAddress: `0x${'cd'.repeat(20)}`,
      blockNumber: block.number,
      // An hour before the chain's latest block: two days before the server's clock.
      blockTime: new Date((Number(block.timestamp) - 3600) * 1000),
      trader: `0x${'ef'.repeat(20)}`,
      side: 'buy',
      usdcAmount: 25_000_000n,
      tokenAmount: 10n ** 18n,
      venue: 'CURVE',
    });
    const call = { deps: t.container, company: company!, role: 'CRO' };
    expect(await toolNamed('scan_token_trades')!.run({ ...call, args: { hours: 24 } })).toMatch(
      /^1 trades \(1 buys\) in 24 h, volume 25 USDC/,
    );
    expect(await toolNamed('scan_platform_tokens')!.run({ ...call, args: { limit: 5 } })).toContain('25 USDC');
  });
});

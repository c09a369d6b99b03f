// POST /api/companies/{id}/deploy-suite: the seven C-suite agents with wallets and ERC-8004 identities on the
// local chain, idempotence under concurrent calls, retry of a failed agent, the status moves; and ownership
// following the card end to end.

import { AccessCardAbi, IdentityRegistryAbi } from '@ai-economy/shared/abis';
import { and, eq } from 'drizzle-orm';
import type { Address } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { followStream } from '../../src/chain/streams.ts';
import { AGENT_ROLES } from '../../src/constants.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { accessCardTransfers } from '../../src/domain/companies/access-card-transfers.stream.ts';
import { createHdWalletProvider, type WalletProvider } from '../../src/domain/wallets/provider.ts';
import { startTestApp, useTestApp } from '../helpers/app.ts';
import { companyBody, mintCard, signed } from '../helpers/companies.ts';
import { runCommonRouteTests } from '../helpers/security.ts';

let id: string;

const t = useTestApp();
beforeAll(async () => {
  await mintCard(t.chain, 1);
  id = (await signed(t.app, 1, 'POST', '/api/companies', companyBody({ name: 'Suite Co' }))).json().data.id;
});

const deploy = (companyId: string, signer = 1, app = t.app) =>
  signed(app, signer, 'POST', `/api/companies/${companyId}/deploy-suite`);
const registry = () => t.chain.chain.contracts.identityRegistry!;

async function newCompany(account: number, name: string) {
  await mintCard(t.chain, account);
  const res = await signed(t.app, account, 'POST', '/api/companies', companyBody({ name }));
  return res.json().data.id as string;
}

describe('POST /api/companies/{id}/deploy-suite', () => {
  it('hires all seven roles with wallets and ERC-8004 identities, and moves the company to PRIVATE', async () => {
    const res = await deploy(id);
    expect(res.statusCode).toBe(200);
    const { created, skipped, dualityResults } = res.json().data;
    expect(created.map((a: { role: string }) => a.role)).toEqual([...AGENT_ROLES]);
    expect(skipped).toEqual([]);
    for (const a of created) {
      expect(a.status).toBe('ACTIVE');
      expect(a.name).toBe(`Suite Co ${a.role}`);
      expect(dualityResults[a.id]).toEqual({ status: 'ACTIVE', errors: [] });
    }

    const company = (await t.app.inject({ method: 'GET', url: `/api/companies/${id}` })).json().data;
    expect(company.status).toBe('PRIVATE');
    expect(company.agents.map((a: { role: string }) => a.role)).toEqual([...AGENT_ROLES]);

    const rows = await t.database.db.select().from(agents).where(eq(agents.companyId, id));
    const wallets = new Set(rows.map((r) => r.onChainAddress));
    expect(wallets.size).toBe(7);
    const tokenIds = new Set(rows.map((r) => r.erc8004TokenId));
    expect(tokenIds.size).toBe(7);
    for (const row of rows) {
      expect(row.creatorAddress).toBe(devAccount(1).address);
      expect(row.trustRegistryAddress).toBe(registry());
      const agentId = BigInt(row.erc8004TokenId!);
      const [wallet, uri] = await Promise.all([
        t.chain.chain.publicClient.readContract({
          address: registry(),
          abi: IdentityRegistryAbi,
          functionName: 'getAgentWallet',
          args: [agentId],
        }),
        t.chain.chain.publicClient.readContract({
          address: registry(),
          abi: IdentityRegistryAbi,
          functionName: 'tokenURI',
          args: [agentId],
        }),
      ]);
      expect(wallet).toBe(row.onChainAddress);
      expect(uri).toBe(`http://localhost:3000/api/agents/${row.id}/registration.json`);
    }
    // The first identity ever is id 0, kept as "0", never mistaken for none.
    expect(tokenIds.has('0')).toBe(true);
  });

  it('is idempotent: a second call skips every filled role and creates nothing', async () => {
    const res = await deploy(id);
    expect(res.json().data).toEqual({ created: [], skipped: [...AGENT_ROLES], dualityResults: {} });
    const rows = await t.database.db.select().from(agents).where(eq(agents.companyId, id));
    expect(rows).toHaveLength(7);
  });

  it('never hires two agents for one role when two calls run at once', async () => {
    // A terminated agent no longer fills its role: two concurrent calls refill it once.
    await t.database.db
      .update(agents)
      .set({ status: 'TERMINATED' })
      .where(and(eq(agents.companyId, id), eq(agents.role, 'CMO')));
    const [a, b] = await Promise.all([deploy(id), deploy(id)]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    const createdCount = a.json().data.created.length + b.json().data.created.length;
    expect(createdCount).toBe(1);
    const live = await t.database.db
      .select()
      .from(agents)
      .where(and(eq(agents.companyId, id), eq(agents.role, 'CMO'), eq(agents.status, 'ACTIVE')));
    expect(live).toHaveLength(1);
  });

  it('reports a failing agent as FAILED with its error, keeps the others, and a later call retries it', async () => {
    const otherId = await newCompany(2, 'Flaky Co');
    const seeded = createHdWalletProvider(new Uint8Array(32).fill(7));
    let failures = 1;
    const flaky: WalletProvider = {
      kind: 'flaky',
      addressOf: seeded.addressOf,
      accountOf: seeded.accountOf,
      signTypedData: async (index, data) => {
        if (failures > 0) {
          failures--;
          throw new Error('wallet service unavailable');
        }
        return seeded.signTypedData(index, data);
      },
    };
    const flakyApp = await startTestApp({ database: t.database, chain: t.chain, wallets: flaky });
    try {
      const first = (await deploy(otherId, 2, flakyApp.app)).json().data;
      const failed = Object.entries(
        first.dualityResults as Record<string, { status: string; errors: string[] }>,
      ).filter(([, r]) => r.status === 'FAILED');
      expect(failed).toHaveLength(1);
      expect(failed[0]![1].errors).toEqual(['wallet service unavailable']);
      expect(first.created.filter((a: { status: string }) => a.status === 'ACTIVE')).toHaveLength(6);

      const retry = (await deploy(otherId, 2, flakyApp.app)).json().data;
      expect(retry.created).toEqual([]);
      expect(retry.dualityResults).toEqual({ [failed[0]![0]]: { status: 'ACTIVE', errors: [] } });
      const [row] = await t.database.db.select().from(agents).where(eq(agents.id, failed[0]![0]));
      expect(row).toMatchObject({ status: 'ACTIVE', lastErrors: null });
    } finally {
      await flakyApp.close();
    }
  });

  it('answers 200 with FAILED agents whose errors are decoded and storable, for reverts with NUL bytes and surrogates', async () => {
    const otherId = await newCompany(4, 'Broken Wallet Co');
    const seeded = createHdWalletProvider(new Uint8Array(32).fill(7));
    let calls = 0;
    const broken: WalletProvider = {
      kind: 'broken',
      addressOf: seeded.addressOf,
      accountOf: seeded.accountOf,
      signTypedData: async (index, data) => {
        calls++;
        // A signature by another wallet: the registry reverts with a custom error whose zero-padded address
        // argument the node renders into its message as NUL bytes.
        if (calls === 1) return seeded.signTypedData(index + 100_000, data);
        // An error text no PostgreSQL column can hold: a NUL and an unpaired surrogate.
        if (calls === 2) throw new Error('signer \u0000 said \ud800 no');
        return seeded.signTypedData(index, data);
      },
    };
    const brokenApp = await startTestApp({ database: t.database, chain: t.chain, wallets: broken });
    try {
      const res = await deploy(otherId, 4, brokenApp.app);
      expect(res.statusCode).toBe(200);
      const results = Object.values(
        res.json().data.dualityResults as Record<string, { status: string; errors: string[] }>,
      );
      const failed = results.filter((r) => r.status === 'FAILED').map((r) => r.errors[0]!);
      expect(failed).toHaveLength(2);
      expect(failed).toContainEqual(
        expect.stringMatching(/^execution reverted: IdentityRegistryInvalidWalletSignature\(0x[0-9a-fA-F]{40}\)$/),
      );
      expect(failed).toContain('signer  said \ufffd no');
      const rows = await t.database.db.select().from(agents).where(eq(agents.companyId, otherId));
      const stored = rows.filter((r) => r.status === 'FAILED').flatMap((r) => r.lastErrors ?? []);
      expect(stored.sort()).toEqual([...failed].sort());
    } finally {
      await brokenApp.close();
    }
  });

  it('answers 400 BAD_REQUEST once the company is PUBLIC, 403 to another signer, 404 for no company', async () => {
    const publicId = await newCompany(3, 'Public Co');
    await t.database.db.update(companies).set({ status: 'PUBLIC' }).where(eq(companies.id, publicId));
    const res = await deploy(publicId, 3);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'BAD_REQUEST' });
    expect(res.json().error.message).toMatch(/PUBLIC does not allow deploy-suite/);
    expect((await deploy(id, 2)).statusCode).toBe(403);
    expect((await deploy('nobody', 1)).statusCode).toBe(404);
  });

  runCommonRouteTests(
    () => ({ app: t.app, now: Date.now }),
    () => ({ method: 'POST', url: `/api/companies/${id}/deploy-suite` }),
  );
});

describe('ownership follows the card', () => {
  it('moves the company and its agents to the new holder: the old one is refused, the new one is the creator', async () => {
    const [company] = await t.database.db.select().from(companies).where(eq(companies.id, id));
    const follower = followStream(t.container, accessCardTransfers, { confirmations: 0 })!;
    await follower.pollOnce();

    const from = devAccount(1).address;
    const to = devAccount(4).address as Address;
    const hash = await t.chain.wallet(1).writeContract({
      address: t.chain.chain.contracts.accessCard!,
      abi: AccessCardAbi,
      functionName: 'transferFrom',
      args: [from, to, BigInt(company!.cardTokenId)],
    });
    await t.chain.chain.publicClient.waitForTransactionReceipt({ hash });
    await follower.pollOnce();

    const oldHolder = await signed(t.app, 1, 'PATCH', `/api/companies/${id}/engine`, { enginePreset: 'BUDGET' });
    expect(oldHolder.statusCode).toBe(403);
    const newHolder = await signed(t.app, 4, 'PATCH', `/api/companies/${id}/engine`, { enginePreset: 'BUDGET' });
    expect(newHolder.statusCode).toBe(200);

    const view = (await t.app.inject({ method: 'GET', url: `/api/companies/${id}` })).json().data;
    expect(view).toMatchObject({ creatorAddress: to, cardTokenId: company!.cardTokenId, status: 'PRIVATE' });
    expect(view.agents).toHaveLength(7);
    const rows = await t.database.db.select().from(agents).where(eq(agents.companyId, id));
    expect(rows.every((r) => r.creatorAddress === to)).toBe(true);
  });
});

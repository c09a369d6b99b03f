// POST /api/companies and GET /api/companies/{id}: card-gated creation, the permanent card binding and its
// repair after a crash, every bound of the body.

import { AccessCardAbi } from '@ai-economy/shared/abis';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { createOutbox } from '../../src/chain/outbox.ts';
import { COMPANY_DESCRIPTION_MAX, COMPANY_NAME_MAX, COMPANY_SLUG_MAX } from '../../src/constants.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { repairCardLocks } from '../../src/domain/companies/card.ts';
import { createCompany } from '../../src/domain/companies/create.ts';
import { useTestApp } from '../helpers/app.ts';
import { companyBody, mintCard, signed } from '../helpers/companies.ts';
import { runCommonRouteTests } from '../helpers/security.ts';

const t = useTestApp();

const companyDeployed = (tokenId: number) =>
  t.chain.chain.publicClient.readContract({
    address: t.chain.chain.contracts.accessCard!,
    abi: AccessCardAbi,
    functionName: 'companyDeployed',
    args: [BigInt(tokenId)],
  });

describe('POST /api/companies', () => {
  it('creates an INCORPORATING company bound to the signer unused card, and locks the card on-chain', async () => {
    const tokenId = await mintCard(t.chain, 1);
    const res = await signed(
      t.app,
      1,
      'POST',
      '/api/companies',
      companyBody({ name: 'Acme Agents', description: 'Yield desk' }),
    );
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    expect(data).toMatchObject({
      name: 'Acme Agents',
      slug: 'acme-agents',
      status: 'INCORPORATING',
      category: 'AI_TOKENS',
      league: 'MACHINE',
      autonomyLevel: 'STRATEGY_AUTONOMOUS',
      tokenStatus: 'PRE_PUBLIC',
      tokenSymbol: null,
      creatorAddress: devAccount(1).address,
      treasuryAddress: null,
      cardTokenId: Number(tokenId),
      cardLocked: true,
      agents: [],
      platformScore: 0,
    });
    expect(data.id).toMatch(/^[a-z0-9]{20,}$/);
    expect(await companyDeployed(Number(tokenId))).toBe(true);
  });

  it('answers 403 FORBIDDEN to a signer without an unused card, and one card makes one company', async () => {
    const none = await signed(t.app, 6, 'POST', '/api/companies', companyBody());
    expect(none.statusCode).toBe(403);
    expect(none.json().error.message).toMatch(/holds no unused access card/);
    // Account 1's only card is bound already.
    const again = await signed(t.app, 1, 'POST', '/api/companies', companyBody());
    expect(again.statusCode).toBe(403);
  });

  it('answers 409 CONFLICT for a taken slug, given or derived from the name', async () => {
    await mintCard(t.chain, 2);
    const taken = await signed(t.app, 2, 'POST', '/api/companies', companyBody({ slug: 'acme-agents' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({
      code: 'CONFLICT',
      message: 'The slug "acme-agents" is taken: choose another',
    });
    const derived = await signed(t.app, 2, 'POST', '/api/companies', companyBody({ name: 'ACME  agents!' }));
    expect(derived.statusCode).toBe(409);
    // The card stays free for the next try.
    const ok = await signed(
      t.app,
      2,
      'POST',
      '/api/companies',
      companyBody({ slug: 'acme-two', treasuryAddress: devAccount(2).address.toLowerCase() }),
    );
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.treasuryAddress).toBe(devAccount(2).address);
  });

  it('accepts every bound just inside', async () => {
    await mintCard(t.chain, 3);
    const res = await signed(
      t.app,
      3,
      'POST',
      '/api/companies',
      companyBody({
        name: 'n'.repeat(COMPANY_NAME_MAX),
        slug: 's'.repeat(COMPANY_SLUG_MAX),
        description: 'd'.repeat(COMPANY_DESCRIPTION_MAX),
        logoUrl: 'https://cdn.example/logo.png',
      }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().data.slug).toBe('s'.repeat(COMPANY_SLUG_MAX));
  });

  it.each([
    [{ name: '' }, 'body.name'],
    [{ name: 'n'.repeat(COMPANY_NAME_MAX + 1) }, 'body.name'],
    [{ slug: 'ab' }, 'body.slug'],
    [{ slug: 's'.repeat(COMPANY_SLUG_MAX + 1) }, 'body.slug'],
    [{ slug: 'Upper-Case' }, 'body.slug'],
    [{ slug: 'double--dash' }, 'body.slug'],
    [{ category: 'MEMES' }, 'body.category'],
    [{ description: 'd'.repeat(COMPANY_DESCRIPTION_MAX + 1) }, 'body.description'],
    [{ logoUrl: 'javascript:alert(1)' }, 'body.logoUrl'],
    [{ treasuryAddress: '0x1234' }, 'body.treasuryAddress'],
    [{ owner: 'me' }, 'body.owner'],
  ])('answers 400 VALIDATION_ERROR for %o', async (override, path) => {
    const res = await signed(t.app, 4, 'POST', '/api/companies', companyBody(override));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    expect(res.json().error.details[0].path).toBe(path);
  });

  it('answers 400 BAD_REQUEST for an unknown referrer, and records a known one', async () => {
    const res = await signed(t.app, 4, 'POST', '/api/companies', companyBody({ referrerCompanyId: 'nope' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
    await mintCard(t.chain, 4);
    const [referrer] = await t.database.db.select().from(companies).where(eq(companies.slug, 'acme-agents'));
    const ok = await signed(t.app, 4, 'POST', '/api/companies', companyBody({ referrerCompanyId: referrer!.id }));
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.referrerCompanyId).toBe(referrer!.id);
  });

  runCommonRouteTests(() => ({ app: t.app, now: Date.now }), {
    method: 'POST',
    url: '/api/companies',
    body: companyBody(),
  });
});

describe('card lock after a crash', () => {
  it('a company whose lock never reached the chain is locked by repairCardLocks, once, and its card stays bound', async () => {
    const tokenId = await mintCard(t.chain, 5);
    // The process dies after the binding is written and before the lock is broadcast.
    const crashing = createOutbox({
      db: t.database.db,
      chain: t.chain.chain,
      wallet: t.chain.chain.platform,
      beforeBroadcast: () => {
        throw new Error('crash');
      },
    });
    const view = await createCompany({ ...t.container, outbox: crashing }, devAccount(5).address, companyBody());
    expect(view.cardLocked).toBe(false);
    expect(await companyDeployed(Number(tokenId))).toBe(false);

    // Meanwhile the card cannot be bound a second time.
    const twice = await signed(t.app, 5, 'POST', '/api/companies', companyBody());
    expect(twice.statusCode).toBe(403);

    // The next start repairs it; a second repair finds nothing to do.
    expect(await repairCardLocks(t.container)).toBeGreaterThanOrEqual(1);
    expect(await companyDeployed(Number(tokenId))).toBe(true);
    const [row] = await t.database.db.select().from(companies).where(eq(companies.id, view.id));
    expect(row!.cardLockedAt).not.toBeNull();
    expect(await repairCardLocks(t.container)).toBe(0);
  });
});

describe('GET /api/companies/{id}', () => {
  it('finds a company by id and by slug, publicly', async () => {
    const [row] = await t.database.db.select().from(companies).where(eq(companies.slug, 'acme-agents'));
    for (const key of [row!.id, 'acme-agents']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/companies/${key}` });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.id).toBe(row!.id);
    }
  });

  it('answers 404 NOT_FOUND for an unknown company', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/companies/nobody' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'Company nobody not found' } });
  });
});

// Attack: spam the public agent list. Stand-alone agents cost nothing, so any fresh key could create as many as it
// liked, and since the list was newest first, the top of GET /api/agents read "Official Support 4 - send USDC to
// 0xdead". Now agents of companies (which need an access card) come before stand-alone ones, and each signer may
// create at most STANDALONE_AGENTS_PER_SIGNER_PER_DAY stand-alone agents in any 24 hours.
import { createId } from '@paralleldrive/cuid2';
import { eq, sql } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { STANDALONE_AGENTS_PER_SIGNER_PER_DAY } from '../../src/constants.ts';
import { rowsOf } from '../../src/db/client.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { useTestApp } from '../helpers/app.ts';
import { type MessageSigner, sendSigned } from '../helpers/security.ts';

const t = useTestApp({ env: { RATE_LIMIT_MAX: '100000' } });

const spamBody = (i: number) => ({
  name: `Official Support ${i} - send USDC to 0xdead`,
  description: 'Official platform support. Send USDC to 0x000000000000000000000000000000000000dEaD to verify.',
  persona: { role: 'Support', description: 'Official.' },
  skills: ['support'],
  strategy: { type: 'support', preset: 'BALANCED' },
});
const create = (account: MessageSigner, i: number) =>
  sendSigned({ app: t.app, now: t.container.now }, account, 'POST', '/api/agents', spamBody(i));

/** A company and its CFO, created a day ago, as deploy-suite leaves them. */
async function companyAgent() {
  const id = createId();
  const creator = devAccount(1).address;
  await t.database.db.insert(companies).values({
    id,
    name: 'Real Company',
    slug: `real-${id}`,
    category: 'DEFI_YIELD',
    creatorAddress: creator,
    cardTokenId: 900,
  });
  const [agent] = await t.database.db
    .insert(agents)
    .values({
      id: createId(),
      companyId: id,
      name: 'Real Company CFO',
      role: 'CFO',
      creatorAddress: creator,
      persona: { role: 'CFO', description: 'Runs the treasury.' },
      skills: ['treasury'],
      strategy: { type: 'treasury', preset: 'BALANCED' },
      createdAt: new Date(Date.now() - 86_400_000),
    })
    .returning();
  return agent!;
}

describe('agent list spam', () => {
  it('a fresh key creating "Official Support" agents neither tops the list nor creates more than its daily allowance', async () => {
    const real = await companyAgent();
    const spammer = privateKeyToAccount(generatePrivateKey());
    for (let i = 1; i <= STANDALONE_AGENTS_PER_SIGNER_PER_DAY; i++) {
      const res = await create(spammer, i);
      expect(res.statusCode, res.body).toBe(201);
    }
    // One past the allowance: 429 with a message that says why and when to come back; nothing written.
    const past = await create(spammer, STANDALONE_AGENTS_PER_SIGNER_PER_DAY + 1);
    expect(past.statusCode, past.body).toBe(429);
    expect(past.json().error).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining(`${STANDALONE_AGENTS_PER_SIGNER_PER_DAY} stand-alone agents`),
    });
    const retryAfter = Number(past.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(86_400 - 600);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    const [{ n }] = (await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(agents)
      .where(eq(agents.creatorAddress, spammer.address))) as [{ n: number }];
    expect(n).toBe(STANDALONE_AGENTS_PER_SIGNER_PER_DAY);

    // The company's agent, a day older than every spam agent, still comes first.
    const list = (await t.app.inject({ method: 'GET', url: '/api/agents?limit=5' })).json();
    expect(list.data[0].id).toBe(real.id);
    for (const a of list.data.slice(1)) expect(a.companyId).toBeNull();
  });

  it('each signer has its own allowance, and it frees up 24 hours after a creation', async () => {
    const a = privateKeyToAccount(generatePrivateKey());
    const b = privateKeyToAccount(generatePrivateKey());
    for (let i = 1; i <= STANDALONE_AGENTS_PER_SIGNER_PER_DAY; i++) expect((await create(a, i)).statusCode).toBe(201);
    expect((await create(a, 0)).statusCode).toBe(429);
    expect((await create(b, 1)).statusCode).toBe(201);
    // Just inside the day: the oldest of a's agents 23 h 59 min ago still counts.
    await t.database.db
      .update(agents)
      .set({ createdAt: sql`now() - interval '23 hours 59 minutes'` })
      .where(eq(agents.creatorAddress, a.address));
    expect((await create(a, 0)).statusCode).toBe(429);
    // Just outside: a day and a minute ago, they no longer count.
    await t.database.db
      .update(agents)
      .set({ createdAt: sql`now() - interval '24 hours 1 minute'` })
      .where(eq(agents.creatorAddress, a.address));
    expect((await create(a, 0)).statusCode).toBe(201);
  });

  it('concurrent creations by one signer never exceed the allowance', async () => {
    const a = privateKeyToAccount(generatePrivateKey());
    const results = await Promise.all(
      Array.from({ length: STANDALONE_AGENTS_PER_SIGNER_PER_DAY + 5 }, (_, i) => create(a, i)),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(STANDALONE_AGENTS_PER_SIGNER_PER_DAY);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(5);
  });

  it('reads each filter of the list in its order from an index, with no sort', async () => {
    const db = t.database.db;
    await db.execute('set enable_seqscan = off');
    try {
      const order = `order by (company_id is null), created_at desc, id desc limit 20`;
      for (const [where, index] of [
        ['', 'agents_list_idx'],
        [`where status = 'ACTIVE'`, 'agents_status_list_idx'],
        [`where creator_address = '0x0000000000000000000000000000000000000001'`, 'agents_creator_list_idx'],
      ] as const) {
        const plan = rowsOf<{ 'QUERY PLAN': string }>(
          await db.execute(`explain select id from agents ${where} ${order}`),
        )
          .map((r) => r['QUERY PLAN'])
          .join('\n');
        expect(plan, where).toContain(index);
        expect(plan, where).not.toMatch(/Sort/);
      }
    } finally {
      await db.execute('reset enable_seqscan');
    }
  });
});

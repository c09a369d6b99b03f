// Attack: spam the public agent list. Stand-alone agents cost nothing, so any fresh key could create as many as it
// liked, and since the list was newest first, the top of GET /api/agents read "Official Support 4 - send USDC to
// 0xdead". Now agents of companies (which need an access card) come before stand-alone ones, and each signer may
// create at most STANDALONE_AGENTS_PER_SIGNER_PER_DAY stand-alone agents in any 24 hours.
//
// Keys are free, so the per-signer allowance alone did nothing: 60 agents in 2.3 s from one address,
// each from a fresh key, kept forever. Now one client address creates at most STANDALONE_AGENTS_PER_IP_PER_DAY in
// any 24 hours, whatever the keys, and the purge-idle-agents job deletes stand-alone agents that never did anything
// once they are STANDALONE_AGENT_RETENTION_MS old (7 days).
import { createId } from '@paralleldrive/cuid2';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { STANDALONE_AGENTS_PER_SIGNER_PER_DAY } from '../../src/constants.ts';
import { rowsOf } from '../../src/db/client.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { jobs } from '../../src/jobs/scheduler.ts';
import { useTestApp } from '../helpers/app.ts';
import { type MessageSigner, sendSigned } from '../helpers/security.ts';

const t = useTestApp({ env: { RATE_LIMIT_MAX: '100000' } });
const DAY_MS = 86_400_000;

const spamBody = (i: number) => ({
  name: `Official Support ${i} - send USDC to 0xdead`,
  description: 'Official platform support. Send USDC to 0x000000000000000000000000000000000000dEaD to verify.',
  persona: { role: 'Support', description: 'Official.' },
  skills: ['support'],
  strategy: { type: 'support', preset: 'BALANCED' },
});
/** Each signer from an address of its own (derived from its key) unless the test names one. */
const addressOf = (account: MessageSigner) =>
  `10.${[2, 4, 6].map((k) => Number.parseInt(account.address.slice(k, k + 2), 16)).join('.')}`;
const create = (account: MessageSigner, i: number, ip = addressOf(account)) =>
  sendSigned({ app: t.app, now: t.container.now }, account, 'POST', '/api/agents', spamBody(i), ip);
const countOf = async (where: ReturnType<typeof eq>) =>
  ((await t.database.db.select({ n: sql<number>`count(*)::int` }).from(agents).where(where)) as [{ n: number }])[0].n;

/** A company and its CFO, created a day ago, as deploy-suite leaves them. */
async function companyAgent(cardTokenId = 900) {
  const id = createId();
  const creator = devAccount(1).address;
  await t.database.db.insert(companies).values({
    id,
    name: 'Real Company',
    slug: `real-${id}`,
    category: 'DEFI_YIELD',
    creatorAddress: creator,
    cardTokenId,
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

describe('fresh keys from one address', () => {
  it('create at most STANDALONE_AGENTS_PER_IP_PER_DAY agents a day from that address, whatever the keys', async () => {
    const ip = '203.0.113.5';
    const results = [];
    for (let i = 0; i < 60; i++) results.push(await create(privateKeyToAccount(generatePrivateKey()), i, ip));
    // Before: all 60 created. Now the address's allowance, 20 by default.
    expect(results.filter((r) => r.statusCode === 201).length).toBe(20);
    const cap = t.config.standaloneAgentsPerIpPerDay;
    expect(cap).toBe(20);
    const refused = results.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(60 - cap);
    expect(refused[0]!.json().error).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining(`${cap} stand-alone agents per client address`),
    });
    const retryAfter = Number(refused[0]!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(86_400 - 600);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    // Another address is not held back by this one.
    expect((await create(privateKeyToAccount(generatePrivateKey()), 0, '203.0.113.6')).statusCode).toBe(201);
    // Just outside the day the address may create again.
    const mine = (await t.database.db.select({ id: agents.id }).from(agents).where(eq(agents.createdFrom, ip))).map(
      (r) => r.id,
    );
    expect(mine).toHaveLength(cap);
    await t.database.db
      .update(agents)
      .set({ createdAt: sql`now() - interval '23 hours 59 minutes'` })
      .where(inArray(agents.id, mine));
    expect((await create(privateKeyToAccount(generatePrivateKey()), 0, ip)).statusCode).toBe(429);
    await t.database.db
      .update(agents)
      .set({ createdAt: sql`now() - interval '24 hours 1 minute'` })
      .where(inArray(agents.id, mine));
    expect((await create(privateKeyToAccount(generatePrivateKey()), 0, ip)).statusCode).toBe(201);
  });

  it('concurrent creations from one address by many keys never exceed the allowance', async () => {
    const cap = t.config.standaloneAgentsPerIpPerDay;
    const ip = '203.0.113.9';
    const results = await Promise.all(
      Array.from({ length: cap + 5 }, (_, i) => create(privateKeyToAccount(generatePrivateKey()), i, ip)),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(cap);
    expect(await countOf(eq(agents.createdFrom, ip))).toBe(cap);
  });
});

describe('stand-alone agents that never did anything', () => {
  const purge = () => jobs.find((j) => j.name === 'purge-idle-agents')!.run(t.database.db, t.container);
  const age = (id: string, ms: number) =>
    t.database.db
      .update(agents)
      .set({ createdAt: sql`now() - make_interval(secs => ${ms / 1000})` })
      .where(eq(agents.id, id));

  it('are deleted STANDALONE_AGENT_RETENTION_MS after creation; agents that did something, and company agents, stay', async () => {
    const retention = t.config.standaloneAgentRetentionMs;
    expect(retention).toBe(7 * DAY_MS);
    const owner = privateKeyToAccount(generatePrivateKey());
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await create(owner, i);
      expect(res.statusCode).toBe(201);
      ids.push(res.json().data.id);
    }
    const [idle, young, deployed, worked, terminated] = ids as [string, string, string, string, string];
    await age(idle, retention + 60_000);
    await age(young, retention - 60_000);
    await age(deployed, retention + 60_000);
    await age(worked, retention + 60_000);
    await age(terminated, retention + 60_000);
    await t.database.db
      .update(agents)
      .set({ onChainAddress: devAccount(2).address, erc8004TokenId: '7' })
      .where(eq(agents.id, deployed));
    await t.database.db
      .update(agents)
      .set({ decisionsCount: 1, lastActiveAt: new Date() })
      .where(eq(agents.id, worked));
    expect(
      (await sendSigned({ app: t.app, now: t.container.now }, owner, 'DELETE', `/api/agents/${terminated}`)).statusCode,
    ).toBe(200);
    const company = await companyAgent(901);
    await age(company.id, retention + 60_000);

    await purge();
    const left = (
      await t.database.db
        .select({ id: agents.id })
        .from(agents)
        .where(inArray(agents.id, [...ids, company.id]))
    ).map((r) => r.id);
    expect(left.sort()).toEqual([young, deployed, worked, company.id].sort());
    expect((await t.app.inject({ method: 'GET', url: `/api/agents/${idle}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/agents/${terminated}` })).statusCode).toBe(404);
    // Just inside the retention: deleted once it is past.
    await age(young, retention + 1_000);
    await purge();
    expect(await countOf(eq(agents.id, young))).toBe(0);
  });

  it('keep their creation address a day only: the job clears it once the allowance no longer counts it', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const res = await create(owner, 1, '203.0.113.77');
    const id = res.json().data.id as string;
    await age(id, DAY_MS - 60_000);
    await purge();
    expect(await countOf(and(eq(agents.id, id), eq(agents.createdFrom, '203.0.113.77'))!)).toBe(1);
    await age(id, DAY_MS + 60_000);
    await purge();
    expect(await countOf(and(eq(agents.id, id), isNull(agents.createdFrom))!)).toBe(1);
  });
});

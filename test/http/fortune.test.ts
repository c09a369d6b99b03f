// The Fortune List over HTTP: GET /api/fortune-list (a daily snapshot by rank: latest, a date, a date without a
// snapshot, the no-data message, category, limit bounds) and GET /api/v1/fortune (live platformScore order with a
// deterministic tie-break, rank within the filtered list, category, league, paging, agent counts, the API key in
// the header or the query string).
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { NO_EPOCH_DATA_MESSAGE, noSnapshotMessage } from '../../src/domain/scores/queries.ts';
import { takeScoreSnapshot } from '../../src/domain/scores/snapshot.ts';
import { useTestApp } from '../helpers/app.ts';
import { finalizeScored } from '../helpers/scores.ts';
import { treasuryHelpers } from '../helpers/treasuries.ts';

const t = useTestApp();
const tr = treasuryHelpers(t);
let apiKey: string;
/** A v1 cursor given before the score snapshot. */
let cursorBeforeSnapshot: string;

const list = (query = '') => t.app.inject({ method: 'GET', url: `/api/fortune-list${query}` });
const v1 = (query = '', key: string | null = apiKey) =>
  t.app.inject({ method: 'GET', url: `/api/v1/fortune${query}`, headers: key ? { 'x-api-key': key } : {} });
const slugsOf = (res: { json(): any }) => res.json().data.map((e: { slug: string }) => e.slug);
const ranksOf = (res: { json(): any }) =>
  res.json().data.map((e: { slug: string; rank: number }) => [e.slug, e.rank] as const);
const internalRanks = (res: { json(): any }) =>
  res.json().data.companies.map((e: { company: { slug: string }; rank: number }) => [e.company.slug, e.rank]);

/**
 * Alpha's score in the 2027-04-02 snapshot of the five companies: the Fortune List's entry and the score history's
 * snapshot carry the same values.
 */
const ALPHA_SCORE = {
  overall: 5.51,
  treasuryScore: 0,
  tradingScore: 0,
  volumeScore: 0,
  activityScore: 0,
  completenessScore: 54.55,
  treasuryRaw: 0,
  tradingRaw: 0,
  volumeRaw: 0,
  activityRaw: 0,
  completenessRaw: 6 / 11,
  referralBoost: 0.01,
};

function expectValidationError(res: { statusCode: number; json(): any }, path: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json().error.code).toBe('VALIDATION_ERROR');
  expect(res.json().error.details.map((d: { path: string }) => d.path)).toContain(path);
}

let card = 7000;
async function company(slug: string, values: Partial<typeof companies.$inferInsert>) {
  await t.database.db.insert(companies).values({
    id: `id${slug}`,
    name: slug.toUpperCase(),
    slug,
    creatorAddress: devAccount(2).address,
    cardTokenId: card++,
    cardLockedAt: new Date('2026-01-01T00:00:00Z'),
    category: 'AI_TOKENS',
    ...values,
  });
}

let agentSeq = 0;
async function agent(companyId: string, role: string, status = 'ACTIVE') {
  agentSeq++;
  await t.database.db.insert(agents).values({
    id: `fa${agentSeq}`,
    companyId,
    name: `Agent ${agentSeq}`,
    role,
    status,
    creatorAddress: devAccount(2).address,
    persona: { role, description: 'test agent' },
    skills: ['testing'],
    strategy: { type: 'test', preset: 'BALANCED' },
  });
}

beforeAll(async () => {
  apiKey = (await createApiKey(t.database.db, 'fortune')).key;
  // Snapshot days are the chain's: its clock reads 2027-04-02, 10:00 UTC.
  await tr.at(Date.parse('2027-04-02T10:00:00Z') / 1000);
});

describe('before any company or snapshot', () => {
  it("GET /api/fortune-list says there is no epoch data yet, with epoch = the chain's coming midnight UTC", async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: {
        epoch: '2027-04-03T00:00:00.000Z',
        // The day the first snapshot will cover.
        covers: { from: '2027-04-02T00:00:00.000Z', to: '2027-04-03T00:00:00.000Z' },
        companies: [],
        message: NO_EPOCH_DATA_MESSAGE,
      },
    });
    expect(NO_EPOCH_DATA_MESSAGE).toMatch(/no epoch data yet.*midnight UTC/i);
    expect((await list('?category=RWA&limit=1')).json().data.message).toBe(NO_EPOCH_DATA_MESSAGE);
  });

  it('GET /api/v1/fortune answers an empty page', async () => {
    const res = await v1();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: [], pagination: { page: 1, limit: 50, total: 0, hasMore: false } });
  });
});

describe('with five companies', () => {
  beforeAll(async () => {
    // alpha: description, logo, token, 3 roles (+ a terminated CSO) = 6/11; refers delta.
    await company('alpha', {
      category: 'DEFI_YIELD',
      league: 'MACHINE',
      platformScore: 80,
      createdAt: new Date('2026-01-01T00:00:01Z'),
      description: 'Yield',
      logoUrl: 'https://example.com/alpha.png',
      tokenStatus: 'BONDING',
      tokenSymbol: 'ALP',
      tokenAddress: `0x${'a0'.repeat(20)}`,
      status: 'PUBLIC',
    });
    for (const role of ['CFO', 'CTO', 'CMO']) await agent('idalpha', role);
    await agent('idalpha', 'CSO', 'TERMINATED');
    // bravo: nothing filled; a launch in flight (PRE_PUBLIC with a symbol) shows no symbol.
    await company('bravo', {
      category: 'DEFI_YIELD',
      league: 'HUMAN',
      platformScore: 50,
      createdAt: new Date('2026-01-01T00:00:02Z'),
      tokenSymbol: 'BRV',
    });
    // charlie ties bravo on platformScore and is younger: it comes after. Description and a (paused) CFO: 2/11.
    await company('charlie', {
      category: 'RWA',
      league: 'MACHINE',
      platformScore: 50,
      createdAt: new Date('2026-01-01T00:00:03Z'),
      description: 'Real estate',
    });
    await agent('idcharlie', 'CFO', 'PAUSED');
    // delta: logo only, 1/11; referred by alpha.
    await company('delta', {
      category: 'RWA',
      league: 'HUMAN',
      platformScore: 20,
      createdAt: new Date('2026-01-01T00:00:04Z'),
      logoUrl: 'https://example.com/delta.png',
      referrerCompanyId: 'idalpha',
    });
    await company('echo', { category: 'AI_TOKENS', league: 'MACHINE', createdAt: new Date('2026-01-01T00:00:05Z') });
  });

  describe('GET /api/v1/fortune', () => {
    it('ranks by platformScore, ties by the older company, with the v1 view of each', async () => {
      const res = await v1();
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(ranksOf(res)).toEqual([
        ['alpha', 1],
        ['bravo', 2],
        ['charlie', 3],
        ['delta', 4],
        ['echo', 5],
      ]);
      expect(body.pagination).toEqual({ page: 1, limit: 50, total: 5, hasMore: false, nextCursor: null });
      expect(Date.parse(body.meta.timestamp)).not.toBeNaN();
      expect(body.data[0]).toEqual({
        rank: 1,
        id: 'idalpha',
        name: 'ALPHA',
        slug: 'alpha',
        category: 'DEFI_YIELD',
        league: 'MACHINE',
        platformScore: 80,
        tokenStatus: 'BONDING',
        tokenSymbol: 'ALP',
        creatorAddress: devAccount(2).address,
        logoUrl: 'https://example.com/alpha.png',
        createdAt: '2026-01-01T00:00:01.000Z',
        _count: { agents: 3 },
        // Before the first snapshot there is none to show.
        snapshotDate: null,
        covers: null,
        components: null,
      });
      expect(body.data[1]).toMatchObject({
        slug: 'bravo',
        tokenStatus: 'PRE_PUBLIC',
        tokenSymbol: null,
        logoUrl: null,
      });
      expect(body.data.map((e: { _count: { agents: number } }) => e._count.agents)).toEqual([3, 0, 1, 0, 0]);
    });

    it('filters by category and league, ranking within the filtered list', async () => {
      expect(ranksOf(await v1('?category=DEFI_YIELD'))).toEqual([
        ['alpha', 1],
        ['bravo', 2],
      ]);
      expect(ranksOf(await v1('?league=HUMAN'))).toEqual([
        ['bravo', 1],
        ['delta', 2],
      ]);
      const both = await v1('?category=RWA&league=HUMAN');
      expect(ranksOf(both)).toEqual([['delta', 1]]);
      expect(both.json().pagination.total).toBe(1);
      expect((await v1('?category=MULTICHAIN')).json()).toMatchObject({ data: [], pagination: { total: 0 } });
    });

    it('pages with the rank continuing across pages', async () => {
      const second = await v1('?page=2&limit=2');
      expect(ranksOf(second)).toEqual([
        ['charlie', 3],
        ['delta', 4],
      ]);
      expect(second.json().pagination).toEqual({
        page: 2,
        limit: 2,
        total: 5,
        hasMore: true,
        nextCursor: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      });
      const third = await v1('?page=3&limit=2');
      expect(ranksOf(third)).toEqual([['echo', 5]]);
      expect(third.json().pagination.hasMore).toBe(false);
      expect((await v1('?page=4&limit=2')).json()).toMatchObject({ data: [], pagination: { total: 5 } });
    });

    it('pages by cursor, ranks going on, without repeat or gap while companies are created; Link to the next', async () => {
      const first = await v1('?limit=2');
      expect(ranksOf(first)).toEqual([
        ['alpha', 1],
        ['bravo', 2],
      ]);
      const { nextCursor } = first.json().pagination;
      expect(first.headers.link).toBe(`</api/v1/fortune?limit=2&cursor=${nextCursor}>; rel="next"`);
      // The same page again, from the read cache's kept body (its cursor found once, when kept): the same Link, and
      // a request whose URL differs (a parameter the route ignores) gets a Link of its own URL.
      expect((await v1('?limit=2')).headers.link).toBe(first.headers.link);
      expect((await v1('?limit=2&utm=x')).headers.link).toBe(
        `</api/v1/fortune?limit=2&utm=x&cursor=${nextCursor}>; rel="next"`,
      );
      // Kept for the snapshot below: the ranking it was cut from changes then.
      cursorBeforeSnapshot = nextCursor;
      // Two companies created between the pages, at the bottom (no score yet), microseconds apart; with page=2 the
      // list would be the same here, but a company created with a score of 0 sorts by its creation: after echo.
      await company('foxtrot', { createdAt: undefined });
      await company('golf', { createdAt: undefined });
      try {
        const seen: (readonly [string, number])[] = ranksOf(first);
        let link = first.headers.link as string | undefined;
        while (link) {
          const res = await v1(/<\/api\/v1\/fortune([^>]*)>/.exec(link)![1]!);
          expect(res.statusCode).toBe(200);
          seen.push(...ranksOf(res));
          link = res.headers.link as string | undefined;
          if (!link) expect(res.json().pagination).toMatchObject({ hasMore: false, nextCursor: null, total: 7 });
        }
        expect(seen).toEqual(
          ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'].map((slug, i) => [slug, i + 1]),
        );
        // `page` counts pages after the cursor; a page that is not full shows the whole list's total.
        const after = await v1(`?limit=2&page=2&cursor=${nextCursor}`);
        expect(ranksOf(after)).toEqual([
          ['echo', 5],
          ['foxtrot', 6],
        ]);
        const last = await v1(`?limit=4&cursor=${nextCursor}`);
        expect(ranksOf(last).at(-1)).toEqual(['foxtrot', 6]);
        expect(last.json().pagination).toMatchObject({ total: 7, hasMore: true });
        const end = await v1(`?limit=5&cursor=${nextCursor}`);
        expect(ranksOf(end).at(-1)).toEqual(['golf', 7]);
        expect(end.json().pagination).toMatchObject({ total: 7, hasMore: false, nextCursor: null });
        expect(end.headers.link).toBeUndefined();
      } finally {
        await t.database.db.delete(companies).where(eq(companies.slug, 'foxtrot'));
        await t.database.db.delete(companies).where(eq(companies.slug, 'golf'));
      }
      // Under a filter, ranks are the filtered list's; a cursor of other filters is refused.
      const human = await v1('?league=HUMAN&limit=1');
      const humanNext = await v1(`?league=HUMAN&limit=1&cursor=${human.json().pagination.nextCursor}`);
      expect(ranksOf(humanNext)).toEqual([['delta', 2]]);
      expectValidationError(await v1(`?league=MACHINE&cursor=${human.json().pagination.nextCursor}`), 'query.cursor');
      expectValidationError(await v1(`?cursor=${human.json().pagination.nextCursor}`), 'query.cursor');
    });

    it('refuses a cursor no page gave', async () => {
      const [snapshot, filters, score, createdAt, id] = JSON.parse(
        Buffer.from(cursorBeforeSnapshot, 'base64url').toString(),
      ) as string[];
      const cursor = (...key: unknown[]) => Buffer.from(JSON.stringify(key)).toString('base64url');
      // Just inside: rank 1 and a rank of nine digits are cursors.
      expect((await v1(`?cursor=${cursor(snapshot, filters, score, createdAt, id, '1')}`)).statusCode).toBe(200);
      expect((await v1(`?cursor=${cursor(snapshot, filters, score, createdAt, id, '999999999')}`)).statusCode).toBe(
        200,
      );
      for (const bad of [
        'abc',
        '%%%',
        'x'.repeat(201),
        cursor(snapshot, filters, score, createdAt, id),
        cursor(snapshot, filters, score, createdAt, id, '0'),
        cursor(snapshot, filters, score, createdAt, id, '1000000000'),
        cursor(snapshot, filters, score, createdAt, id, 2),
        cursor(snapshot, filters, 'high', createdAt, id, '2'),
        cursor(snapshot, filters, score, '2026-01-01T00:00:02Z', id, '2'),
        cursor('yesterday', filters, score, createdAt, id, '2'),
      ]) {
        expectValidationError(await v1(`?cursor=${bad}`), 'query.cursor');
      }
      // Just inside the length bound: a cursor of 200 characters is read (and refused as no cursor of this list).
      expectValidationError(await v1(`?cursor=${'x'.repeat(200)}`), 'query.cursor');
    });

    it('takes limit 1-100 and page >= 1', async () => {
      expect(slugsOf(await v1('?limit=1'))).toEqual(['alpha']);
      expect(slugsOf(await v1('?limit=100'))).toHaveLength(5);
      expectValidationError(await v1('?limit=0'), 'query.limit');
      expectValidationError(await v1('?limit=101'), 'query.limit');
      expectValidationError(await v1('?page=0'), 'query.page');
      expectValidationError(await v1('?page=x'), 'query.page');
    });

    it('refuses an unknown category or league', async () => {
      expectValidationError(await v1('?category=FOOD'), 'query.category');
      expectValidationError(await v1('?league=ROBOT'), 'query.league');
      expectValidationError(await v1('?league=human'), 'query.league');
    });

    it('needs an API key, in the x-api-key header or the api_key query parameter', async () => {
      const missing = await v1('', null);
      expect(missing.statusCode).toBe(401);
      expect(missing.json().error).toEqual({
        code: 'UNAUTHORIZED',
        message: 'Missing API key: send it in the x-api-key header or the api_key query parameter',
      });
      expect(Date.parse(missing.json().meta.timestamp)).not.toBeNaN();
      expect((await v1('?api_key=aie_wrong', null)).statusCode).toBe(401);
      expect((await v1('', 'aie_wrong')).statusCode).toBe(401);
      const byQuery = await v1(`?league=HUMAN&api_key=${encodeURIComponent(apiKey)}`, null);
      expect(byQuery.statusCode).toBe(200);
      expect(slugsOf(byQuery)).toEqual(['bravo', 'delta']);
      expect((await v1('?league=HUMAN')).statusCode).toBe(200);
    });
  });

  describe('GET /api/fortune-list after the snapshot of 2027-04-02', () => {
    beforeAll(async () => {
      // The streams apply the chain's day and finalize it (the snapshot reads finalized blocks only).
      await finalizeScored(t);
      const result = await takeScoreSnapshot(t.container, t.database.db);
      expect(result).toMatchObject({ date: '2027-04-02', status: 'taken', companies: 5 });
    });

    it('lists the latest snapshot by rank with the internal view', async () => {
      const res = await list();
      expect(res.statusCode).toBe(200);
      const { data } = res.json();
      expect(data.epoch).toBe('2027-04-02T00:00:00.000Z');
      // The snapshot of 2027-04-02 covers the day before it.
      expect(data.covers).toEqual({ from: '2027-04-01T00:00:00.000Z', to: '2027-04-02T00:00:00.000Z' });
      expect(data.message).toBeUndefined();
      // Only completeness differs (6/11, 0, 2/11, 1/11, 0), scored 100 * share: alpha 54.55 -> 5.455 * 1.01 = 5.51,
      // charlie 18.18 -> 1.82, delta 9.09 -> 0.91.
      expect(internalRanks(res)).toEqual([
        ['alpha', 1],
        ['charlie', 2],
        ['delta', 3],
        ['bravo', 4],
        ['echo', 5],
      ]);
      expect(data.companies[0]).toEqual({
        rank: 1,
        platformRank: 1,
        company: {
          id: 'idalpha',
          name: 'ALPHA',
          slug: 'alpha',
          tokenSymbol: 'ALP',
          logoUrl: 'https://example.com/alpha.png',
          status: 'PUBLIC',
          league: 'MACHINE',
          category: 'DEFI_YIELD',
        },
        score: ALPHA_SCORE,
      });
      expect(data.companies[1].score).toMatchObject({ overall: 1.82, completenessScore: 18.18, referralBoost: 0 });
      expect(data.companies[2].score).toMatchObject({
        overall: 0.91,
        completenessScore: 9.09,
        completenessRaw: 1 / 11,
      });
      expect(data.companies[3].company).toMatchObject({ slug: 'bravo', tokenSymbol: null, status: 'INCORPORATING' });
    });

    it('v1 fortune names the snapshot each score is from: its date, the day it covers and the components', async () => {
      const internal = (await list()).json().data;
      const res = await v1();
      expect(res.statusCode).toBe(200);
      const alpha = res.json().data.find((e: { slug: string }) => e.slug === 'alpha');
      expect(alpha.platformScore).toBe(5.51);
      expect(alpha.snapshotDate).toBe('2027-04-02');
      expect(alpha.covers).toEqual(internal.covers);
      expect(alpha.components).toEqual(internal.companies[0].score);
      for (const entry of res.json().data) expect(entry.snapshotDate).toBe('2027-04-02');
      // A stored value outside a documented bound does not fail the page (the serializer checks nullable members).
      await t.database.db.execute(
        sql`update score_snapshots set referral_boost = 1 where company_id = 'idalpha' and snapshot_date = '2027-04-02'`,
      );
      try {
        const odd = await v1('?limit=7');
        expect(odd.statusCode, odd.body).toBe(200);
        expect(odd.json().data[0].components.referralBoost).toBe(1);
      } finally {
        await t.database.db.execute(
          sql`update score_snapshots set referral_boost = 0.01 where company_id = 'idalpha' and snapshot_date = '2027-04-02'`,
        );
      }
    });

    it('v1 score history carries the raw values each snapshot was scored from', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/companies/alpha/scores',
        headers: { 'x-api-key': apiKey },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({
        companyId: 'idalpha',
        snapshots: [{ date: '2027-04-02', rank: 1, ...ALPHA_SCORE }],
      });
    });

    it('serves a date by its snapshot, and an empty list with a message for a date without one', async () => {
      expect((await list('?epoch=2027-04-02')).json()).toEqual((await list('?epoch=latest')).json());
      const none = await list('?epoch=2027-04-01');
      expect(none.statusCode).toBe(200);
      expect(none.json()).toEqual({
        success: true,
        data: {
          epoch: '2027-04-01T00:00:00.000Z',
          covers: { from: '2027-03-31T00:00:00.000Z', to: '2027-04-01T00:00:00.000Z' },
          companies: [],
          message: noSnapshotMessage('2027-04-01'),
        },
      });
      expect((await list('?epoch=2027-04-01&category=RWA')).json().data.message).toBe(noSnapshotMessage('2027-04-01'));
    });

    it('refuses an epoch that is neither latest nor a calendar date', async () => {
      for (const epoch of ['yesterday', 'LATEST', '2026-4-2', '2027-04-02T00:00:00Z', '2026-02-30', '0000-01-01', '']) {
        expectValidationError(await list(`?epoch=${encodeURIComponent(epoch)}`), 'query.epoch');
      }
    });

    it('filters by category, keeping the platform-wide rank; an empty category has no message', async () => {
      expect(internalRanks(await list('?category=RWA'))).toEqual([
        ['charlie', 2],
        ['delta', 3],
      ]);
      expect(internalRanks(await list('?category=AI_TOKENS&epoch=2027-04-02'))).toEqual([['echo', 5]]);
      const empty = (await list('?category=MULTICHAIN')).json();
      expect(empty).toEqual({
        success: true,
        data: {
          epoch: '2027-04-02T00:00:00.000Z',
          covers: { from: '2027-04-01T00:00:00.000Z', to: '2027-04-02T00:00:00.000Z' },
          companies: [],
        },
      });
      expectValidationError(await list('?category=FOOD'), 'query.category');
    });

    it('filters by league, ranking 1..n within the league the snapshot put each company in', async () => {
      const withPlatform = (res: Awaited<ReturnType<typeof list>>) =>
        res
          .json()
          .data.companies.map(
            (c: { company: { slug: string; league: string }; rank: number; platformRank: number }) => [
              c.company.slug,
              c.rank,
              c.platformRank,
              c.company.league,
            ],
          );
      expect(withPlatform(await list('?league=MACHINE'))).toEqual([
        ['alpha', 1, 1, 'MACHINE'],
        ['charlie', 2, 2, 'MACHINE'],
        ['echo', 3, 5, 'MACHINE'],
      ]);
      expect(withPlatform(await list('?league=HUMAN'))).toEqual([
        ['delta', 1, 3, 'HUMAN'],
        ['bravo', 2, 4, 'HUMAN'],
      ]);
      // With a category too: the league's ranks, filtered; and limit cuts the league's list.
      expect(withPlatform(await list('?league=HUMAN&category=RWA'))).toEqual([['delta', 1, 3, 'HUMAN']]);
      expect(withPlatform(await list('?league=MACHINE&limit=1'))).toEqual([['alpha', 1, 1, 'MACHINE']]);
      // A company that changes league after the snapshot stays where the snapshot ranked it.
      await t.database.db.update(companies).set({ league: 'MACHINE' }).where(eq(companies.id, 'idbravo'));
      try {
        expect(withPlatform(await list('?league=HUMAN'))).toEqual([
          ['delta', 1, 3, 'HUMAN'],
          ['bravo', 2, 4, 'HUMAN'],
        ]);
      } finally {
        await t.database.db.update(companies).set({ league: 'HUMAN' }).where(eq(companies.id, 'idbravo'));
      }
      expectValidationError(await list('?league=ROBOT'), 'query.league');
    });

    it('takes limit 1-100, 50 by default', async () => {
      expect(internalRanks(await list('?limit=1'))).toEqual([['alpha', 1]]);
      expect((await list('?limit=100')).json().data.companies).toHaveLength(5);
      expectValidationError(await list('?limit=0'), 'query.limit');
      expectValidationError(await list('?limit=101'), 'query.limit');
      expectValidationError(await list('?limit=1.5'), 'query.limit');
    });

    it('answers 409 to a cursor of the ranking before the snapshot, and pages the new one by its own cursors', async () => {
      const stale = await v1(`?limit=2&cursor=${cursorBeforeSnapshot}`);
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error.code).toBe('CONFLICT');
      expect(stale.json().error.message).toContain('Start again from the first page');
      const first = await v1('?limit=2');
      const next = await v1(`?limit=2&cursor=${first.json().pagination.nextCursor}`);
      expect(next.statusCode).toBe(200);
      expect(ranksOf(next)).toEqual([
        ['delta', 3],
        ['bravo', 4],
      ]);
    });

    it('moved platformScore, so the v1 list follows the snapshot', async () => {
      const res = await v1();
      expect(ranksOf(res)).toEqual([
        ['alpha', 1],
        ['charlie', 2],
        ['delta', 3],
        ['bravo', 4],
        ['echo', 5],
      ]);
      expect(res.json().data.map((e: { platformScore: number }) => e.platformScore)).toEqual([5.51, 1.82, 0.91, 0, 0]);
    });
  });
});

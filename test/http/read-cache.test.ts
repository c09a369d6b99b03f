// The read cache (src/http/read-cache.ts) through the real routes: a body is read once and served from memory until
// a table it was read from changes, and a change made by anyone (another connection, as another replica or the
// indexer would) shows in the very next read; while the change feed cannot say, nothing is served from memory.
import { createId } from '@paralleldrive/cuid2';
import { sql } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ChangeFeed, createChangeFeed, WATCHED_TABLES } from '../../src/db/changes.ts';
import { rowsOf } from '../../src/db/client.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { createReadCache } from '../../src/http/read-cache.ts';
import { useTestApp } from '../helpers/app.ts';

const t = useTestApp({ env: { RATE_LIMIT_MAX: '100000' } });
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

let apiKey: string;
let nextCard = 8000;
async function insertCompany(name: string) {
  const id = createId();
  await t.database.db.insert(companies).values({
    id,
    name,
    slug: `cached-${id}`,
    category: 'RWA',
    league: 'HUMAN',
    creatorAddress: freshAddress(),
    cardTokenId: nextCard++,
  });
  return id;
}

/** Renames a company without its trigger firing (as no write of the platform can): what memory serves shows. */
async function renameSilently(id: string, name: string) {
  await t.database.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`update companies set name = ${name} where id = ${id}`);
  });
}

beforeAll(async () => {
  apiKey = (await createApiKey(t.database.db, 'cache')).key;
});

describe('the read cache', () => {
  it('has a change trigger on every table a cached read may depend on, and on no other', async () => {
    const rows = rowsOf<{ table: string }>(
      await t.database.db.execute(sql`
        select distinct c.relname as table from pg_trigger g join pg_class c on c.oid = g.tgrelid
        where g.tgname like '%\\_changed' and not g.tgisinternal order by 1`),
    );
    expect(rows.map((r) => r.table)).toEqual([...WATCHED_TABLES].sort());
  });

  it('reads a company view once, then serves it from memory until a table it was read from changes', async () => {
    const id = await insertCompany('Cached One');
    expect((await get(`/api/companies/${id}`)).json().data.name).toBe('Cached One');
    await renameSilently(id, 'Unseen');
    for (let i = 0; i < 3; i++) expect((await get(`/api/companies/${id}`)).json().data.name).toBe('Cached One');
    // A statement on a table the view does not read keeps the body.
    await t.database.db.execute(sql`update score_snapshots set rank = rank where false`);
    expect((await get(`/api/companies/${id}`)).json().data.name).toBe('Cached One');
    // A write outside this process's HTTP routes (the indexer, another replica): shown by the very next read.
    for (let i = 0; i < 10; i++) {
      await t.database.db.execute(sql`update companies set name = ${`Renamed ${i}`} where id = ${id}`);
      expect((await get(`/api/companies/${id}`)).json().data.name).toBe(`Renamed ${i}`);
    }
    // A write to one of its other tables too.
    await renameSilently(id, 'Seen through agents');
    await t.database.db.execute(sql`update agents set name = name where company_id = ${id}`);
    expect((await get(`/api/companies/${id}`)).json().data.name).toBe('Seen through agents');
  });

  it('shows a new agent in the next list, and a company rename in the agent list it joins', async () => {
    const creator = freshAddress();
    const url = `/api/agents?creator=${creator}`;
    expect((await get(url)).json().data).toEqual([]);
    for (let i = 1; i <= 5; i++) {
      await t.database.db.insert(agents).values({
        id: createId(),
        name: `Cached agent ${i}`,
        creatorAddress: creator,
        persona: { role: 'Analyst', description: 'Reads.' },
        skills: ['charts'],
        strategy: { type: 'momentum', preset: 'BALANCED' },
      });
      const body = (await get(url)).json();
      expect(body.data).toHaveLength(i);
      expect(body.pagination.total).toBe(i);
    }
  });

  it('answers 304 to the tag of a kept body, and tags a v1 body by its content, not its timestamp', async () => {
    const id = await insertCompany('Tagged');
    const first = await get(`/api/companies/${id}`);
    const again = await get(`/api/companies/${id}`, { 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const a = await get('/api/v1/fortune?limit=3', { 'x-api-key': apiKey });
    await new Promise((r) => setTimeout(r, 5));
    const b = await get('/api/v1/fortune?limit=3', { 'x-api-key': apiKey });
    expect(a.json().meta.timestamp).not.toBe(b.json().meta.timestamp);
    expect(b.headers.etag).toBe(a.headers.etag);
    const notModified = await get('/api/v1/fortune?limit=3', {
      'x-api-key': apiKey,
      'if-none-match': a.headers.etag as string,
    });
    expect(notModified.statusCode).toBe(304);
    // A new company changes the ranking's content, and its tag.
    await insertCompany('Tag changer');
    const c = await get('/api/v1/fortune?limit=3', { 'x-api-key': apiKey, 'if-none-match': a.headers.etag as string });
    expect(c.statusCode).toBe(200);
    expect(c.headers.etag).not.toBe(a.headers.etag);
  });
});

describe('createChangeFeed', () => {
  it('has heard every change committed before caughtUp() was called once it resolves', async () => {
    const feed = createChangeFeed(t.database);
    expect(await feed.caughtUp()).toBe(true);
    const id = await insertCompany('Fenced');
    for (let i = 0; i < 200; i++) {
      const before = feed.position();
      // Committed by another connection of the pool; its notification travels on the listening one.
      await t.database.db.execute(sql`update companies set name = ${`Fenced ${i}`} where id = ${id}`);
      expect(await feed.caughtUp()).toBe(true);
      expect(feed.changedSince(['companies'], before), `write ${i}`).toBe(true);
    }
    await feed.stop();
  });

  it("knows each table's last change, forgets everything after a reconnection, and says when it cannot know", async () => {
    let notify!: (payload: string) => void;
    let listenFails = true;
    let connected = true;
    const feed = createChangeFeed({
      listen: async (_channel, onNotify) => {
        if (listenFails) throw new Error('no database');
        notify = onNotify;
        return async () => {};
      },
      caughtUp: async () => {
        if (!connected) throw new Error('lost');
      },
    });
    expect(await feed.caughtUp()).toBe(false);
    listenFails = false;
    // A failed LISTEN is tried again after a second, not on every request.
    expect(await feed.caughtUp()).toBe(false);
    await new Promise((r) => setTimeout(r, 1010));
    expect(await feed.caughtUp()).toBe(true);
    const p = feed.position();
    expect(feed.changedSince(['companies', 'agents'], p)).toBe(false);
    notify('score_snapshots');
    expect(feed.changedSince(['companies', 'agents'], p)).toBe(false);
    notify('agents');
    expect(feed.changedSince(['companies'], p)).toBe(false);
    expect(feed.changedSince(['companies', 'agents'], p)).toBe(true);
    const q = feed.position();
    notify('');
    expect(feed.changedSince(['companies'], q)).toBe(true);
    connected = false;
    expect(await feed.caughtUp()).toBe(false);
    await feed.stop();
  });
});

describe('createReadCache', () => {
  /** A feed that is told when tables change, and can be made to lose its connection. */
  function manualFeed() {
    let seq = 0;
    let up = true;
    let resetAt = 0;
    const changed = new Map<string, number>();
    const feed: ChangeFeed = {
      caughtUp: async () => up,
      position: () => seq,
      changedSince: (tables, position) =>
        resetAt > position || tables.some((table) => (changed.get(table) ?? 0) > position),
      stop: async () => {},
    };
    return {
      feed,
      change: (table: string) => changed.set(table, ++seq),
      /** Down, or back up: then, as the real feed, it cannot say what changed meanwhile. */
      setUp: (value: boolean) => {
        if (value && !up) resetAt = ++seq;
        up = value;
      },
    };
  }

  function reply() {
    const sent: { status: number; body?: string; headers: Record<string, string> } = { status: 200, headers: {} };
    const r = {
      request: { headers: {} as { 'if-none-match'?: string } },
      serialize: (payload: unknown) => JSON.stringify(payload),
      header(name: string, value: string) {
        sent.headers[name] = value;
        return r;
      },
      code(status: number) {
        sent.status = status;
        return { send: () => sent };
      },
      type(contentType: string) {
        sent.headers['content-type'] = contentType;
        return {
          send: (body: string) => {
            sent.body = body;
            return sent;
          },
        };
      },
    };
    return r;
  }

  it('reads again after a change, every time while the feed cannot say, and after its maximum age', async () => {
    const m = manualFeed();
    const cache = createReadCache(t.database, { feed: m.feed, maxBytes: 1024 * 1024 });
    const route = cache.route('r', { tables: ['companies'] });
    let reads = 0;
    const build = async () => ({ n: ++reads });
    const body = async () => JSON.parse((await route.send(reply(), 'k', build)).body as string).n;
    expect(await body()).toBe(1);
    expect(await body()).toBe(1);
    m.change('agents');
    expect(await body()).toBe(1);
    m.change('companies');
    expect(await body()).toBe(2);
    m.setUp(false);
    expect(await body()).toBe(3);
    expect(await body()).toBe(4);
    m.setUp(true);
    expect(await body()).toBe(5);
    expect(await body()).toBe(5);

    const aged = cache.route('aged', { tables: ['companies'], maxAgeMs: 30 });
    let agedReads = 0;
    const agedBody = async () =>
      JSON.parse((await aged.send(reply(), 'k', async () => ({ n: ++agedReads }))).body as string).n;
    expect(await agedBody()).toBe(1);
    expect(await agedBody()).toBe(1);
    await new Promise((r) => setTimeout(r, 40));
    expect(await agedBody()).toBe(2);
  });

  it('shares a read still current, and starts another when its table changed meanwhile', async () => {
    const m = manualFeed();
    const cache = createReadCache(t.database, { feed: m.feed, maxBytes: 1024 * 1024 });
    const route = cache.route('r', { tables: ['companies'] });
    const releases: (() => void)[] = [];
    const slow = () =>
      new Promise<{ n: number }>((resolve) => {
        const n = releases.length + 1;
        releases.push(() => resolve({ n }));
      });
    const tick = () => new Promise((r) => setTimeout(r, 1));
    const first = route.send(reply(), 'k', slow);
    await tick();
    // Asked while the first read runs and nothing changed: it shares that read.
    const second = route.send(reply(), 'k', slow);
    await tick();
    expect(releases).toHaveLength(1);
    m.change('companies');
    // Asked after a change: the running read may predate it, so a new one starts.
    const third = route.send(reply(), 'k', slow);
    await tick();
    expect(releases).toHaveLength(2);
    for (const release of releases) release();
    const [a, b, c] = await Promise.all([first, second, third]);
    expect([a, b, c].map((r) => JSON.parse(r.body as string).n)).toEqual([1, 1, 2]);
    // The first read ended after the change: it was not kept; the second was.
    let readAgain = false;
    const d = await route.send(reply(), 'k', async () => {
      readAgain = true;
      return { n: 3 };
    });
    expect(readAgain).toBe(false);
    expect(JSON.parse(d.body as string).n).toBe(2);
  });

  it('keeps at most its byte budget, dropping the least recently used first', async () => {
    const m = manualFeed();
    const cache = createReadCache(t.database, { feed: m.feed, maxBytes: 3 * 320 });
    const route = cache.route('r', { tables: ['companies'] });
    const text = (k: string) => ({ k, pad: 'x'.repeat(90) });
    for (const k of ['a', 'b', 'c']) await route.send(reply(), k, async () => text(k));
    expect(cache.size().entries).toBe(3);
    await route.send(reply(), 'a', async () => text('a')); // a is now the most recent
    await route.send(reply(), 'd', async () => text('d')); // b goes
    expect(cache.size().entries).toBe(3);
    expect(cache.size().bytes).toBeLessThanOrEqual(3 * 320);
    let readAgain = false;
    await route.send(reply(), 'b', async () => {
      readAgain = true;
      return text('b');
    });
    expect(readAgain).toBe(true);
  });

  it('drops a body served long ago before newer ones never served again', async () => {
    const m = manualFeed();
    const cache = createReadCache(t.database, { feed: m.feed, maxBytes: 3 * 320 });
    const route = cache.route('r', { tables: ['companies'] });
    const text = (k: string) => ({ k, pad: 'x'.repeat(90) });
    for (const k of ['a', 'b', 'c']) await route.send(reply(), k, async () => text(k));
    await route.send(reply(), 'c', async () => text('c')); // served once, long before d, e and f
    for (const k of ['d', 'e', 'f']) await route.send(reply(), k, async () => text(k));
    const reads: string[] = [];
    for (const k of ['d', 'e', 'f', 'c']) {
      await route.send(reply(), k, async () => {
        reads.push(k);
        return text(k);
      });
    }
    // d, e and f were used after c: c went. (A mark on each hit kept c over d, the newest read but one: a route
    // whose paths are each asked once in turn then missed on every request while older bodies stayed.)
    expect(reads).toEqual(['c']);
  });

  it('keeps a new body when every older one was served again, dropping the least recently served', async () => {
    const m = manualFeed();
    const cache = createReadCache(t.database, { feed: m.feed, maxBytes: 3 * 320 });
    const route = cache.route('r', { tables: ['companies'] });
    const text = (k: string) => ({ k, pad: 'x'.repeat(90) });
    for (const k of ['a', 'b', 'c']) await route.send(reply(), k, async () => text(k));
    for (const k of ['a', 'b', 'c']) await route.send(reply(), k, async () => text(k)); // each served again, a first
    await route.send(reply(), 'd', async () => text('d'));
    expect(cache.size().entries).toBe(3);
    const reads: string[] = [];
    for (const k of ['d', 'c', 'b', 'a']) {
      await route.send(reply(), k, async () => {
        reads.push(k);
        return text(k);
      });
    }
    // The new body stays (a cache full of bodies served once would otherwise keep nothing new); `a` went.
    expect(reads).toEqual(['a']);
  });
});

// The client package (packages/client): it builds with tsc into a package that runs (its built dist is imported and
// called here), its types are the v1 document's (a list path, a query parameter or a field the API lacks fails
// `tsc -p .`), it pages a v1 list by cursor to the end, refuses with the v1 error's code, and follows the event
// stream: the SSE framing whatever the chunking, a reconnect that resumes with Last-Event-ID after a failed attempt,
// and a fatal 4xx. (test/e2e/bot.test.ts runs it against a real server process across a restart.)
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  createClient,
  type EventType,
  type ListItem,
  type ListPath,
  type ListQuery,
} from '../../packages/client/src/index.ts';
import { platformEvents } from '../../src/db/schema/events.ts';
import { createApiKey } from '../../src/domain/auth/api-keys.ts';
import { publishEvent, purgeExpiredEvents } from '../../src/domain/events/store.ts';
import { useTestApp } from '../helpers/app.ts';
import { insertCompany, payloads } from '../helpers/events.ts';
import { REPO_ROOT } from '../helpers/process.ts';

// Compile-time checks of the generated types (tsc -p . fails when one is false).
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;
type TypeChecks = [
  Expect<
    Equal<ListPath, '/api/v1/events' | '/api/v1/fortune' | '/api/v1/tokens' | '/api/v1/trades' | '/api/v1/webhooks'>
  >,
  Expect<Equal<NonNullable<ListQuery<'/api/v1/events'>['after']>, string>>,
  Expect<Equal<ListItem<'/api/v1/fortune'>['rank'], number>>,
  Expect<Equal<NonNullable<ListQuery<'/api/v1/tokens'>['status']>, 'BONDING' | 'GRADUATED'>>,
  Expect<Equal<EventType, 'decision' | 'trade' | 'score' | 'season'>>,
];
const typeChecks: TypeChecks = [true, true, true, true, true];

const t = useTestApp();
const PACKAGE = path.join(REPO_ROOT, 'packages', 'client');
let base: string;
let apiKey: string;
const companyIds: string[] = [];

beforeAll(async () => {
  apiKey = (await createApiKey(t.database.db, 'client-package')).key;
  for (let i = 0; i < 5; i++) companyIds.push((await insertCompany(t.database.db, `client-co-${i}`)).id);
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

describe('the package', () => {
  afterAll(() => rmSync(path.join(PACKAGE, 'dist'), { recursive: true, force: true }));

  it('builds with tsc, and the built package pages a list over loopback', async () => {
    // The type checks above hold (tsc -p . checks them; this only uses the value).
    expect(typeChecks).toEqual([true, true, true, true, true]);
    const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const run = spawnSync(process.execPath, [tsc, '-p', PACKAGE], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
    for (const file of ['index.js', 'index.d.ts', 'schema.d.ts'])
      expect(existsSync(path.join(PACKAGE, 'dist', file))).toBe(true);
    const built = (await import(
      pathToFileURL(path.join(PACKAGE, 'dist', 'index.js')).href
    )) as typeof import('../../packages/client/src/index.ts');
    const client = built.createClient({ baseUrl: `${base}/`, apiKey });
    const slugs: string[] = [];
    for await (const item of client.items('/api/v1/fortune', { limit: 2 })) slugs.push(item.slug);
    expect(slugs.sort()).toEqual([0, 1, 2, 3, 4].map((i) => `client-co-${i}`));
  }, 120_000);
});

describe('pages', () => {
  it('follows the cursors from the page asked for to the last, each page typed', async () => {
    const client = createClient({ baseUrl: base, apiKey });
    const all = (await client.api.GET('/api/v1/fortune', { params: { query: { limit: 100 } } })).data!.data;
    const pages = [];
    const urls: string[] = [];
    const spy = createClient({
      baseUrl: base,
      apiKey,
      fetch: (input) => {
        urls.push(new URL((input as Request).url).search);
        return fetch(input);
      },
    });
    for await (const page of spy.pages('/api/v1/fortune', { limit: 2, page: 2 })) pages.push(page);
    expect(pages.map((p) => p.data.map((d) => d.rank))).toEqual([[3, 4], [5]]);
    expect(pages.flatMap((p) => p.data.map((d) => d.id))).toEqual(all.slice(2).map((d) => d.id));
    // The second request names the cursor and no page.
    expect(urls[0]).toBe('?limit=2&page=2');
    expect(urls[1]).toMatch(/^\?limit=2&cursor=[A-Za-z0-9_-]+$/);
    expect(pages.at(-1)!.pagination).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it('throws the v1 error with its status and code', async () => {
    const client = createClient({ baseUrl: base, apiKey: 'aie_wrong' });
    const error = await client
      .pages('/api/v1/tokens')
      .next()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const bad = createClient({ baseUrl: base, apiKey });
    const refused = await bad
      .pages('/api/v1/fortune', { limit: 101 })
      .next()
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: [{ path: 'query.limit' }] });
  });
});

/** A text/event-stream body cut into the given chunks. */
const sseBody = (chunks: string[]) =>
  new Response(
    new ReadableStream({
      start(controller) {
        for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
        controller.close();
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );

describe('events', () => {
  it('reads the frames whatever the chunking, and resumes after a drop with Last-Event-ID', async () => {
    const event = (id: number) =>
      JSON.stringify({ id: String(id), type: 'score', companyId: 'c', data: {}, timestamp: 'x' });
    const sent: (string | null)[] = [];
    let call = 0;
    const fake = async (_url: string | URL | Request, init?: RequestInit) => {
      sent.push(new Headers(init?.headers).get('last-event-id'));
      call++;
      if (call === 1) {
        // CRLF split across chunks, a comment, a field without a space, a multi-line data.
        return sseBody([
          'retry: 10\r\nid: 4\r',
          '\nevent: connected\r\ndata: {"type":"connected"}\r\n\r\n: ping\n\n',
          `id:5\nevent: score\ndata: ${event(5).slice(0, 20)}`,
          `${event(5).slice(20)}\n\nid: 6\nevent: score\ndata: ${event(6)}\n\n`,
        ]);
      }
      if (call === 2) throw new TypeError('fetch failed: ECONNREFUSED');
      return sseBody([`id: 7\nevent: score\ndata: ${event(7)}\n\n`]);
    };
    const client = createClient({ baseUrl: 'http://example.invalid', apiKey: 'k', fetch: fake as typeof fetch });
    const controller = new AbortController();
    const stream = client.events({ types: ['score'], signal: controller.signal, maxReconnectDelayMs: 50 });
    const ids: string[] = [];
    for await (const e of stream) {
      ids.push(e.id);
      if (ids.length === 3) controller.abort();
    }
    expect(ids).toEqual(['5', '6', '7']);
    // Fresh, then resumed after the last event twice (the refused attempt, then the one that worked).
    expect(sent).toEqual([null, '6', '6']);
    expect(stream.lastEventId).toBe('7');
  });

  it('follows the real stream from a given id, and gives up on a refusal that would repeat', async () => {
    const client = createClient({ baseUrl: base, apiKey });
    const first = await publishEvent(t.database.db, { type: 'trade', companyId: companyIds[0]!, data: payloads.trade });
    const second = await publishEvent(t.database.db, {
      type: 'score',
      companyId: companyIds[1]!,
      data: payloads.score,
    });
    const controller = new AbortController();
    const stream = client.events({ lastEventId: String(Number(first.id) - 1), signal: controller.signal });
    const got = [];
    for await (const e of stream) {
      got.push(e);
      if (got.length === 2) controller.abort();
    }
    expect(got.map((e) => [e.id, e.type])).toEqual([
      [first.id, 'trade'],
      [second.id, 'score'],
    ]);
    const trade = got[0]!;
    if (trade.type === 'trade' && trade.data.kind === 'trade') expect(trade.data.amount).toBe(payloads.trade.amount);
    else expect.fail('a trade event');
    const refused = createClient({ baseUrl: base, apiKey: 'aie_wrong' }).events();
    await expect(refused[Symbol.asyncIterator]().next()).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });
});

describe('events older than the stream serves', () => {
  it('with backfill: true, reads them from the backfill on the 410 and resumes the stream after them', async () => {
    const client = createClient({ baseUrl: base, apiKey });
    const published = [];
    for (let i = 0; i < 3; i++) {
      published.push(
        await publishEvent(t.database.db, { type: 'score', companyId: companyIds[3]!, data: payloads.score }),
      );
    }
    while (t.container.events.reader.cursor < BigInt(published[2]!.id)) await new Promise((r) => setTimeout(r, 10));
    // Two hours old: outside the stream's hour, inside the backfill's two days.
    await t.database.db.execute(
      sql`update ${platformEvents} set timestamp = now() - interval '2 hours' where id <= ${published[2]!.id} and id >= ${published[0]!.id}`,
    );
    const after = String(BigInt(published[0]!.id) - 1n);
    // Without the option the follower ends with the 410, pointing to the backfill.
    await expect(client.events({ lastEventId: after })[Symbol.asyncIterator]().next()).rejects.toMatchObject({
      status: 410,
      code: 'EVENTS_EXPIRED',
      details: [{ message: expect.stringMatching(/^outside the stream's window/) }],
    });
    const controller = new AbortController();
    const backfills: { after: string; events: number }[] = [];
    const resumes: (string | undefined)[] = [];
    const stream = client.events({
      lastEventId: after,
      companies: [companyIds[3]!],
      backfill: true,
      signal: controller.signal,
      onBackfill: (info) => backfills.push(info),
      onConnect: ({ lastEventId }) => resumes.push(lastEventId),
    });
    const got: string[] = [];
    let fourth: string | undefined;
    for await (const event of stream) {
      got.push(event.id);
      if (got.length === 3) {
        fourth = (await publishEvent(t.database.db, { type: 'score', companyId: companyIds[3]!, data: payloads.score }))
          .id;
      }
      if (got.length === 4) controller.abort();
    }
    expect(got).toEqual([...published.map((e) => e.id), fourth]);
    expect(backfills).toEqual([{ after, events: 3 }]);
    // The stream opened once, after the backfill's last event.
    expect(resumes).toEqual([published[2]!.id]);
  });
});

describe('events the retention deleted', () => {
  it('pages the backfill with pages(), then a follower resuming from deleted events stops with 410 EVENTS_EXPIRED', async () => {
    const client = createClient({ baseUrl: base, apiKey });
    const published = [];
    for (let i = 0; i < 3; i++) {
      published.push(
        await publishEvent(t.database.db, { type: 'trade', companyId: companyIds[2]!, data: payloads.trade }),
      );
    }
    // The reader settles them before a page may hold them.
    while (t.container.events.reader.cursor < BigInt(published[2]!.id)) await new Promise((r) => setTimeout(r, 10));
    const after = String(BigInt(published[0]!.id) - 1n);
    const pages = [];
    for await (const page of client.pages('/api/v1/events', { after, limit: 2, companies: companyIds[2] }))
      pages.push(page);
    expect(pages.map((p) => p.data.map((e) => e.id))).toEqual([
      [published[0]!.id, published[1]!.id],
      [published[2]!.id],
    ]);
    await t.database.db.execute(
      sql`update ${platformEvents} set timestamp = now() - interval '3 days' where id <= ${published[0]!.id}`,
    );
    await purgeExpiredEvents(t.database.db, new Date(Date.now() - t.config.eventBackfillRetentionMs));
    const follower = client.events({ lastEventId: after });
    await expect(follower[Symbol.asyncIterator]().next()).rejects.toMatchObject({
      status: 410,
      code: 'EVENTS_EXPIRED',
      details: [
        { path: 'headers.last-event-id', message: expect.stringMatching(/^expired: the oldest event held is /) },
      ],
    });
    const expired = await client
      .pages('/api/v1/events', { after })
      .next()
      .catch((e: unknown) => e);
    expect(expired).toMatchObject({ status: 410, code: 'EVENTS_EXPIRED' });
  });
});

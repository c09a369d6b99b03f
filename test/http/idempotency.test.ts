// Idempotent signed writes (docs/api/README.md "Idempotent writes"): an Idempotency-Key on a wallet-signed write makes
// the same request within 24 hours get the first answer again (Idempotent-Replayed: true) without running again,
// even with its signature already used; another request under the key gets 409 IDEMPOTENCY_KEY_REUSED; keys are per
// signer; a request still running holds its key (409 IDEMPOTENCY_KEY_IN_USE) until it answers or goes stale; only final
// answers are kept. Tested on PATCH /api/companies/{id} and on a probe route behind the same guard, over loopback HTTP
// where requests must really overlap.
import { randomUUID } from 'node:crypto';
import { canonicalJson } from '@ai-economy/shared/canonical-json';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { IDEMPOTENCY_IN_PROGRESS_STALE_MS, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_TTL_MS } from '../../src/constants.ts';
import { idempotencyKeys } from '../../src/db/schema/auth.ts';
import { companies } from '../../src/db/schema/companies.ts';
import type { ComputeProvider } from '../../src/domain/compute/provider.ts';
import { AppError } from '../../src/errors.ts';
import { requireWallet } from '../../src/http/auth/index.ts';
import { isFinalAnswer, requestFingerprint } from '../../src/http/plugins/idempotency.ts';
import { startTestApp, useTestApp } from '../helpers/app.ts';
import { companyBody, mintCard, signed } from '../helpers/companies.ts';
import { type HttpMethod, type MessageSigner, serializeBody, signedRequest } from '../helpers/security.ts';

/** The probe route's runs, and a gate its handler waits at when one is set. */
let probeRuns = 0;
let probeGate: Promise<void> | undefined;
let probeEntered: (() => void) | undefined;

const t = useTestApp({
  compute: {
    kind: 'test',
    startMachine: async () => 'm-1',
    resizeMachine: async () => {},
    updateEnv: async () => {},
  } satisfies ComputeProvider,
  // A signed write answering the status its path names, counting its runs; 201 carries a Location.
  extraRoutes: (app, container) => {
    app.post<{ Params: { status: string } }>(
      '/test/idem/:status',
      { preValidation: requireWallet(container) },
      async (request, reply) => {
        const n = ++probeRuns;
        probeEntered?.();
        if (probeGate) await probeGate;
        const status = Number(request.params.status);
        if (status === 500) throw new Error('boom');
        if (status === 429) throw new AppError('RATE_LIMITED', 'slow down', { headers: { 'retry-after': '3' } });
        if (status === 404) throw new AppError('NOT_FOUND', `no such thing (run ${n})`);
        if (status === 201) reply.header('location', `/test/things/${n}`);
        return reply.status(status).send({ success: true, data: { run: n, signer: request.signer } });
      },
    );
  },
});

let id: string;
beforeAll(async () => {
  await mintCard(t.chain, 1);
  const res = await signed(t.app, 1, 'POST', '/api/companies', companyBody());
  expect(res.statusCode).toBe(201);
  id = res.json().data.id;
});

const nowS = () => Math.floor(Date.now() / 1000);
const usedTs = new Set<string>();
/** The latest second within the window not yet signed for this request, so no two requests share a signature by chance. */
const freshTs = (signer: MessageSigner, method: string, url: string, body: unknown) => {
  let ts = nowS();
  while (usedTs.has(`${signer.address} ${method} ${url} ${serializeBody(body)} ${ts}`)) ts--;
  usedTs.add(`${signer.address} ${method} ${url} ${serializeBody(body)} ${ts}`);
  return ts;
};

let listening: string | undefined;
/** The app over loopback HTTP, for requests that must really overlap. */
const baseUrl = async () => {
  listening ??= await t.app.listen({ port: 0, host: '127.0.0.1' });
  return listening;
};

/** The headers of one signed request with an Idempotency-Key (none when `key` is undefined). */
async function keyed(
  method: HttpMethod,
  url: string,
  body: unknown,
  key: string | undefined,
  options: { signer?: MessageSigner; ts?: number; claimed?: MessageSigner } = {},
) {
  const signer = options.signer ?? devAccount(1);
  const headers = await signedRequest(
    signer,
    method,
    url,
    body,
    options.ts ?? freshTs(signer, method, url, body),
    (options.claimed ?? signer).address,
  );
  return key === undefined ? headers : { ...headers, 'idempotency-key': key };
}

const send = (method: HttpMethod, url: string, headers: Record<string, string>, body?: unknown) => {
  const payload = serializeBody(body);
  return t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
};

const ceoPromptOf = async () => {
  const [row] = await t.database.db
    .select({ ceoPrompt: companies.ceoPrompt })
    .from(companies)
    .where(eq(companies.id, id));
  return row!.ceoPrompt;
};

/** Sets the directive without a key, so a later replay that ran again would show. */
const setPrompt = async (ceoPrompt: string) => {
  const res = await signed(t.app, 1, 'PATCH', `/api/companies/${id}`, { ceoPrompt });
  expect(res.statusCode).toBe(200);
};

const age = (key: string, ms: number) =>
  t.database.db
    .update(idempotencyKeys)
    .set({ createdAt: sql`${idempotencyKeys.createdAt} - make_interval(secs => ${ms / 1000})` })
    .where(eq(idempotencyKeys.key, key));

describe('PATCH /api/companies/{id} with an Idempotency-Key', () => {
  const url = () => `/api/companies/${id}`;

  it('answers the same request again with the first answer, marked, without running it again', async () => {
    const key = randomUUID();
    const body = { ceoPrompt: 'first', autonomyLevel: 'STRATEGY_AUTONOMOUS' };
    const headers = await keyed('PATCH', url(), body, key);
    const first = await send('PATCH', url(), headers, body);
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(first.json().data.ceoPrompt).toBe('first');

    await setPrompt('changed since');
    // The very same bytes, signature included: before, "Signature already used".
    const again = await send('PATCH', url(), headers, body);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.body).toBe(first.body);
    expect(await ceoPromptOf()).toBe('changed since');

    // Signed anew a second later, the body's keys in another order and spaced out: the same request.
    const raw = '{ "autonomyLevel": "STRATEGY_AUTONOMOUS",  "ceoPrompt": "first" }';
    const resigned = await send('PATCH', url(), await keyed('PATCH', url(), raw, key), raw);
    expect(resigned.statusCode).toBe(200);
    expect(resigned.headers['idempotent-replayed']).toBe('true');
    expect(resigned.body).toBe(first.body);
    expect(await ceoPromptOf()).toBe('changed since');
  });

  it('answers 409 IDEMPOTENCY_KEY_REUSED to another request under the same key, and runs nothing', async () => {
    const key = randomUUID();
    const body = { ceoPrompt: 'kept' };
    expect((await send('PATCH', url(), await keyed('PATCH', url(), body, key), body)).statusCode).toBe(200);
    await setPrompt('untouched');

    const otherBody = { ceoPrompt: 'another' };
    const other = await send('PATCH', url(), await keyed('PATCH', url(), otherBody, key), otherBody);
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ success: false, error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    expect(other.json().error.message).toMatch(/another request/);

    const engineUrl = `${url()}/engine`;
    const engineBody = { autonomyLevel: 'FULLY_AUTONOMOUS' };
    const engine = await send('PATCH', engineUrl, await keyed('PATCH', engineUrl, engineBody, key), engineBody);
    expect(engine.statusCode).toBe(409);
    expect(engine.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const withQuery = `${url()}?v=2`;
    const query = await send('PATCH', withQuery, await keyed('PATCH', withQuery, body, key), body);
    expect(query.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await ceoPromptOf()).toBe('untouched');
  });

  it("keeps keys per signer: another signer's request under the same key runs as its own", async () => {
    const key = randomUUID();
    const body = { ceoPrompt: 'by the creator' };
    const mine = await send('PATCH', url(), await keyed('PATCH', url(), body, key), body);
    expect(mine.statusCode).toBe(200);

    // Account 2 is not the creator: its own request runs (403), it does not read account 1's answer.
    const theirs = await send('PATCH', url(), await keyed('PATCH', url(), body, key, { signer: devAccount(2) }), body);
    expect(theirs.statusCode).toBe(403);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    // Nor can it claim account 1's address: the signature is checked before any stored answer is read.
    const forged = await send(
      'PATCH',
      url(),
      await keyed('PATCH', url(), body, key, { signer: devAccount(2), claimed: devAccount(1) }),
      body,
    );
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error.message).toMatch(/Invalid signature/);
    expect(forged.body).not.toContain('by the creator');

    const rows = await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(rows.map((r) => [r.signer, r.status]).sort()).toEqual(
      [
        [devAccount(1).address.toLowerCase(), 200],
        [devAccount(2).address.toLowerCase(), 403],
      ].sort(),
    );
  });

  it('runs the request again once its key is 24 hours old, and replays it a second before', async () => {
    const key = randomUUID();
    const body = { ceoPrompt: 'day one' };
    expect((await send('PATCH', url(), await keyed('PATCH', url(), body, key), body)).statusCode).toBe(200);
    await setPrompt('meanwhile');

    // 24 h less 1 s old (the request below comes within that second of the row's time): still replayed.
    await age(key, IDEMPOTENCY_TTL_MS - 1000);
    const before = await send('PATCH', url(), await keyed('PATCH', url(), body, key), body);
    expect(before.headers['idempotent-replayed']).toBe('true');
    expect(await ceoPromptOf()).toBe('meanwhile');

    await age(key, 1000);
    const after = await send('PATCH', url(), await keyed('PATCH', url(), body, key), body);
    expect(after.statusCode).toBe(200);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(await ceoPromptOf()).toBe('day one');
    // The key holds the new answer, for another 24 hours.
    const again = await send('PATCH', url(), await keyed('PATCH', url(), body, key), body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it(`takes keys of 1 to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters, and answers 400 for any other`, async () => {
    for (const key of ['k', 'x'.repeat(IDEMPOTENCY_KEY_MAX), ' !~ key with spaces ~! ']) {
      const body = { ceoPrompt: `key of ${key.length}` };
      const res = await send('PATCH', url(), await keyed('PATCH', url(), body, key), body);
      expect(res.statusCode, key).toBe(200);
    }
    for (const key of ['', 'x'.repeat(IDEMPOTENCY_KEY_MAX + 1), 'tab\there']) {
      const body = { ceoPrompt: 'bad key' };
      const headers = await keyed('PATCH', url(), body, key);
      const res = await send('PATCH', url(), headers, body);
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        error: { code: 'VALIDATION_ERROR', details: [{ path: 'headers.idempotency-key' }] },
      });
      // The refused request did not use its signature: sent without the key, it runs.
      const { 'idempotency-key': _, ...plain } = headers;
      expect((await send('PATCH', url(), plain, body)).statusCode).toBe(200);
    }
    // Credentials come first: a bad key on an unsigned request is a 401.
    const unsigned = await t.app.inject({
      method: 'PATCH',
      url: url(),
      headers: { 'idempotency-key': '', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(unsigned.statusCode).toBe(401);
  });

  it('without a key behaves as before: a signature sent twice is refused the second time', async () => {
    const body = { ceoPrompt: 'once' };
    const headers = await keyed('PATCH', url(), body, undefined);
    expect((await send('PATCH', url(), headers, body)).statusCode).toBe(200);
    const twice = await send('PATCH', url(), headers, body);
    expect(twice.statusCode).toBe(401);
    expect(twice.json().error.message).toMatch(/Signature already used/);
    // Nor does a key added afterwards make a used signature run again; the key stays free for a fresh one.
    const key = randomUUID();
    const late = await send('PATCH', url(), { ...headers, 'idempotency-key': key }, body);
    expect(late.statusCode).toBe(401);
    expect(late.json().error.message).toMatch(/Signature already used/);
    const fresh = await send('PATCH', url(), await keyed('PATCH', url(), body, key), body);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
  });

  it('lets exactly one of several identical requests sent at once run (loopback HTTP)', async () => {
    const base = await baseUrl();
    const key = randomUUID();
    const body = { ceoPrompt: `burst ${key}` };
    const headers = await keyed('PATCH', url(), body, key);
    const answers = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const res = await fetch(`${base}${url()}`, { method: 'PATCH', headers, body: JSON.stringify(body) });
        return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: await res.json() };
      }),
    );
    const ran = answers.filter((a) => a.status === 200 && a.replayed === null);
    expect(ran).toHaveLength(1);
    for (const a of answers) {
      if (a.status === 200) expect(a.body).toEqual(ran[0]!.body);
      else expect([a.status, a.body.error.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE']);
    }
  });
});

describe('PATCH /api/companies/{id} with COMPANY_PATCH_AUTH=ip', () => {
  it('refuses a key on an unsigned request (400), and keeps it for a signed one', async () => {
    const ip = await startTestApp({ database: t.database, chain: t.chain, env: { COMPANY_PATCH_AUTH: 'ip' } });
    try {
      const url = `/api/companies/${id}`;
      const unsigned = await ip.app.inject({
        method: 'PATCH',
        url,
        headers: { 'idempotency-key': randomUUID() },
        payload: { ceoPrompt: 'unsigned' },
      });
      expect(unsigned.statusCode).toBe(400);
      expect(unsigned.json().error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/signature/) });

      const key = randomUUID();
      const body = { ceoPrompt: 'signed in ip mode' };
      const headers = await keyed('PATCH', url, body, key);
      const first = await ip.app.inject({ method: 'PATCH', url, headers, payload: JSON.stringify(body) });
      expect(first.statusCode).toBe(200);
      const again = await ip.app.inject({ method: 'PATCH', url, headers, payload: JSON.stringify(body) });
      expect([again.statusCode, again.headers['idempotent-replayed']]).toEqual([200, 'true']);
    } finally {
      await ip.close();
    }
  });
});

describe('the guard on any signed write (probe route)', () => {
  const post = async (status: number, key: string, headers?: Record<string, string>) => {
    const url = `/test/idem/${status}`;
    return send('POST', url, headers ?? (await keyed('POST', url, { n: 1 }, key)), { n: 1 });
  };

  it('keeps a 201 with its Location, and a 404, and replays both', async () => {
    const key = randomUUID();
    const created = await post(201, key);
    expect(created.statusCode).toBe(201);
    const replay = await post(201, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers.location).toBe(created.headers.location);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(created.body);

    const missingKey = randomUUID();
    const missing = await post(404, missingKey);
    const runs = probeRuns;
    const missingAgain = await post(404, missingKey);
    expect([missingAgain.statusCode, missingAgain.headers['idempotent-replayed']]).toEqual([404, 'true']);
    expect(missingAgain.body).toBe(missing.body);
    expect(probeRuns).toBe(runs);
  });

  it.each([500, 429])('does not keep a %i: the same request runs again', async (status) => {
    const key = randomUUID();
    const runs = probeRuns;
    const first = await post(status, key);
    expect(first.statusCode).toBe(status);
    const second = await post(status, key);
    expect(second.statusCode).toBe(status);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(probeRuns).toBe(runs + 2);
    expect(await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_USE while the first request runs, then its answer (loopback HTTP)', async () => {
    const address = await baseUrl();
    const key = randomUUID();
    const url = '/test/idem/201';
    const headers = await keyed('POST', url, { n: 1 }, key);
    const call = async () => {
      const res = await fetch(`${address}${url}`, { method: 'POST', headers, body: JSON.stringify({ n: 1 }) });
      return { res, text: await res.text() };
    };
    let release!: () => void;
    probeGate = new Promise((r) => {
      release = r;
    });
    const entered = new Promise<void>((r) => {
      probeEntered = r;
    });
    const runs = probeRuns;
    try {
      const first = call();
      await entered;
      const second = await call();
      expect(second.res.status).toBe(409);
      // Retry-After belongs to 429 and 503: the message says when to retry.
      expect(second.res.headers.get('retry-after')).toBeNull();
      expect(JSON.parse(second.text).error.message).toMatch(/retry after 1 s/);
      expect(JSON.parse(second.text).error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      release();
      const done = await first;
      expect(done.res.status).toBe(201);
      const third = await call();
      expect(third.res.status).toBe(201);
      expect(third.res.headers.get('idempotent-replayed')).toBe('true');
      expect(third.text).toBe(done.text);
      expect(probeRuns).toBe(runs + 1);
    } finally {
      probeGate = undefined;
      probeEntered = undefined;
      release();
    }
  });

  it('lets a retry take over a reservation left unfinished for 60 s (a crash mid-request)', async () => {
    const key = randomUUID();
    let release!: () => void;
    probeGate = new Promise((r) => {
      release = r;
    });
    const entered = new Promise<void>((r) => {
      probeEntered = r;
    });
    const runs = probeRuns;
    try {
      const stuck = post(201, key);
      await entered;
      probeGate = undefined;
      probeEntered = undefined;
      const reserved = eq(idempotencyKeys.key, key);
      const ageLock = (ms: number) =>
        t.database.db
          .update(idempotencyKeys)
          .set({ lockedAt: sql`${idempotencyKeys.lockedAt} - make_interval(secs => ${ms / 1000})` })
          .where(reserved);
      // 1 s short of stale (the retry comes within that second): still in use.
      await ageLock(IDEMPOTENCY_IN_PROGRESS_STALE_MS - 1000);
      expect((await post(201, key)).json().error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      await ageLock(1000);
      const retry = await post(201, key);
      expect(retry.statusCode).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      expect(retry.json().data.run).toBe(runs + 2);
      // The stuck request finishes late: its answer is not the one kept.
      release();
      expect((await stuck).json().data.run).toBe(runs + 1);
      const replay = await post(201, key);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toBe(retry.body);
    } finally {
      probeGate = undefined;
      probeEntered = undefined;
      release();
    }
  });
});

describe('the OpenAPI document', () => {
  it('declares Idempotency-Key, 409 and Idempotent-Replayed on every signed write, and on nothing else', () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, any>> };
    const signedWrites: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const takesKey = (op.parameters ?? []).some((p: any) => p.in === 'header' && p.name === 'Idempotency-Key');
        const wallet = (op.security ?? []).some((s: object) => 'wallet' in s);
        const write = ['post', 'put', 'patch', 'delete'].includes(method);
        expect(takesKey, `${method} ${path}`).toBe(wallet && write);
        if (!takesKey) continue;
        signedWrites.push(`${method} ${path}`);
        expect(op.responses['409'], `${method} ${path}`).toBeDefined();
        for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
          if (status.startsWith('2')) expect(response.headers?.['Idempotent-Replayed']).toBeDefined();
        }
      }
    }
    expect(signedWrites).toEqual(
      expect.arrayContaining([
        'post /api/companies',
        'patch /api/companies/{id}',
        'patch /api/companies/{id}/engine',
        'put /api/companies/{id}/treasury',
        'post /api/companies/{id}/deploy-suite',
        'post /api/agents',
        'put /api/agents/{id}',
        'delete /api/agents/{id}',
        'post /api/epochs/claim',
        'post /api/companies/{id}/token',
        'post /api/agents/{id}/withdraw',
        'post /api/companies/{id}/decisions/run',
      ]),
    );
  });
});

describe('the pieces', () => {
  it('writes JSON canonically: keys sorted at every depth, no spaces', () => {
    expect(canonicalJson(JSON.parse('{ "b": [ {"y":1,"x":2} ], "a": null, "c": "é" }'))).toBe(
      '{"a":null,"b":[{"x":2,"y":1}],"c":"é"}',
    );
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
    // A body may hold 1e999 (Infinity): the fingerprint writes it as JSON does; a decision refuses it.
    expect(canonicalJson(JSON.parse('{"a":1e999}'), 'null')).toBe('{"a":null}');
    expect(() => canonicalJson(JSON.parse('{"a":1e999}'))).toThrow(/non-finite/);
  });

  it('fingerprints a body nested deeper than any route accepts by its bytes, without recursing through it', () => {
    const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    const fingerprint = (raw: string) => requestFingerprint('POST', '/api/companies', raw, JSON.parse(raw));
    expect(() => fingerprint(deep(50_000))).not.toThrow();
    expect(fingerprint(deep(5_000))).not.toBe(fingerprint(deep(5_001)));
    // Just inside the bound the body is still read as JSON: white space does not count.
    expect(fingerprint(deep(63))).toBe(fingerprint(deep(63).replace('1', ' 1 ')));
    // A number JSON reads as Infinity is fingerprinted too (validation refuses it later).
    expect(() => fingerprint('{"name":1e999}')).not.toThrow();
  });

  it('keeps 2xx and the 4xx that do not depend on the moment', () => {
    expect([200, 201, 204, 299, 400, 401, 403, 404, 422, 499].every(isFinalAnswer)).toBe(true);
    expect([199, 304, 408, 409, 425, 429, 500, 503].some(isFinalAnswer)).toBe(false);
  });
});

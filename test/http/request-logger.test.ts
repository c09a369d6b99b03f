// A request's logger is made only when the request logs (src/http/request-logger.ts): the lines it writes are those
// of the pino child Fastify made for every request before, with the request id and the same redaction. And the access
// log (AccessLog): one line a request at info, the arrival only at debug, Fastify's error lines kept.
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AccessLog, lazyRequestLogger } from '../../src/http/request-logger.ts';
import { createLogger } from '../../src/logger.ts';

function appWith(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = createLogger(level, 'json', stream);
  let children = 0;
  const child = logger.child.bind(logger);
  logger.child = ((...args: Parameters<typeof child>) => {
    children++;
    return child(...args);
  }) as typeof logger.child;
  const app = Fastify({
    loggerInstance: logger,
    childLoggerFactory: lazyRequestLogger as never,
    logController: new AccessLog(),
  });
  app.get('/quiet', async (request) => {
    request.log.debug('not at warn');
    return { ok: true };
  });
  app.get('/loud', async (request) => {
    request.log.warn({ detail: 1 }, 'something to see');
    request.log.error('and worse');
    return { ok: true };
  });
  // Fastify makes children of its own while it starts: only those made by requests count.
  const ready = app.ready().then(() => {
    children = 0;
  });
  return { app, lines, children: () => children, ready };
}

describe('the request logger', () => {
  it('makes no child for a request that logs nothing at an enabled level', async () => {
    const { app, lines, children, ready } = appWith('warn');
    await ready;
    for (let i = 0; i < 3; i++) expect((await app.inject({ url: '/quiet' })).statusCode).toBe(200);
    expect(children()).toBe(0);
    expect(lines).toEqual([]);
    await app.close();
  });

  it("writes a request's lines with its request id, one child a request", async () => {
    const { app, lines, children, ready } = appWith('warn');
    await ready;
    const res = await app.inject({ url: '/loud', headers: { 'x-api-key': 'secret' } });
    expect(res.statusCode).toBe(200);
    expect(children()).toBe(1);
    expect(lines.map((l) => [l.msg, l.level, l.detail])).toEqual([
      ['something to see', 40, 1],
      ['and worse', 50, undefined],
    ]);
    const ids = new Set(lines.map((l) => l.reqId));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toEqual(expect.any(String));
    await app.close();
  });

  it('writes one access line a request at info: the request, its status and time, the request id, secrets redacted', async () => {
    const { app, lines } = appWith('info');
    await app.inject({ url: '/quiet?api_key=abc', headers: { 'x-api-key': 'secret' } });
    expect(lines.map((l) => l.msg)).toEqual(['request completed']);
    const [line] = lines as [Record<string, any>];
    expect(line.req).toEqual({ method: 'GET', url: '/quiet?api_key=[redacted]', remoteAddress: '127.0.0.1' });
    expect(line.res).toEqual({ statusCode: 200 });
    expect(line.responseTime).toEqual(expect.any(Number));
    expect(line.reqId).toEqual(expect.any(String));
    expect(JSON.stringify(lines)).not.toContain('secret');
    await app.close();
  });

  it('writes the arrival too at debug, with the same request id', async () => {
    const { app, lines } = appWith('debug');
    await app.inject({ url: '/quiet' });
    expect(lines.map((l) => l.msg)).toEqual(['incoming request', 'not at warn', 'request completed']);
    expect(new Set(lines.map((l) => l.reqId)).size).toBe(1);
    expect((lines[0] as { req: { url: string } }).req.url).toBe('/quiet');
    await app.close();
  });

  it("keeps Fastify's own error lines", async () => {
    const { app, lines } = appWith('info');
    app.get('/broken', async () => {
      throw new Error('it broke');
    });
    expect((await app.inject({ url: '/broken' })).statusCode).toBe(500);
    expect(lines.some((l) => l.msg === 'it broke' && l.level === 50)).toBe(true);
    expect(lines.filter((l) => l.msg === 'request completed')).toHaveLength(1);
    await app.close();
  });
});

// The terminal a person reads: pretty lines at a terminal outside production, JSON lines for everything else, the
// same redaction in both, and routine job lines kept at debug level.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { type Job, startScheduler } from '../src/jobs/scheduler.ts';
import { createLogger } from '../src/logger.ts';

const sink = () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
};

describe('LOG_FORMAT', () => {
  it('is pretty at a terminal outside production, and JSON in production or without a terminal', () => {
    expect(loadConfig({}, { stdoutIsTty: true }).logFormat).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'development' }, { stdoutIsTty: true }).logFormat).toBe('pretty');
    expect(loadConfig({}, { stdoutIsTty: false }).logFormat).toBe('json');
    expect(
      loadConfig({ NODE_ENV: 'production', WALLET_MASTER_SEED: 'a'.repeat(64) }, { stdoutIsTty: true }).logFormat,
    ).toBe('json');
  });

  it('is taken as given when set, and refused when unknown', () => {
    expect(loadConfig({ LOG_FORMAT: 'json' }, { stdoutIsTty: true }).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }, { stdoutIsTty: false }).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(ConfigError);
  });
});

describe('createLogger', () => {
  it('writes one readable line per record when pretty, with secrets redacted', () => {
    const { lines, stream } = sink();
    const log = createLogger('info', 'pretty', stream);
    log.info({ req: { method: 'GET', url: '/api/v1/tokens?api_key=aie_secret', headers: {} } }, 'hello there');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('INFO');
    expect(lines[0]).toContain('hello there');
    expect(lines[0]).toContain('api_key=[redacted]');
    expect(lines[0]).not.toContain('aie_secret');
    expect(() => JSON.parse(lines[0]!)).toThrow();
  });

  it('writes JSON lines otherwise', () => {
    const { lines, stream } = sink();
    createLogger('info', 'json', stream).info({ job: 'x' }, 'hello');
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, job: 'x', msg: 'hello' });
  });
});

describe('routine job lines', () => {
  it('are logged at debug level, so the info level shows only what matters', async () => {
    const { lines, stream } = sink();
    const log = createLogger('debug', 'json', stream);
    let ran = 0;
    const job: Job = {
      name: 'routine',
      pattern: '* * * * * *', // every second
      run: async () => {
        ran++;
      },
    };
    // The embedded database's container: the scheduler runs the job without a lock (one process).
    const container = { database: { kind: 'pglite', db: {} } } as never;
    const scheduler = startScheduler(container, log, [job]);
    try {
      for (let i = 0; i < 40 && ran === 0; i++) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      scheduler.stop();
    }
    expect(ran).toBeGreaterThan(0);
    const done = lines.map((l) => JSON.parse(l)).filter((r) => r.msg === 'job done');
    expect(done.length).toBeGreaterThan(0);
    for (const r of done) expect(r.level).toBe(20);
  });
});

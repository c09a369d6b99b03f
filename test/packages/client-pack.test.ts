// The client package as an integrator installs it: `npm pack` of packages/client (a copy, so the repository's own
// directory is left alone) builds `dist` through its `prepare` script, the tarball holds the built files, and a
// scratch project with only that tarball unpacked in its node_modules (and the one runtime dependency,
// openapi-fetch, linked from the repository's, so nothing is fetched from a network) imports it with plain node and
// type-checks against its declarations. The scratch program backs off a 429 with Retry-After and a 503 from a
// loopback server, reads the rate-limit state, verifies a Standard Webhooks delivery and signs a request.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/process.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'aie-client-pack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (command: string, args: string[], cwd: string) => {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_offline: 'true' },
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
};

// What an integrator's program does with the installed package.
const PROGRAM = `
import { createServer } from 'node:http';
import { createHmac } from 'node:crypto';
import { createClient, verifyWebhook, walletSignatureMessage, WebhookVerificationError } from '@ai-economy/client';

let calls = 0;
const server = createServer((req, res) => {
  calls++;
  const headers = { 'content-type': 'application/json', 'ratelimit-policy': '"key";q=600;w=60', ratelimit: '"key";r=' + (600 - calls) + ';t=42' };
  if (calls === 1) return res.writeHead(429, { ...headers, 'retry-after': '0' }).end('{"error":{"code":"RATE_LIMITED","message":"slow"}}');
  if (calls === 2) return res.writeHead(503, headers).end('{"error":{"code":"DATABASE_UNAVAILABLE","message":"down"}}');
  res.writeHead(200, headers).end(JSON.stringify({ data: [], pagination: { hasMore: false, nextCursor: null }, meta: {} }));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const retries = [];
const client = createClient({
  baseUrl: 'http://127.0.0.1:' + server.address().port,
  apiKey: 'aie_test',
  retry: { baseDelayMs: 10, onRetry: (info) => retries.push([info.status, info.retryAfter ?? null]) },
});
const { data, response } = await client.api.GET('/api/v1/tokens', { params: { query: { limit: 1 } } });
server.close();

const secret = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');
const body = JSON.stringify({ id: '7', type: 'score', companyId: 'c', data: {}, timestamp: 'x' });
const ts = String(Math.floor(Date.now() / 1000));
const sig = createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update('7.' + ts + '.' + body).digest('base64');
const headers = { 'webhook-id': '7', 'webhook-timestamp': ts, 'webhook-signature': 'v1,' + sig };
const event = await verifyWebhook(secret, headers, body);
const tampered = await verifyWebhook(secret, headers, body.replace('7', '8')).catch((e) => e instanceof WebhookVerificationError);

console.log(JSON.stringify({
  status: response.status, calls, retries, data, rateLimit: client.rateLimit,
  eventId: event.id, tampered,
  message: await walletSignatureMessage('POST', '/api/v1/companies', 1767225600, '{}'),
}));
`;

// What an integrator's TypeScript sees of it.
const TYPED = `
import { createClient, type RateLimitState, type WalletSigner } from '@ai-economy/client';
const client = createClient({ baseUrl: 'http://localhost' });
declare const signer: WalletSigner;
export async function launch() {
  const { data, idempotencyKey } = await client.write('post', '/api/v1/companies/{slug}/token', {
    signer,
    params: { slug: 'acme' },
    body: { name: 'Acme', symbol: 'ACME' },
  });
  const limit: RateLimitState | undefined = client.rateLimit;
  return [data.slug, idempotencyKey, limit?.remaining];
}
// @ts-expect-error: a body the route does not take
client.write('post', '/api/v1/companies/{slug}/token', { signer, params: { slug: 'a' }, body: { name: 'x' } });
// @ts-expect-error: not a signed write
client.write('post', '/api/v1/webhooks', { signer, body: { url: 'https://x' } });
`;

describe('npm pack of packages/client', () => {
  it('builds dist through prepare, and the tarball runs in a scratch project with node alone', () => {
    // A copy of the package whose parent's node_modules is the repository's: prepare finds tsc and openapi-fetch
    // as it would in the repository, without touching packages/client/dist.
    const copy = path.join(dir, 'pkg');
    cpSync(path.join(REPO_ROOT, 'packages', 'client'), copy, {
      recursive: true,
      filter: (source) => !/[\\/](dist|node_modules)$/.test(source),
    });
    symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const out = path.join(dir, 'out');
    mkdirSync(out);
    const packed = run('npm', ['pack', '--pack-destination', out, '--json'], copy);
    expect(packed.code, packed.err).toBe(0);
    const [tarball] = readdirSync(out);
    expect(tarball).toMatch(/^ai-economy-client-.*\.tgz$/);
    const listed = run('tar', ['-tzf', path.join(out, tarball!)], dir).out.split('\n');
    for (const file of ['index.js', 'index.d.ts', 'schema.d.ts', 'backoff.js', 'wallet.js', 'webhooks.js']) {
      expect(listed, file).toContain(`package/dist/${file}`);
    }

    // The scratch project: the tarball unpacked as npm would, openapi-fetch and its helper linked.
    const app = path.join(dir, 'app');
    const installed = path.join(app, 'node_modules', '@ai-economy', 'client');
    mkdirSync(installed, { recursive: true });
    expect(run('tar', ['-xzf', path.join(out, tarball!), '-C', installed, '--strip-components=1'], dir).code).toBe(0);
    for (const dep of ['openapi-fetch', 'openapi-typescript-helpers']) {
      symlinkSync(path.join(REPO_ROOT, 'node_modules', dep), path.join(app, 'node_modules', dep), 'dir');
    }
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'scratch', type: 'module', private: true }));
    writeFileSync(path.join(app, 'main.mjs'), PROGRAM);
    const main = run(process.execPath, ['main.mjs'], app);
    expect(main.err).toBe('');
    expect(main.code).toBe(0);
    const result = JSON.parse(main.out);
    // 429 (Retry-After 0) and 503 (none) backed off, then the answer.
    expect(result).toMatchObject({
      status: 200,
      calls: 3,
      retries: [
        [429, 0],
        [503, null],
      ],
      data: { data: [], pagination: { hasMore: false } },
      rateLimit: { policy: 'key', limit: 600, windowSeconds: 60, remaining: 597, resetSeconds: 42 },
      eventId: '7',
      tampered: true,
    });
    expect(result.message.split('\n')).toEqual([
      'ai-economy request',
      'POST /api/v1/companies',
      '1767225600',
      // sha256 of "{}"
      '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a',
    ]);

    // Its declarations, as an integrator's tsc reads them (NodeNext resolution, the package's `exports`).
    writeFileSync(path.join(app, 'typed.ts'), TYPED);
    writeFileSync(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
        files: ['typed.ts'],
      }),
    );
    const tsc = run(
      process.execPath,
      [path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'],
      app,
    );
    expect(tsc.out + tsc.err).toBe('');
    expect(tsc.code).toBe(0);
  }, 120_000);
});

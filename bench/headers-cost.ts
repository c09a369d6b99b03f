// What an answer's headers cost: one Fastify instance per set of headers in this process, each a route that sends
// the NFT metadata's 622 bytes from memory with its headers set in one call from an onRequest hook, driven in turn by
// autocannon from a child process (bench/http-load.ts). Prints each set's requests a second, its ratio to the set
// with no extra header, and the server's CPU a request. The sets are what an NFT document's answer carries: every
// header (before), the API's now (without helmet's document-only ones, its own short policy), and none.
//   npx tsx bench/headers-cost.ts [--rounds 3] [--seconds 4] [--connections 64]
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { readFlags, wholeNumberFlag } from '../scripts/flags.ts';
import { CORS_HEADERS } from '../src/http/plugins/cors.ts';
import {
  API_CONTENT_SECURITY_POLICY,
  DOCUMENT_ONLY_HEADERS,
  securityHeaders,
} from '../src/http/plugins/security-headers.ts';
import { runAsScript } from './main.ts';
import { startLoadProcess } from './service.ts';

const BODY = `{"data":"${'x'.repeat(622 - 11)}"}`;

/** The per-answer headers an NFT document's answer carries besides the bare route's, as the service sets them. */
function answerHeaders(): Record<string, Record<string, string>> {
  const security = {
    ...securityHeaders({ baseUrl: 'http://127.0.0.1:3000' }, { local: true, rpcUrl: 'http://127.0.0.1:8545' }),
    ...CORS_HEADERS,
  };
  const perRequest = {
    'x-request-id': '6f1c2d3e-4b5a-4c6d-8e7f-901a2b3c4d5e',
    'x-ratelimit-limit': '10000000',
    'x-ratelimit-remaining': '9999123',
    'x-ratelimit-reset': '42',
    'ratelimit-policy': '"ip";q=10000000;w=60',
    ratelimit: '"ip";r=9999123;t=42',
    'cache-control': 'public, max-age=3600, s-maxage=86400',
    etag: '"b2d8f0e5c1a94e7d"',
  };
  // What the API's answers carry now: no document-only header, the API's own policy.
  const lean = {
    ...Object.fromEntries(Object.entries(security).filter(([k]) => !DOCUMENT_ONLY_HEADERS.includes(k))),
    'content-security-policy': API_CONTENT_SECURITY_POLICY,
  };
  return {
    none: {},
    'every header (21)': { ...security, ...perRequest },
    "the API's now (14)": { ...lean, ...perRequest },
    "without the rate limit's X- form (18)": Object.fromEntries(
      Object.entries({ ...security, ...perRequest }).filter(([k]) => !k.startsWith('x-ratelimit')),
    ),
  };
}

runAsScript(import.meta.url, async () => {
  const options = { rounds: 3, seconds: 4, connections: 64 };
  readFlags(process.argv.slice(2), {
    '--rounds': (v) => {
      options.rounds = wholeNumberFlag('--rounds', v(), 1);
    },
    '--seconds': (v) => {
      options.seconds = wholeNumberFlag('--seconds', v(), 1);
    },
    '--connections': (v) => {
      options.connections = wholeNumberFlag('--connections', v(), 1);
    },
  });
  const sets = answerHeaders();
  const servers: { name: string; url: string; count: number; close: () => Promise<void> }[] = [];
  for (const [name, headers] of Object.entries(sets)) {
    const app = Fastify({ logger: false });
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
    app.get('/doc', (_request, reply) => reply.type('application/json; charset=utf-8').send(BODY));
    await app.listen({ port: 0, host: '127.0.0.1' });
    servers.push({
      name,
      url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
      count: Object.keys(headers).length,
      close: () => app.close(),
    });
  }
  const loader = await startLoadProcess();
  const results = new Map<string, { rps: number[]; us: number[] }>(servers.map((s) => [s.name, { rps: [], us: [] }]));
  try {
    for (let round = 0; round < options.rounds; round++) {
      for (const server of servers) {
        const req = { url: server.url, path: '/doc', spread: 1, headers: {}, connections: options.connections };
        await loader.load({ ...req, seconds: 1 });
        const cpu = process.cpuUsage();
        const summary = await loader.load({ ...req, seconds: options.seconds });
        const used = process.cpuUsage(cpu);
        results.get(server.name)!.rps.push(summary.rps);
        results.get(server.name)!.us.push((used.user + used.system) / summary.requests);
      }
    }
  } finally {
    loader.close();
    for (const s of servers) await s.close();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const base = median(results.get('none')!.rps);
  console.table(
    Object.fromEntries(
      servers.map((s) => {
        const r = results.get(s.name)!;
        return [
          s.name,
          {
            headers: s.count,
            'req/s': Math.round(median(r.rps)),
            'ratio to none': +(median(r.rps) / base).toFixed(2),
            'server µs/req': +median(r.us).toFixed(1),
            rounds: r.rps.map((x) => Math.round(x)).join(' '),
          },
        ];
      }),
    ),
  );
});

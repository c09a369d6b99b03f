// A webhook receiver on loopback for the webhook tests: it answers as told (fail, succeed, redirect, hang) and keeps
// every request, with its signature checked as a receiver following Standard Webhooks would, written here apart
// from the service's signing code.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceiverMode = 'ok' | 'fail' | 'redirect' | 'hang' | 'nul';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** Whether one of the `webhook-signature` entries verified under the secret the receiver holds. */
  verified: boolean;
}

/** Standard Webhooks verification: any `v1,<sig>` of the space-separated list matching HMAC(id.timestamp.body). */
export function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, sig] = entry.split(',');
    if (version !== 'v1' || sig === undefined) return false;
    const given = Buffer.from(sig, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export interface Receiver {
  url: string;
  port: number;
  mode: ReceiverMode;
  /** The secret signatures are checked with. */
  secret: string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const hanging = new Set<import('node:http').ServerResponse>();
  const receiver = { mode: 'ok', secret: '', received: [] } as unknown as Receiver;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      receiver.received.push({
        headers: req.headers,
        body,
        verified: verifyStandardWebhook(receiver.secret, req.headers, body),
      });
      if (receiver.mode === 'hang') {
        hanging.add(res);
        return;
      }
      if (receiver.mode === 'redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
        return;
      }
      if (receiver.mode === 'fail') {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`receiver down ${'x'.repeat(2000)}`);
        return;
      }
      if (receiver.mode === 'nul') {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('bad\u0000answer\u0007');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.port = port;
  receiver.url = `http://127.0.0.1:${port}/hooks`;
  receiver.close = () =>
    new Promise((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
